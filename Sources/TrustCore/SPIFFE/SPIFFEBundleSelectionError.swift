import Foundation

/// Why a ``SPIFFETrustBundleSet`` has no anchors for a leaf: the leaf does not name one SPIFFE ID
/// (X509-SVID §2), or no bundle is configured for the trust domain it names.
public enum SPIFFEBundleSelectionError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The leaf has no URI subjectAltName, so no SPIFFE ID.
    case noSPIFFEID
    /// The leaf has `count` URI subjectAltNames (X509-SVID §2: exactly one).
    case severalURIs(count: Int)
    /// The leaf's URI subjectAltName is not a SPIFFE ID: `error` names the rule it breaks.
    case invalidSPIFFEID(uri: String, error: SPIFFEIDError)
    /// No bundle is configured for the leaf's trust domain.
    case noBundle(trustDomain: SPIFFETrustDomain)

    /// What is missing, naming the rule or the trust domain.
    public var description: String {
        switch self {
        case .noSPIFFEID: return "the leaf has no URI subjectAltName, so no SPIFFE ID to pick a trust bundle by (X509-SVID §2)"
        case let .severalURIs(count): return "the leaf has \(count) URI subjectAltNames; an X.509-SVID has exactly one (X509-SVID §2)"
        case let .invalidSPIFFEID(uri, error): return "the leaf's URI \"\(TerminalText.escaped(uri))\" is not a SPIFFE ID: \(error)"
        case let .noBundle(trustDomain): return "no trust bundle for trust domain \(TerminalText.escaped(trustDomain.name))"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
