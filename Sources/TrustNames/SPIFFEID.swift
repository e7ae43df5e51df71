/// A SPIFFE ID (spiffe/spiffe `standards/SPIFFE-ID.md` §2): `spiffe://` + a trust domain name + an
/// optional path, validated exactly as the specification says, in the reading of go-spiffe's
/// `spiffeid.FromString` (the reference implementation), plus the lengths of §2.3.
///
/// ```swift
/// let id = try SPIFFEID("spiffe://example.org/ns/prod/sa/api")
/// id.trustDomain.name   // "example.org"
/// id.path               // "/ns/prod/sa/api"
/// ```
///
/// Two IDs are equal when their texts are equal byte for byte: a valid ID is lowercase in its
/// scheme and trust domain (§2.1), and its path is case-sensitive (§2.4).
public struct SPIFFEID: Hashable, Sendable, CustomStringConvertible {
    /// The trust domain (the URI's authority).
    public let trustDomain: SPIFFETrustDomain
    /// The path: empty (the trust domain's own ID) or `/` followed by segments separated by `/`.
    public let path: String

    /// The longest SPIFFE ID accepted, in bytes: §2.3 requires support up to 2048 bytes, and that
    /// no longer URI be generated.
    public static let maximumLength = 2048

    /// `spiffe://`, the only scheme and separator a SPIFFE ID starts with (§2).
    package static let prefix = Array("spiffe://".utf8)

    /// Parses `text` as a SPIFFE ID.
    ///
    /// - Throws: ``SPIFFEIDError`` naming the first rule `text` breaks.
    public init(_ text: String) throws(SPIFFEIDError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty }
        // §2.3: bounded before anything else reads the text.
        guard bytes.count <= SPIFFEID.maximumLength else { throw .tooLong(bytes: bytes.count) }
        guard bytes.starts(with: SPIFFEID.prefix) else { throw .wrongScheme }
        let authorityStart = SPIFFEID.prefix.count
        // The authority ends at the path, or at a query or fragment (RFC 3986 §3.2).
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, !SPIFFEID.endsAuthority(bytes[authorityEnd]) { authorityEnd += 1 }
        let name = try SPIFFETrustDomain.validate(bytes[authorityStart..<authorityEnd], offset: authorityStart, in: text)
        try SPIFFEID.validatePath(bytes[authorityEnd...], in: text)
        trustDomain = SPIFFETrustDomain(validated: name)
        path = String(decoding: bytes[authorityEnd...], as: UTF8.self)
    }

    /// The ID with `path` (empty, or starting with `/`) in `trustDomain`.
    ///
    /// - Throws: ``SPIFFEIDError`` naming the first rule `path` breaks, or ``SPIFFEIDError/tooLong(bytes:)``.
    public init(trustDomain: SPIFFETrustDomain, path: String) throws(SPIFFEIDError) {
        let length = SPIFFEID.prefix.count + trustDomain.name.utf8.count + path.utf8.count
        guard length <= SPIFFEID.maximumLength else { throw .tooLong(bytes: length) }
        let bytes = Array(path.utf8)
        if let first = bytes.first, first != UInt8(ascii: "/") {
            throw SPIFFEID.endsAuthority(first) ? .queryOrFragment(offset: 0) : .pathWithoutLeadingSlash
        }
        try SPIFFEID.validatePath(bytes[...], in: path)
        self.trustDomain = trustDomain
        self.path = path
    }

    /// The path's segments, in order (none for the trust domain's own ID).
    public var segments: [Substring] { path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 } }

    /// Whether the ID has no path: the ID of the trust domain itself, which X.509-SVID §3.1 and §5.2
    /// forbid in a leaf SVID.
    public var isTrustDomainID: Bool { path.isEmpty }

    /// The URI: `spiffe://trust-domain/path`.
    public var description: String { "spiffe://" + trustDomain.name + path }

    /// Whether `byte` ends the authority component: `/` (the path), `?` (a query), `#` (a fragment).
    package static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// §2.2: `path` (the bytes from the authority's end, offsets counting in `text`) is empty, or
    /// segments of `[a-zA-Z0-9.-_]` each preceded by `/`, none empty, `.` or `..`, no trailing `/`;
    /// §2: no query or fragment; no percent-encoding.
    package static func validatePath(_ path: ArraySlice<UInt8>, in text: String) throws(SPIFFEIDError) {
        var segmentStart = path.startIndex
        var index = path.startIndex
        while index < path.endIndex {
            let byte = path[index]
            switch byte {
            case UInt8(ascii: "/"):
                if index > path.startIndex { try checkSegment(path[(segmentStart + 1)..<index], isLast: false) }
                segmentStart = index
            case UInt8(ascii: "?"), UInt8(ascii: "#"):
                throw .queryOrFragment(offset: index)
            case UInt8(ascii: "%"):
                throw .pathPercentEncoded(offset: index)
            default:
                guard isPathCharacter(byte) else {
                    throw .invalidPathCharacter(offset: index, character: character(at: index, in: text))
                }
            }
            index += 1
        }
        if !path.isEmpty { try checkSegment(path[(segmentStart + 1)...], isLast: true) }
    }

    /// §2.2: a segment is not empty (the last one empty is a trailing slash) and not a dot segment.
    private static func checkSegment(_ segment: ArraySlice<UInt8>, isLast: Bool) throws(SPIFFEIDError) {
        if segment.isEmpty { throw isLast ? .trailingSlash : .emptySegment }
        if segment.elementsEqual([UInt8(ascii: ".")]) || segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
            throw .dotSegment
        }
    }

    /// §2.2: letters, digits, `.`, `-`, `_`.
    package static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// The character of `text` whose UTF-8 encoding covers byte `offset` (for messages).
    package static func character(at offset: Int, in text: String) -> String {
        var start = 0
        for scalar in text.unicodeScalars {
            let end = start + UTF8.width(scalar)
            if offset < end { return offset >= start ? String(scalar) : "" }
            start = end
        }
        return ""
    }
}
