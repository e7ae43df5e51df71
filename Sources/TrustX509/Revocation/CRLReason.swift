import TrustDER

/// CRLReason (RFC 5280 §5.3.1), shared by CRL entries and OCSP responses.
public enum CRLReason: Int, Hashable, Sendable, CustomStringConvertible {
    /// unspecified (0).
    case unspecified = 0
    /// keyCompromise (1).
    case keyCompromise = 1
    /// cACompromise (2).
    case caCompromise = 2
    /// affiliationChanged (3).
    case affiliationChanged = 3
    /// superseded (4).
    case superseded = 4
    /// cessationOfOperation (5).
    case cessationOfOperation = 5
    /// certificateHold (6).
    case certificateHold = 6
    /// removeFromCRL (8): only in delta CRLs, undoes a hold.
    case removeFromCRL = 8
    /// privilegeWithdrawn (9).
    case privilegeWithdrawn = 9
    /// aACompromise (10).
    case aaCompromise = 10

    /// The RFC 5280 name, e.g. `keyCompromise`.
    public var description: String {
        switch self {
        case .unspecified: return "unspecified"
        case .keyCompromise: return "keyCompromise"
        case .caCompromise: return "cACompromise"
        case .affiliationChanged: return "affiliationChanged"
        case .superseded: return "superseded"
        case .cessationOfOperation: return "cessationOfOperation"
        case .certificateHold: return "certificateHold"
        case .removeFromCRL: return "removeFromCRL"
        case .privilegeWithdrawn: return "privilegeWithdrawn"
        case .aaCompromise: return "aACompromise"
        }
    }

    /// Decodes an ENUMERATED CRLReason; value 7 and values above 10 are invalid.
    static func parse(_ element: DERElement) throws -> CRLReason {
        let raw = try element.integer(as: Int.self, tag: .enumerated)
        guard let reason = CRLReason(rawValue: raw) else {
            throw X509Error.structure("invalid CRLReason \(raw)", at: element.offset)
        }
        return reason
    }
}
