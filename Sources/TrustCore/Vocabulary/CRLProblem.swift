import TrustCrypto
import TrustX509

/// Why a CRL that covers a certificate fails its integrity checks: its structure, extensions and
/// version (RFC 5280 §5), or its signature (§6.3.3 (f)–(h)).
public enum CRLProblem: Hashable, Sendable, CustomStringConvertible {
    /// A semantic defect found when it was parsed.
    case defect(CRLDefect)
    /// A critical CRL extension that is not processed (RFC 5280 §5.2), by name.
    case unhandledCriticalExtension(name: String)
    /// No cRLNumber extension (RFC 5280 §5.2.3).
    case missingCRLNumber
    /// A critical cRLNumber extension (RFC 5280 §5.2.3).
    case criticalCRLNumber
    /// Not a v2 CRL.
    case notVersion2
    /// Every candidate signer failed, each for its reason.
    case signersInvalid([CRLSignerProblem])
    /// A delta CRL whose signature is not made by the key that signed its complete CRL
    /// (RFC 5280 §6.3.3 (h)).
    case deltaNotSignedByCompleteCRLKey(SignatureError)

    /// e.g. `missing cRLNumber (RFC 5280 §5.2.3)`.
    public var description: String {
        switch self {
        case let .defect(defect): return defect.description
        case let .unhandledCriticalExtension(name): return "unhandled critical CRL extension \(name) (RFC 5280 §5.2)"
        case .missingCRLNumber: return "missing cRLNumber (RFC 5280 §5.2.3)"
        case .criticalCRLNumber: return "cRLNumber must not be critical (RFC 5280 §5.2.3)"
        case .notVersion2: return "CRL is not v2"
        case let .signersInvalid(problems): return problems.map(\.description).joined(separator: "; ")
        case let .deltaNotSignedByCompleteCRLKey(error): return "signature not made by the complete CRL's key (RFC 5280 §6.3.3 (h)): \(error)"
        }
    }
}
