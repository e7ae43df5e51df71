import TrustCrypto
import TrustDER
import TrustX509

/// OCSP response processing for one certificate (RFC 6960 §3.2).
enum OCSPCheck {
    struct Outcome {
        var status: RevocationStatus?
        var notes: [String] = []
    }

    static func status(of certificate: Certificate, issuer: Certificate,
                       responses: [(OCSPResponse, RevocationSource)], checker: RevocationChecker) -> Outcome {
        var outcome = Outcome()
        for (response, source) in responses {
            guard response.status == .successful else {
                outcome.notes.append("\(source): responder answered \(response.status)")
                continue
            }
            // §3.2 (1): the response is about this certificate (CertID match, any supported hash).
            guard let single = response.responses.first(where: { $0.certID.identifies(certificate, issuedBy: issuer) }) else {
                continue
            }
            // §3.2 (2)-(4): signed by the issuer or by a responder the issuer authorised.
            if let problem = authorisationProblem(response, issuer: issuer, checker: checker) {
                outcome.notes.append("\(source) ignored: \(problem)")
                continue
            }
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
        return outcome
    }

    /// Who signed the response, and whether they may: the issuer itself, or a certificate issued
    /// by the issuer with id-kp-OCSPSigning, valid at the verify date.
    static func authorisationProblem(_ response: OCSPResponse, issuer: Certificate, checker: RevocationChecker) -> String? {
        func identifies(_ candidate: Certificate) -> Bool {
            switch response.responderID {
            case let .byName(name)?: return candidate.subject == name
            case let .byKey(hash)?: return Digest.sha1(candidate.publicKeyInfo.keyBytes) == hash
            case nil: return false
            }
        }
        if identifies(issuer) {
            if let problem = checker.verify(signature: response.signature, over: response.tbsResponseData,
                                            algorithm: response.signatureAlgorithm, signer: issuer) {
                return "signature by the issuer does not verify: \(problem)"
            }
            return nil
        }
        guard let delegate = response.certificates.first(where: identifies) else {
            return "signed by an unknown responder"
        }
        guard delegate.issuer == issuer.subject, checker.signatures.failure(child: delegate, issuer: issuer) == nil else {
            return "responder certificate \(delegate.subject) is not issued by \(issuer.subject)"
        }
        guard delegate.extensions.extendedKeyUsage?.contains(OID.ocspSigning) == true else {
            return "responder certificate \(delegate.subject) lacks id-kp-OCSPSigning (RFC 6960 §4.2.2.2)"
        }
        let now = checker.time.secondsSince1970
        if now < delegate.notBefore.secondsSince1970 || now > delegate.notAfter.secondsSince1970 {
            return "responder certificate \(delegate.subject) is not valid at the verify date"
        }
        if let problem = checker.verify(signature: response.signature, over: response.tbsResponseData,
                                        algorithm: response.signatureAlgorithm, signer: delegate) {
            return "signature by the delegated responder does not verify: \(problem)"
        }
        return nil
    }
}
