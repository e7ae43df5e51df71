import TrustCrypto
import TrustDER
import TrustX509

/// OCSP response processing for one certificate (RFC 6960 §3.2).
enum OCSPCheck {
    /// Responder certificates whose signatures are checked per response: a bound on the work a
    /// response can cause, generous enough that decoys cannot hide the real responder.
    static let maximumResponderCandidates = 16

    static func status(
        of certificate: Certificate, issuer: Certificate,
        responses: [(OCSPResponse, RevocationSource)], checker: RevocationChecker
    ) throws(BudgetExhausted) -> RevocationCheckOutcome {
        var outcome = RevocationCheckOutcome()
        for (response, source) in responses {
            guard response.status == .successful else {
                outcome.notes.append(.ocspResponderAnswered(source: source, status: response.status))
                continue
            }
            // §3.2 (1): the response is about this certificate (CertID match, any supported hash).
            // Every matching SingleResponse counts: a decoy listed first must not hide the others.
            let singles = response.responses.filter { $0.certID.identifies(certificate, issuedBy: issuer) }
            guard !singles.isEmpty else { continue }
            // §3.2 (2)-(4): signed by the issuer or by a responder the issuer authorised.
            let problems = try authorisationProblems(response, issuer: issuer, checker: checker)
            guard problems.isEmpty else {
                outcome.notes.append(.ocspResponseIgnored(source: source, problems: problems))
                continue
            }
            for single in singles {
                // §3.2 (5)-(6): fresh at the verify date.
                if let stale = checker.freshnessProblem(
                    thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate,
                    maximumAgeWithoutNext: RevocationChecker.ocspMaximumAgeWithoutNextUpdate)
                {
                    outcome.notes.append(.ocspResponseNotFresh(source: source, problem: stale))
                    continue
                }
                switch single.status {
                case .good:
                    if outcome.status == nil { outcome.status = .good(source: source) }
                case let .revoked(time, reason):
                    outcome.status = .revoked(source: source, time: time, reason: reason)
                    return outcome
                case .unknown:
                    outcome.notes.append(.ocspCertificateUnknown(source: source))
                }
            }
        }
        return outcome
    }

    /// Whether a fetched `response` may be kept for `certificate`: successful, about the certificate,
    /// and signed by an authorised responder. Why one is not kept is told when the evaluation
    /// consults it (a note).
    static func verifies(
        _ response: OCSPResponse, certificate: Certificate, issuer: Certificate,
        checker: RevocationChecker
    ) throws(BudgetExhausted) -> Bool {
        guard response.status == .successful,
            response.responses.contains(where: { $0.certID.identifies(certificate, issuedBy: issuer) })
        else { return false }
        return try authorisationProblems(response, issuer: issuer, checker: checker).isEmpty
    }

    /// Who signed the response, and whether they may: the issuer itself, or a certificate issued
    /// by the issuer with id-kp-OCSPSigning, valid at the verify date. Every certificate matching
    /// the ResponderID is tried (the `certs` field is not signed: anyone on the path can add decoys).
    /// Empty when an authorised responder signed it; otherwise why not, for each candidate.
    static func authorisationProblems(_ response: OCSPResponse, issuer: Certificate, checker: RevocationChecker)
        throws(BudgetExhausted) -> [OCSPResponderProblem]
    {
        func identifies(_ candidate: Certificate) -> Bool {
            switch response.responderID {
            case let .byName(name)?: return candidate.subject == name
            case let .byKey(hash)?: return Digest.sha1(candidate.publicKeyInfo.keyBytes) == hash
            case nil: return false
            }
        }
        var problems: [OCSPResponderProblem] = []
        if identifies(issuer) {
            guard
                let error = try checker.verify(
                    signature: response.signature, over: response.tbsResponseData,
                    algorithm: response.signatureAlgorithm, signer: issuer)
            else { return [] }
            problems.append(.issuerSignatureNotVerified(error))
        }
        // A delegate must be issued by the issuer (§4.2.2.2): other names are not candidates at all.
        let delegates = response.certificates.filter { identifies($0) && $0.issuer == issuer.subject }
        for delegate in delegates.prefix(maximumResponderCandidates) {
            guard let problem = try delegationProblem(response, delegate: delegate, issuer: issuer, checker: checker) else { return [] }
            problems.append(problem)
        }
        if problems.isEmpty {
            return [response.certificates.contains(where: identifies) ? .responderNotIssuedByIssuer(issuer: issuer.subject) : .unknownResponder]
        }
        return problems
    }

    /// Why `delegate` cannot have signed `response` on behalf of `issuer`, or nil when it did.
    private static func delegationProblem(
        _ response: OCSPResponse, delegate: Certificate, issuer: Certificate,
        checker: RevocationChecker
    ) throws(BudgetExhausted) -> OCSPResponderProblem? {
        guard checker.signatures.failure(child: delegate, issuer: issuer) == nil else {
            return .delegateNotIssuedByIssuer(delegate: delegate.subject, issuer: issuer.subject)
        }
        guard delegate.extensions.extendedKeyUsage?.contains(OID.ocspSigning) == true else {
            return .delegateLacksOCSPSigning(delegate: delegate.subject)
        }
        let now = checker.time.secondsSince1970
        if now < delegate.notBefore.secondsSince1970 || now > delegate.notAfter.secondsSince1970 {
            return .delegateNotValidAtVerifyDate(delegate: delegate.subject)
        }
        if let error = try checker.verify(
            signature: response.signature, over: response.tbsResponseData,
            algorithm: response.signatureAlgorithm, signer: delegate)
        {
            return .delegateSignatureNotVerified(error)
        }
        return nil
    }
}
