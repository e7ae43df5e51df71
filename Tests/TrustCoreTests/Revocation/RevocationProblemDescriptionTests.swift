import TrustCore
import TrustCrypto
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// The typed revocation reasons read exactly as the text the checks wrote before they were typed
/// (the templates below are that text): verdict output, conformance reports and trustctl's JSON
/// compare it.
final class RevocationProblemDescriptionTests: XCTestCase {
    private let time = RevocationKit.revocationDate
    private let source = RevocationSource.fetchedCRL(url: RevocationKit.crlURL)

    private func issuer() throws -> DistinguishedName {
        try TestCertificates.certificate(RevocationKit.intermediate).subject
    }

    func testRevokedReadsAsBefore() {
        XCTAssertEqual(
            TrustFailureReason.revoked(source: .suppliedCRL, time: time, reason: .keyCompromise).summary,
            "revoked: revoked at \(time), reason \(CRLReason.keyCompromise) according to CRL (supplied)")
        XCTAssertEqual(
            TrustFailureReason.revoked(source: .suppliedOCSP, time: time, reason: nil).summary,
            "revoked: revoked at \(time) according to OCSP (supplied)")
    }

    func testRevocationUnavailableReadsAsBefore() throws {
        XCTAssertEqual(
            TrustFailureReason.revocationUnavailable(notes: [], fetchFailures: []).summary,
            "revocation status unavailable: no fresh CRL or OCSP response")
        let failure = FetchFailure(url: RevocationKit.ocspURL, purpose: .ocsp, reason: .deadlineReached)
        let notes: [RevocationProblem] = [.deltaCRLWithoutBase, .ocspCertificateUnknown(source: .suppliedOCSP)]
        XCTAssertEqual(
            TrustFailureReason.revocationUnavailable(notes: notes, fetchFailures: [failure]).summary,
            "revocation status unavailable: delta CRL without a usable base CRL (RFC 5280 §5.2.4); "
                + "OCSP (supplied): responder does not know the certificate; \(failure)")
    }

    func testRevocationInformationInvalidReadsAsBefore() throws {
        let issuer = try issuer()
        let problem = RevocationProblem.suppliedCRLInvalid(source: .suppliedCRL, issuer: issuer, delta: false, problem: .missingCRLNumber)
        XCTAssertEqual(
            TrustFailureReason.revocationInformationInvalid(problem).summary,
            "invalid revocation information: CRL (supplied) from \(issuer): missing cRLNumber (RFC 5280 §5.2.3)")
    }

