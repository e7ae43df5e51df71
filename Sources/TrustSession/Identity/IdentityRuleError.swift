import Foundation
import TrustCore

/// Why an ``IdentityRule`` factory refused its text: each case carries the text as given.
public enum IdentityRuleError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// Not a host name in preferred name syntax, or a wildcard that is not `*.` and two labels or more.
    case invalidDNSName(String)
    /// Not an absolute URI (`scheme:` first, no spaces or control characters), or a prefix with a
    /// query or fragment.
    case invalidURI(String)
    /// Not a SPIFFE ID (or trust domain and path prefix) as the SPIFFE ID specification §2 writes them.
    case invalidSPIFFEID(String)
    /// Not an IPv4 or IPv6 address, or `address/prefixLength` with host bits clear.
    case invalidIPAddress(String)
    /// Not a mailbox `local-part@domain` (RFC 5321 §4.1.2).
    case invalidEmailAddress(String)
    /// Not a subject attribute short name (`CN`, `O`, …) or dotted object identifier, or no `=value`.
    case invalidSubjectAttribute(String)

    /// One sentence naming the text and the syntax it breaks.
    public var description: String {
        switch self {
        case let .invalidDNSName(text):
            return
                "'\(TerminalText.escaped(text))' is not a DNS name rule: ASCII host names (A-labels), optionally starting with '*.' followed by two labels or more"
        case let .invalidURI(text):
            return
                "'\(TerminalText.escaped(text))' is not a URI rule: an absolute URI (scheme first) without spaces; a prefix has no query or fragment"
        case let .invalidSPIFFEID(text):
            return "'\(TerminalText.escaped(text))' is not a SPIFFE ID rule: spiffe://trust-domain/path (SPIFFE ID specification §2)"
        case let .invalidIPAddress(text):
            return
                "'\(TerminalText.escaped(text))' is not an IP address rule: an IPv4 or IPv6 address, or address/prefix-length with no host bits set"
        case let .invalidEmailAddress(text):
            return "'\(TerminalText.escaped(text))' is not an e-mail address rule: local-part@domain (RFC 5321 §4.1.2)"
        case let .invalidSubjectAttribute(text):
            return
                "'\(TerminalText.escaped(text))' is not a subject attribute rule: NAME=value with NAME one of CN, O, OU, C, serialNumber, UID or a dotted OID"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
