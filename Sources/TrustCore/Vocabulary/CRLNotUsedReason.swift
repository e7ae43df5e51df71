import TrustX509

/// Why a CRL was not used as evidence about a certificate, without it being broken.
public enum CRLNotUsedReason: Hashable, Sendable, CustomStringConvertible {
    /// It does not cover the certificate.
    case outOfScope(CRLOutOfScope)
    /// It is not fresh at the verify date.
    case notFresh(RevocationFreshnessProblem)
    /// No certificate held has the CRL issuer's name (`issuer`) and the CRL's key (the
    /// authorityKeyIdentifier `keyIdentifier`, when the CRL has one): it cannot be verified.
    case noSignerCandidate(issuer: DistinguishedName, keyIdentifier: [UInt8]?)

    /// The reason, with the RFC 5280 rule where there is one.
    public var description: String {
        switch self {
        case let .outOfScope(reason): return reason.description
        case let .notFresh(problem): return problem.description
        case let .noSignerCandidate(issuer, keyIdentifier):
            let keyID = keyIdentifier.map { " with key identifier " + Certificate.hex($0) } ?? ""
            return "no certificate of \(issuer)\(keyID) to verify it with (RFC 5280 §6.3.3 (f))"
        }
    }
}
