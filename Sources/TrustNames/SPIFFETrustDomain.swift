/// A SPIFFE trust domain name (spiffe/spiffe `standards/SPIFFE-ID.md` §2.1): the authority of a
/// SPIFFE ID, non-empty, at most 255 bytes (§2.3), lowercase letters, digits, `.`, `-` and `_` only:
/// no userinfo, no port, no percent-encoding. An IPv4 address in dotted-quad form is a valid name
/// like any other (§2.1: never processed differently).
public struct SPIFFETrustDomain: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name, e.g. `example.org`.
    public let name: String

    /// The longest trust domain name accepted, in bytes (§2.3: RFC 3986's 255 for a host).
    public static let maximumLength = 255

    /// Validates `name` as a trust domain name (the name alone, not `spiffe://name`).
    ///
    /// - Throws: ``SPIFFEIDError`` naming the first rule `name` breaks; offsets count in `name`.
    public init(_ name: String) throws(SPIFFEIDError) {
        let bytes = Array(name.utf8)
        self.name = try SPIFFETrustDomain.validate(bytes[...], offset: 0, in: name)
    }

    /// A name already validated.
    package init(validated name: String) { self.name = name }

    /// The ID of the trust domain itself, `spiffe://name` (no path).
    public var id: SPIFFEID {
        // A valid name (at most 255 bytes) and an empty path break no rule.
        SPIFFEID(unchecked: self)
    }

    /// The name.
    public var description: String { name }

    /// Orders by name, byte for byte.
    public static func < (lhs: SPIFFETrustDomain, rhs: SPIFFETrustDomain) -> Bool {
        lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }

    /// §2.1 and §2.3 for the authority `bytes` of `text`, whose first byte is at `offset` of it:
    /// the name as a string.
    package static func validate(_ bytes: ArraySlice<UInt8>, offset: Int, in text: String) throws(SPIFFEIDError) -> String {
        guard !bytes.isEmpty else { throw .missingTrustDomain }
        guard bytes.count <= maximumLength else { throw .trustDomainTooLong(bytes: bytes.count) }
        // Userinfo before port: in `user:secret@host` the colon is the userinfo's.
        if let at = bytes.firstIndex(of: UInt8(ascii: "@")) { throw .trustDomainWithUserinfo(offset: offset + at - bytes.startIndex) }
        // RFC 3986 §3.2.3: a port is `:` and digits ending the authority (in `[::1]` the colons are the host's).
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")),
            bytes[(colon + 1)...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
            throw .trustDomainWithPort(offset: offset + colon - bytes.startIndex)
        }
        for index in bytes.indices {
            let byte = bytes[index]
            let position = offset + index - bytes.startIndex
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                throw .trustDomainNotLowercase(offset: position)
            case UInt8(ascii: "%"):
                throw .trustDomainPercentEncoded(offset: position)
            case UInt8(ascii: "?"), UInt8(ascii: "#"):
                throw .queryOrFragment(offset: position)
            default:
                throw .invalidTrustDomainCharacter(offset: position, character: SPIFFEID.character(at: position, in: text))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

package extension SPIFFEID {
    /// The trust domain's own ID, built without checks (only for a name already validated).
    init(unchecked trustDomain: SPIFFETrustDomain) {
        self.trustDomain = trustDomain
        self.path = ""
    }
}
