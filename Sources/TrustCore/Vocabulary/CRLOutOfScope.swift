import TrustX509

/// Why a CRL does not cover a certificate (RFC 5280 §6.3.3 (b)): it is no evidence about it.
public enum CRLOutOfScope: Error, Hashable, Sendable, CustomStringConvertible {
    /// Issued by neither the certificate's issuer nor the point's cRLIssuer.
    case otherIssuer
    /// The point names a cRLIssuer, but the CRL does not declare itself indirect.
    case notIndirect
    /// The CRL covers one distribution point and the certificate names none.
    case partitioned([GeneralName])
    /// The CRL's distribution point is not one of the certificate's.
    case otherDistributionPoint(crl: [GeneralName], certificate: [GeneralName])
    /// onlyContainsUserCerts, and the certificate is a CA.
    case onlyEndEntities
    /// onlyContainsCACerts, and the certificate is not a CA.
    case onlyCAs
    /// onlyContainsAttributeCerts.
    case onlyAttributeCertificates

    /// What the CRL covers instead, with the RFC 5280 rule.
    public var description: String {
        switch self {
        case .otherIssuer: return "issued by another CA"
        case .notIndirect: return "issued by the distribution point's cRLIssuer but not marked indirectCRL (RFC 5280 §6.3.3 (b)(1))"
        case let .partitioned(names):
            return
                "covers only distribution point \(names.map(\.description).joined(separator: ", ")), and the certificate names none (RFC 5280 §6.3.3 (b)(2)(i))"
        case let .otherDistributionPoint(crl, certificate):
            return "covers distribution point \(crl.map(\.description).joined(separator: ", ")), not the certificate's "
                + "\(certificate.map(\.description).joined(separator: ", ")) (RFC 5280 §6.3.3 (b)(2)(i))"
        case .onlyEndEntities: return "covers end-entity certificates only (onlyContainsUserCerts, RFC 5280 §6.3.3 (b)(2)(ii))"
        case .onlyCAs: return "covers CA certificates only (onlyContainsCACerts, RFC 5280 §6.3.3 (b)(2)(iii))"
        case .onlyAttributeCertificates: return "covers attribute certificates only (RFC 5280 §6.3.3 (b)(2)(iv))"
        }
    }
}
