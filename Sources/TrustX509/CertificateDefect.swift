import TrustCrypto

/// A semantic defect of a certificate whose DER structure is sound.
///
/// Such certificates parse (so a person can inspect them, as OpenSSL, pyca/cryptography and
/// Chromium allow), record their defects in ``Certificate/semanticDefects``, and fail validation
/// with a reason naming the defect. Structural DER errors remain parse errors (``X509Error``).
public enum CertificateDefect: Hashable, Sendable, CustomStringConvertible {
    /// tbsCertificate.signature and the outer signatureAlgorithm name different algorithms
    /// (RFC 5280 §4.1.1.2 requires the same algorithm identifier). Compared as algorithms:
    /// absent and NULL RSASSA-PKCS1-v1_5 parameters are the same (RFC 4055 §5).
    case signatureAlgorithmMismatch(tbsCertificate: AlgorithmIdentifier, certificate: AlgorithmIdentifier, offset: Int)
    /// The RSASSA-PSS signature parameters are invalid or name an unsupported hash or mask
    /// generation function (RFC 4055 §3.1).
    case invalidRSAPSSParameters(SignatureError, offset: Int)
    /// The signatureValue BIT STRING has unused bits: no signature algorithm produces a partial
    /// octet (RFC 5280 §4.1.1.3), so the signature cannot verify.
    case signatureNotWholeOctets(offset: Int)
    /// A subjectAltName dNSName holds bytes outside the IA5String (ASCII) character set
    /// (RFC 5280 §4.2.1.6); such a name can never be matched or constrained reliably.
    case nonASCIIDNSName(offset: Int)

    /// The byte offset in the certificate's DER where the defect is.
    public var offset: Int {
        switch self {
        case let .signatureAlgorithmMismatch(_, _, offset), let .invalidRSAPSSParameters(_, offset),
            let .signatureNotWholeOctets(offset), let .nonASCIIDNSName(offset):
            return offset
        }
    }

    /// One line naming the defect, the rule it breaks and where it is.
    public var description: String {
        switch self {
        case let .signatureAlgorithmMismatch(inner, outer, offset):
            return "signatureAlgorithm \(outer) differs from tbsCertificate.signature \(inner) (RFC 5280 §4.1.1.2) at byte \(offset)"
        case let .invalidRSAPSSParameters(error, offset):
            return "invalid RSASSA-PSS signature parameters: \(error) (RFC 4055 §3.1) at byte \(offset)"
        case let .signatureNotWholeOctets(offset):
            return "signatureValue is not whole octets (RFC 5280 §4.1.1.3) at byte \(offset)"
        case let .nonASCIIDNSName(offset):
            return "subjectAltName dNSName with non-ASCII bytes (RFC 5280 §4.2.1.6: IA5String) at byte \(offset)"
        }
    }
}
