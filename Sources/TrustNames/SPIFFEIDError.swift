import Foundation

/// Why a text is not a SPIFFE ID or a trust domain name: one case per rule of spiffe/spiffe
/// `standards/SPIFFE-ID.md`, each description naming the rule and its section. Offsets are 0-based
/// byte offsets into the text parsed (the URI, or the name for ``SPIFFETrustDomain/init(_:)``).
public enum SPIFFEIDError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The text is empty (§2).
    case empty
    /// Longer than ``SPIFFEID/maximumLength`` bytes (§2.3).
    case tooLong(bytes: Int)
    /// The text does not start with `spiffe://`: another scheme, the scheme in another case, or no
    /// authority (§2; lowercase as go-spiffe requires).
    case wrongScheme
    /// The authority, the trust domain name, is empty (§2, §2.1).
    case missingTrustDomain
    /// The trust domain name is longer than ``SPIFFETrustDomain/maximumLength`` bytes (§2.3).
    case trustDomainTooLong(bytes: Int)
    /// The authority has a userinfo part (`user@`, §2.1).
    case trustDomainWithUserinfo(offset: Int)
    /// The authority has a port (`:8443`, §2.1).
    case trustDomainWithPort(offset: Int)
    /// The trust domain name has an uppercase letter (§2.1).
    case trustDomainNotLowercase(offset: Int)
    /// The trust domain name has a percent-encoded character (§2.1).
    case trustDomainPercentEncoded(offset: Int)
    /// The trust domain name has a character other than `[a-z0-9.-_]` (§2.1).
    case invalidTrustDomainCharacter(offset: Int, character: String)
    /// A query (`?`) or fragment (`#`) component (§2).
    case queryOrFragment(offset: Int)
    /// A path given alone (``SPIFFEID/init(trustDomain:path:)``) that is neither empty nor starts
    /// with `/` (§2.2, RFC 3986 §3.3).
    case pathWithoutLeadingSlash
    /// The path has a percent-encoded character (§2.2).
    case pathPercentEncoded(offset: Int)
    /// A path segment has a character other than `[a-zA-Z0-9.-_]` (§2.2).
    case invalidPathCharacter(offset: Int, character: String)
    /// An empty path segment, `//` (§2.2).
    case emptySegment
    /// A path segment that is `.` or `..` (§2.2).
    case dotSegment
    /// The path ends with `/` (§2.2).
    case trailingSlash

    /// The rule broken and its section, e.g. `path cannot contain dot segments (SPIFFE-ID §2.2)`.
    public var description: String {
        switch self {
        case .empty: return "a SPIFFE ID cannot be empty (SPIFFE-ID §2)"
        case let .tooLong(bytes):
            return "a SPIFFE ID is at most \(SPIFFEID.maximumLength) bytes, this one is \(bytes) (SPIFFE-ID §2.3)"
        case .wrongScheme: return "the scheme must be spiffe, written spiffe:// in lowercase (SPIFFE-ID §2)"
        case .missingTrustDomain: return "the trust domain is missing (SPIFFE-ID §2.1)"
        case let .trustDomainTooLong(bytes):
            return "a trust domain name is at most \(SPIFFETrustDomain.maximumLength) bytes, this one is \(bytes) (SPIFFE-ID §2.3)"
        case let .trustDomainWithUserinfo(offset):
            return "the trust domain cannot have a userinfo part ('@' at offset \(offset)) (SPIFFE-ID §2.1)"
        case let .trustDomainWithPort(offset):
            return "the trust domain cannot have a port (':' at offset \(offset)) (SPIFFE-ID §2.1)"
        case let .trustDomainNotLowercase(offset):
            return "the trust domain must be lowercase (uppercase letter at offset \(offset)) (SPIFFE-ID §2.1)"
        case let .trustDomainPercentEncoded(offset):
            return "the trust domain cannot be percent-encoded ('%' at offset \(offset)) (SPIFFE-ID §2.1)"
        case let .invalidTrustDomainCharacter(offset, character):
            return "trust domain characters are limited to lowercase letters, numbers, dots, dashes and underscores "
                + "(\(Self.quoted(character)) at offset \(offset)) (SPIFFE-ID §2.1)"
        case let .queryOrFragment(offset):
            return "a SPIFFE ID cannot have a query or fragment (at offset \(offset)) (SPIFFE-ID §2)"
        case .pathWithoutLeadingSlash: return "a path must be empty or start with a slash (SPIFFE-ID §2.2)"
        case let .pathPercentEncoded(offset):
            return "the path cannot be percent-encoded ('%' at offset \(offset)) (SPIFFE-ID §2.2)"
        case let .invalidPathCharacter(offset, character):
            return "path segment characters are limited to letters, numbers, dots, dashes and underscores "
                + "(\(Self.quoted(character)) at offset \(offset)) (SPIFFE-ID §2.2)"
        case .emptySegment: return "the path cannot contain empty segments (SPIFFE-ID §2.2)"
        case .dotSegment: return "the path cannot contain dot segments (SPIFFE-ID §2.2)"
        case .trailingSlash: return "the path cannot have a trailing slash (SPIFFE-ID §2.2)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// `character` in quotes, with control and bidi characters escaped (it comes from a peer).
    private static func quoted(_ character: String) -> String { "'" + TerminalText.escaped(character) + "'" }
}
