import TrustX509

/// How a name breaks a CA's name constraints (RFC 5280 §4.2.1.10, §6.1.3 (b)–(c)), the reason of
/// ``TrustFailureReason/nameConstraintViolation(name:breach:constrainingCertificate:)``.
public enum NameConstraintBreach: Hashable, Sendable, CustomStringConvertible {
    /// The name is within this excluded subtree (excluded wins over permitted).
    case insideExcludedSubtree(GeneralName)
    /// The name is of a type the CA permits subtrees of (`permitted`, those of its type), and
    /// within none of them.
    case outsidePermittedSubtrees([GeneralName])
    /// The name's type (otherName, x400Address, ediPartyName, registeredID) is constrained, and
    /// names of that type cannot be compared, so the name cannot be shown to comply.
    case uncheckableNameType

    /// Where the name falls, naming the subtrees.
    public var description: String {
        switch self {
        case let .insideExcludedSubtree(subtree): return "inside excluded subtree \(subtree)"
        case let .outsidePermittedSubtrees(permitted):
            return "outside permitted subtrees [\(permitted.map(\.description).joined(separator: ", "))]"
        case .uncheckableNameType: return "cannot be checked against name constraints of its type"
        }
    }
}
