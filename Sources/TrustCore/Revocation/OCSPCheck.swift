import TrustCrypto
import TrustDER
import TrustX509

/// OCSP response processing for one certificate (RFC 6960 §3.2).
enum OCSPCheck {
    struct Outcome {
        var status: RevocationStatus?
        var notes: [String] = []
    }

    /// Responder certificates whose signatures are checked per response: a bound on the work a
    /// response can cause, generous enough that decoys cannot hide the real responder.
    static let maximumResponderCandidates = 16

    static func status(of certificate: Certificate, issuer: Certificate,
                       responses: [(OCSPResponse, RevocationSource)], checker: RevocationChecker) throws(BudgetExhausted) -> Outcome {
        var outcome = Outcome()
        for (response, source) in responses {
            guard response.status == .successful else {
                outcome.notes.append("\(source): responder answered \(response.status)")
                continue
            }
            // §3.2 (1): the response is about this certificate (CertID match, any supported hash).
            // Every matching SingleResponse counts: a decoy listed first must not hide the others.
            let singles = response.responses.filter { $0.certID.identifies(certificate, issuedBy: issuer) }
            guard !singles.isEmpty else { continue }
            // §3.2 (2)-(4): signed by the issuer or by a responder the issuer authorised.
            if let problem = try authorisationProblem(response, issuer: issuer, checker: checker) {
                outcome.notes.append("\(source) ignored: \(problem)")
                continue
            }
            for single in singles {
                // §3.2 (5)-(6): fresh at the verify date.
                if let stale = checker.isFresh(thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate,
                                               maximumAgeWithoutNext: RevocationChecker.ocspMaximumAgeWithoutNextUpdate) {
                    outcome.notes.append("\(source) not used: \(stale)")
                    continue
                }
                switch single.status {
                case .good:
                    if outcome.status == nil { outcome.status = .good(source: source) }
                case let .revoked(time, reason):
                    outcome.status = .revoked(source: source, time: time, reason: reason)
                    return outcome
                case .unknown:
                    outcome.notes.append("\(source): responder does not know the certificate")
                }
            }
        }
        return outcome
    }

    /// Whether a fetched `response` may be kept for `certificate`: successful, about the certificate,
    /// and signed by an authorised responder (nil), or why not.
    static func verificationProblem(_ response: OCSPResponse, certificate: Certificate, issuer: Certificate,
                                    checker: RevocationChecker) throws(BudgetExhausted) -> String? {
        guard response.status == .successful else { return "responder answered \(response.status)" }
        guard response.responses.contains(where: { $0.certID.identifies(certificate, issuedBy: issuer) }) else {
            return "no answer about \(certificate.subject)"
        }
        return try authorisationProblem(response, issuer: issuer, checker: checker)
    }

    /// Who signed the response, and whether they may: the issuer itself, or a certificate issued
    /// by the issuer with id-kp-OCSPSigning, valid at the verify date. Every certificate matching
    /// the ResponderID is tried (the `certs` field is not signed: anyone on the path can add decoys).
    static func authorisationProblem(_ response: OCSPResponse, issuer: Certificate, checker: RevocationChecker)
        throws(BudgetExhausted) -> String? {
        func identifies(_ candidate: Certificate) -> Bool {
            switch response.responderID {
            case let .byName(name)?: return candidate.subject == name
            case let .byKey(hash)?: return Digest.sha1(candidate.publicKeyInfo.keyBytes) == hash
            case nil: return false
            }
        }
        var problems: [String] = []
        if identifies(issuer) {
            guard let problem = try checker.verify(signature: response.signature, over: response.tbsResponseData,
                                               algorithm: response.signatureAlgorithm, signer: issuer) else { return nil }
            problems.append("signature by the issuer does not verify: \(problem)")
        }
        // A delegate must be issued by the issuer (§4.2.2.2): other names are not candidates at all.
        let delegates = response.certificates.filter { identifies($0) && $0.issuer == issuer.subject }
        for delegate in delegates.prefix(maximumResponderCandidates) {
            guard let problem = try delegationProblem(response, delegate: delegate, issuer: issuer, checker: checker) else { return nil }
            problems.append(problem)
        }
        if problems.isEmpty {
            return response.certificates.contains(where: identifies)
                ? "responder certificate is not issued by \(issuer.subject)" : "signed by an unknown responder"
        }
        return problems.joined(separator: "; ")
    }

    /// Why `delegate` cannot have signed `response` on behalf of `issuer`, or nil when it did.
    private static func delegationProblem(_ response: OCSPResponse, delegate: Certificate, issuer: Certificate,
                                          checker: RevocationChecker) throws(BudgetExhausted) -> String? {
        guard checker.signatures.failure(child: delegate, issuer: issuer) == nil else {
            return "responder certificate \(delegate.subject) is not issued by \(issuer.subject)"
        }
        guard delegate.extensions.extendedKeyUsage?.contains(OID.ocspSigning) == true else {
            return "responder certificate \(delegate.subject) lacks id-kp-OCSPSigning (RFC 6960 §4.2.2.2)"
        }
        let now = checker.time.secondsSince1970
        if now < delegate.notBefore.secondsSince1970 || now > delegate.notAfter.secondsSince1970 {
            return "responder certificate \(delegate.subject) is not valid at the verify date"
        }
        if let problem = try checker.verify(signature: response.signature, over: response.tbsResponseData,
                                        algorithm: response.signatureAlgorithm, signer: delegate) {
            return "signature by the delegated responder does not verify: \(problem)"
        }
        return nil
    }
}