    func testCRLNotesReadAsBefore() throws {
        let issuer = try issuer()
        let stale = RevocationFreshnessProblem.nextUpdatePassed(nextUpdate: time)
        let texts: [(RevocationProblem, String)] = [
            (
                .crlNotUsed(source: source, issuer: issuer, delta: false, reason: .outOfScope(.onlyCAs)),
                "\(source) from \(issuer) not used: covers CA certificates only (onlyContainsCACerts, RFC 5280 §6.3.3 (b)(2)(iii))"
            ),
            (
                .crlNotUsed(source: source, issuer: issuer, delta: true, reason: .notFresh(stale)),
                "delta \(source) from \(issuer) not used: stale: nextUpdate \(time) has passed"
            ),
            (
                .crlNotUsed(source: source, issuer: issuer, delta: false, reason: .noSignerCandidate(issuer: issuer, keyIdentifier: [0xAB, 0x01])),
                "\(source) from \(issuer) not used: no certificate of \(issuer) with key identifier \(Certificate.hex([0xAB, 0x01])) "
                    + "to verify it with (RFC 5280 §6.3.3 (f))"
            ),
            (
                .crlNotUsed(source: source, issuer: issuer, delta: false, reason: .noSignerCandidate(issuer: issuer, keyIdentifier: nil)),
                "\(source) from \(issuer) not used: no certificate of \(issuer) to verify it with (RFC 5280 §6.3.3 (f))"
            ),
            (
                .fetchedCRLIgnored(
                    source: source, delta: false,
                    problem: .signersInvalid([
                        .keyUsageLacksCRLSign(signer: issuer),
                        .signatureNotVerified(signer: issuer, error: .invalidSignature),
                        .noValidPath(signer: issuer, firstFailure: TrustFailure(.untrustedRoot, certificate: nil, index: nil)),
                    ])),
                "\(source) ignored: \(issuer)'s keyUsage lacks cRLSign; signature not made by \(issuer)'s key: \(SignatureError.invalidSignature); "
                    + "CRL signer \(issuer) has no valid path to the trust anchor: chain does not end at a trusted anchor"
            ),
            (
                .fetchedCRLIgnored(source: source, delta: true, problem: .deltaNotSignedByCompleteCRLKey(.invalidSignature)),
                "delta \(source) ignored: signature not made by the complete CRL's key (RFC 5280 §6.3.3 (h)): \(SignatureError.invalidSignature)"
            ),
            (
                .suppliedCRLInvalid(source: .suppliedCRL, issuer: issuer, delta: true, problem: .unhandledCriticalExtension(name: "freshestCRL")),
                "delta CRL (supplied) from \(issuer): unhandled critical CRL extension freshestCRL (RFC 5280 §5.2)"
            ),
            (
                .suppliedCRLInvalid(source: .suppliedCRL, issuer: issuer, delta: false, problem: .criticalCRLNumber),
                "CRL (supplied) from \(issuer): cRLNumber must not be critical (RFC 5280 §5.2.3)"
            ),
            (
                .suppliedCRLInvalid(source: .suppliedCRL, issuer: issuer, delta: false, problem: .notVersion2),
                "CRL (supplied) from \(issuer): CRL is not v2"
            ),
            (
                .reasonsNotCovered([.keyCompromise]),
                "the CRLs found cover only the reasons \(RevocationReasons.keyCompromise), not all of them (RFC 5280 §6.3.3 (d), (l))"
            ),
        ]
        for (problem, text) in texts { XCTAssertEqual(problem.description, text) }
    }

    func testOCSPNotesReadAsBefore() throws {
        let issuer = try issuer()
        let source = RevocationSource.fetchedOCSP(url: RevocationKit.ocspURL)
        let texts: [(RevocationProblem, String)] = [
            (.ocspResponderAnswered(source: source, status: .tryLater), "\(source): responder answered \(OCSPResponse.ResponseStatus.tryLater)"),
            (
                .ocspResponseNotFresh(source: source, problem: .thisUpdateInFuture(thisUpdate: time)),
                "\(source) not used: thisUpdate \(time) is in the future"
            ),
            (
                .ocspResponseNotFresh(source: source, problem: .tooOldWithoutNextUpdate(thisUpdate: time)),
                "\(source) not used: stale: no nextUpdate and thisUpdate \(time) is too old"
            ),
            (.ocspResponseIgnored(source: source, problems: [.unknownResponder]), "\(source) ignored: signed by an unknown responder"),
            (
                .ocspResponseIgnored(source: source, problems: [.responderNotIssuedByIssuer(issuer: issuer)]),
                "\(source) ignored: responder certificate is not issued by \(issuer)"
            ),
            (
                .ocspResponseIgnored(
                    source: source,
                    problems: [
                        .issuerSignatureNotVerified(.invalidSignature),
                        .delegateNotIssuedByIssuer(delegate: issuer, issuer: issuer),
                        .delegateLacksOCSPSigning(delegate: issuer),
                        .delegateNotValidAtVerifyDate(delegate: issuer),
                        .delegateSignatureNotVerified(.invalidSignature),
                    ]),
                "\(source) ignored: signature by the issuer does not verify: \(SignatureError.invalidSignature); "
                    + "responder certificate \(issuer) is not issued by \(issuer); "
                    + "responder certificate \(issuer) lacks id-kp-OCSPSigning (RFC 6960 §4.2.2.2); "
                    + "responder certificate \(issuer) is not valid at the verify date; "
                    + "signature by the delegated responder does not verify: \(SignatureError.invalidSignature)"
            ),
            (.ocspCertificateUnknown(source: source), "\(source): responder does not know the certificate"),
        ]
        for (problem, text) in texts { XCTAssertEqual(problem.description, text) }
        XCTAssertEqual(RevocationFreshnessProblem.noNextUpdate.description, "no nextUpdate")
    }
}
