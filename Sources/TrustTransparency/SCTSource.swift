/// Where an SCT came from (RFC 6962 §3.3): what it was signed over, and which part of trustd's
/// rule it can satisfy.
public enum SCTSource: Hashable, Sendable, CustomStringConvertible {
    /// The leaf's SCT list extension (1.3.6.1.4.1.11129.2.4.2): signed over the precertificate
    /// entry.
    case embedded
    /// The TLS `signed_certificate_timestamp` extension (what `SecTrustSetSignedCertificateTimestamps`
    /// supplies): signed over the x509 entry.
    case tlsExtension
    /// An OCSP single response's extension (1.3.6.1.4.1.11129.2.4.5): signed over the x509 entry.
    case ocspResponse

    /// Whether the SCT was delivered beside the certificate (TLS or OCSP) rather than in it.
    public var isDelivered: Bool { self != .embedded }

    /// `embedded`, `TLS extension` or `OCSP response`.
    public var description: String {
        switch self {
        case .embedded: return "embedded"
        case .tlsExtension: return "TLS extension"
        case .ocspResponse: return "OCSP response"
        }
    }
}
