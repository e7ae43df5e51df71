import TrustX509

/// A nameConstraints subtree base that no CA can have meant (RFC 5280 §4.2.1.10), the reason of
/// ``TrustFailureReason/nameConstraintMalformed(_:)``: the constraint cannot be evaluated, so the
/// chain is rejected rather than the constraint ignored.
public enum MalformedNameConstraint: Hashable, Sendable, CustomStringConvertible {
    /// A dNSName base that is not a domain (after at most one leading period).
    case dnsName(String)
    /// An iPAddress base that is not an IPv4 or IPv6 address followed by a contiguous mask of the
    /// same length (the address's octets, then the mask's).
    case ipAddress([UInt8])
    /// An rfc822Name base that is neither a mailbox nor a domain.
    case rfc822Name(String)

    /// The constraint and the rule it breaks.
    public var description: String {
        switch self {
        case let .dnsName(value): return "nameConstraints dNSName \"\(value)\" is not a valid domain (RFC 5280 §4.2.1.10)"
        case let .ipAddress(bytes):
            return "nameConstraints iPAddress \(GeneralName.formatIP(bytes[...])) is not an address and contiguous mask (RFC 5280 §4.2.1.10)"
        case let .rfc822Name(value): return "nameConstraints rfc822Name \"\(value)\" is not a mailbox or domain (RFC 5280 §4.2.1.10)"
        }
    }
}
