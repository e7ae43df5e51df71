import Foundation
import TrustCore
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// Offline OCSP checking through `ServerTrust` (docs/revocation.md, "OCSP rules").
final class RevocationOCSPTests: XCTestCase {
    typealias Kit = RevocationKit
    let soft: RevocationOptions = [.ocsp]
    /// Hard fail; the root's empty CRL covers the intermediate so that only the leaf is in question.
    let hard: RevocationOptions = [.ocsp, .crl, .requirePositiveResponse]

    func testGoodResponseSignedByTheIssuer() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: soft, ocsp: ["good-leaf-good"]).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedOCSP))
        XCTAssertEqual(Kit.status(evaluation, 1), .unknown(notes: []))
        let hardEvaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"], ocsp: ["good-leaf-good"]).evaluate()
        assertTrusted(hardEvaluation)
        XCTAssertEqual(hardEvaluation.revocationStatuses.map(\.status), [.good(source: .suppliedOCSP), .good(source: .suppliedCRL), .notChecked])
    }

    func testRevokedResponse() throws {
        let evaluation = try Kit.trust(Kit.revokedLeaf, options: soft, ocsp: ["revoked-leaf-revoked"]).evaluate()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .suppliedOCSP, time: Kit.revocationDate, reason: .keyCompromise))
        let description = Kit.firstFailure(evaluation)
        XCTAssertTrue(description.contains("OCSP (supplied)"), description)
        XCTAssertTrue(description.contains("keyCompromise"), description)
        XCTAssertTrue(description.contains("2026-04-01"), description)
        XCTAssertEqual(
            RevocationStatus.revoked(source: .suppliedOCSP, time: Kit.revocationDate, reason: .keyCompromise).description,
            "revoked 2026-04-01T00:00:00Z (keyCompromise) per OCSP (supplied)")
    }

    func testUnknownResponseIsNoInformation() throws {
        let leaf = "ecdsa/leaf.pem"
        let evaluation = try Kit.trust(leaf, options: soft, ocsp: ["unknown"]).evaluate()
        assertTrusted(evaluation)
        let notes = Kit.notes(Kit.status(evaluation, 0))
        XCTAssertTrue(notes.contains { $0.contains("does not know") }, "\(notes)")
        let hardEvaluation = try Kit.trust(leaf, options: hard, crls: ["root-empty"], ocsp: ["unknown"]).evaluate()
        assertNotTrusted(hardEvaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        XCTAssertTrue(Kit.firstFailure(hardEvaluation).contains("does not know"), Kit.firstFailure(hardEvaluation))
    }

    func testExpiredResponseIsStale() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: soft, ocsp: ["good-leaf-expired"]).evaluate()
        assertTrusted(evaluation)
        let status = Kit.status(evaluation, 0)
        XCTAssertTrue(Kit.isUnknown(status), "\(String(describing: status))")
        XCTAssertTrue(Kit.notes(status).contains { $0.contains("stale") }, "\(Kit.notes(status))")
        let hardEvaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"], ocsp: ["good-leaf-expired"]).evaluate()
        assertNotTrusted(hardEvaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
    }

    func testFreshnessBoundaries() throws {
        // good-leaf-good: thisUpdate 2026-05-31T00:00:00Z, nextUpdate 2026-06-07T00:00:00Z; 5 minutes of skew.
        let trust = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"], ocsp: ["good-leaf-good"])
        func status(at seconds: Int64) -> RevocationStatus? {
            trust.verifyDate = Date(timeIntervalSince1970: TimeInterval(seconds))
            return Kit.status(trust.evaluate(), 0)
        }
        let thisUpdate = Kit.date(2026, 5, 31).secondsSince1970
        let nextUpdate = Kit.date(2026, 6, 7).secondsSince1970
        XCTAssertEqual(status(at: thisUpdate - 299), .good(source: .suppliedOCSP))
        XCTAssertTrue(Kit.notes(status(at: thisUpdate - 301)).contains { $0.contains("in the future") })
        XCTAssertEqual(status(at: nextUpdate + 299), .good(source: .suppliedOCSP))
        XCTAssertTrue(Kit.notes(status(at: nextUpdate + 301)).contains { $0.contains("stale") })
    }

    func testResponseWithoutNextUpdateIsFreshForFourDays() throws {
        // good-leaf-good re-signed by the intermediate without nextUpdate; the verify date is 2026-06-01.
        func response(thisUpdate: String) throws -> OCSPResponse {
            try OCSPForge.resign("good-leaf-good") { data in
                data[2][0][2] = .generalizedTime(thisUpdate)
                data[2][0].children.removeLast() // [0] nextUpdate
            }
        }
        let control = try OCSPForge.resign("good-leaf-good") { _ in }
        let trust = try Kit.trust(Kit.goodLeaf, options: [.ocsp])
        trust.setOCSPResponses([control])
        XCTAssertEqual(Kit.status(trust.evaluate(), 0), .good(source: .suppliedOCSP), "re-signing keeps the response valid")

        let threeDays = try response(thisUpdate: "20260529000000Z")
        XCTAssertNil(threeDays.responses.first?.nextUpdate)
        trust.setOCSPResponses([threeDays])
        XCTAssertEqual(Kit.status(trust.evaluate(), 0), .good(source: .suppliedOCSP))

        trust.setOCSPResponses([try response(thisUpdate: "20260527000000Z")])
        let stale = Kit.status(trust.evaluate(), 0)
        XCTAssertTrue(Kit.notes(stale).contains { $0.contains("no nextUpdate") && $0.contains("too old") }, "\(String(describing: stale))")
    }

    func testDelegatedResponderIsAccepted() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"], ocsp: ["good-leaf-delegated"]).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedOCSP))
    }

    func testUnauthorisedResponderIsIgnored() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: soft, ocsp: ["good-leaf-unauthorised"]).evaluate()
        assertTrusted(evaluation)
        let status = Kit.status(evaluation, 0)
        XCTAssertTrue(Kit.isUnknown(status), "\(String(describing: status))")
        XCTAssertTrue(Kit.notes(status).contains { $0.contains("OCSPSigning") && $0.contains("ignored") }, "\(Kit.notes(status))")
        // Ignored, not "invalid": in hard-fail mode it is simply no proof.
        let hardEvaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"], ocsp: ["good-leaf-unauthorised"]).evaluate()
        assertNotTrusted(hardEvaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        XCTAssertTrue(Kit.firstFailure(hardEvaluation).contains("OCSPSigning"), Kit.firstFailure(hardEvaluation))
    }

    func testSHA256CertIDIsMatched() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"], ocsp: ["good-leaf-sha256-certid"]).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedOCSP))
    }

    func testResponseAboutAnotherCertificateIsNotUsed() throws {
        // good-leaf's "good" says nothing about revoked-leaf.
        let evaluation = try Kit.trust(Kit.revokedLeaf, options: hard, crls: ["root-empty"], ocsp: ["good-leaf-good"]).evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        // A revoked response for revoked-leaf does not touch good-leaf.
        let other = try Kit.trust(Kit.goodLeaf, options: soft, ocsp: ["revoked-leaf-revoked"]).evaluate()
        assertTrusted(other)
    }

    func testResponseWithABrokenSignatureIsIgnored() throws {
        for name in ["good-leaf-good", "good-leaf-delegated"] {
            var der = try TestCertificates.bytes("revocation/\(name).ocsp")
            // The signature BIT STRING ends the BasicOCSPResponse for the issuer-signed one; for the
            // delegated one the certificates follow, so flip a byte inside ResponseData instead
            // (producedAt's last digit) — either way the signature no longer verifies.
            let producedAt = Array("20260531000000Z".utf8)
            guard let start = (0...(der.count - producedAt.count)).first(where: { Array(der[$0..<($0 + producedAt.count)]) == producedAt }) else {
                return XCTFail("producedAt not found in \(name)")
            }
            der[start + 13] = UInt8(ascii: "1")
            let response = try OCSPResponse(derEncoded: der)
            let trust = try Kit.trust(Kit.goodLeaf, options: soft)
            trust.setOCSPResponses([response])
            XCTAssertEqual(trust.suppliedOCSPResponses.map(\.derEncoded), [der])
            let evaluation = trust.evaluate()
            assertTrusted(evaluation)
            let notes = Kit.notes(Kit.status(evaluation, 0))
            XCTAssertTrue(notes.contains { $0.contains("does not verify") }, "\(name): \(notes)")
        }
    }

    func testNonSuccessfulResponseIsNoInformation() throws {
        let tryLater = try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x03])
        let trust = try Kit.trust(Kit.goodLeaf, options: soft)
        trust.setOCSPResponses([tryLater])
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        XCTAssertTrue(Kit.notes(Kit.status(evaluation, 0)).contains { $0.contains("tryLater") }, "\(evaluation.revocationStatuses)")
        // Hard fail asks proof of the leaf (Apple's SecPVCPathCheckRevocationResponsesReceived).
        trust.policies = [.ssl(server: true, hostname: TestCertificates.host), .revocation([.ocsp, .requirePositiveResponse])]
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:revocationUnavailable"])
    }

    func testNoSingleOctetCorruptionYieldsGood() throws {
        // Every damaged copy of a good response that still parses must fail to prove good: the
        // signed data, the signature, the algorithm and (delegated) the responder certificate are all checked.
        let trust = try Kit.trust(Kit.goodLeaf, options: [.ocsp])
        for name in ["good-leaf-good", "good-leaf-delegated"] {
            let der = try TestCertificates.bytes("revocation/\(name).ocsp")
            var checked = 0
            for index in der.indices {
                for mask: UInt8 in [0x01, 0xFF] {
                    var damaged = der
                    damaged[index] ^= mask
                    guard let response = try? OCSPResponse(derEncoded: damaged) else { continue }
                    trust.setOCSPResponses([response])
                    let evaluation = trust.evaluate()
                    checked += 1
                    XCTAssertTrue(evaluation.isTrusted, "\(name) byte \(index): soft fail accepts unknown")
                    if case .good? = Kit.status(evaluation, 0) {
                        XCTFail("\(name): flipping byte \(index) with \(mask) still proves good")
                    }
                }
            }
            XCTAssertGreaterThan(checked, 100, name)
        }
    }

    func testSeveralResponsesRevokedWins() throws {
        // An unknown, a stale and a revoked response: the revoked one decides, whatever the order.
        let names = ["unknown", "good-leaf-expired", "revoked-leaf-revoked", "good-leaf-good"]
        for ordering in [names, names.reversed()] {
            let evaluation = try Kit.trust(Kit.revokedLeaf, options: soft, ocsp: ordering).evaluate()
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        }
    }

    // MARK: Decoys: every candidate counts

    func testDecoySingleResponsesDoNotHideTheRevocation() throws {
        // The responder's signed data lists the certificate three times: unknown, stale, revoked.
        // The first match used to decide ("unknown"), so a soft-failing client accepted a revoked leaf.
        let response = try OCSPForge.resign("revoked-leaf-revoked") { data in
            let revoked = data[2][0]
            var unknown = revoked
            unknown[1] = .primitive(0x82, [])
            var stale = revoked
            stale[1] = .primitive(0x80, [])
            stale[2] = .generalizedTime("20260101000000Z")
            stale.children = Array(stale.children.prefix(3)) + [.constructed(0xA0, [.generalizedTime("20260102000000Z")])]
            data[2].children = [unknown, stale, revoked]
        }
        XCTAssertEqual(response.responses.count, 3)
        let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
        trust.setOCSPResponses([response])
        let evaluation = trust.evaluate()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .suppliedOCSP, time: Kit.revocationDate, reason: .keyCompromise))
        // A good and an unknown answer in one response: good.
        let good = try OCSPForge.resign("good-leaf-good") { data in
            var unknown = data[2][0]
            unknown[1] = .primitive(0x82, [])
            data[2].children.insert(unknown, at: 0)
        }
        let goodEvaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"]).evaluateWith(ocsp: good)
        assertTrusted(goodEvaluation)
        XCTAssertEqual(Kit.status(goodEvaluation, 0), .good(source: .suppliedOCSP))
    }

    func testDecoyResponderCertificateDoesNotHideTheRealOne() throws {
        // The `certs` field is outside the signature: anyone on the path can put a certificate with the
        // responder's name (here the real one with a broken signature) in front of the real one.
        let delegate = try TestCertificates.certificate("revocation/ocsp-responder.pem")
        let decoy = try tamperedSignature(delegate)
        var tree = try RevocationTLV.parse(TestCertificates.bytes("revocation/good-leaf-delegated.ocsp"))
        var basic = try RevocationTLV.parse(tree[1][0][1].content)
        basic[3][0].children.insert(try RevocationTLV.parse(decoy.derEncoded), at: 0)
        tree[1][0][1] = .octetString(basic.der)
        let response = try OCSPResponse(derEncoded: tree.der)
        XCTAssertEqual(response.certificates.map(\.subject), [delegate.subject, delegate.subject])

        let evaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"]).evaluateWith(ocsp: response)
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedOCSP))
        // Control: the decoy alone is rejected.
        basic[3][0].children.removeLast()
        tree[1][0][1] = .octetString(basic.der)
        let decoyOnly = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-empty"]).evaluateWith(ocsp: try OCSPResponse(derEncoded: tree.der))
        assertNotTrusted(decoyOnly, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
    }
}

private extension ServerTrust {
    /// Supplies `response` as the only OCSP response and evaluates.
    func evaluateWith(ocsp response: OCSPResponse) -> TrustEvaluation {
        setOCSPResponses([response])
        return evaluate()
    }
}
