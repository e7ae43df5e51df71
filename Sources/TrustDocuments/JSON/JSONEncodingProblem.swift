/// Why a JSON document (a pinning configuration, a SPIFFE bundle) is not UTF-8, the one encoding
/// RFC 8259 §8.1 allows for JSON exchanged between systems (TrustPinning's
/// `PinningConfigurationRule.notUTF8`, ``SPIFFEBundleRule/notUTF8(_:)``).
public enum JSONEncodingProblem: Hashable, Sendable, CustomStringConvertible {
    /// UTF-16, big- or little-endian, told by its byte order mark (FE FF, FF FE) or by the zero
    /// bytes of its first characters.
    case utf16(bigEndian: Bool, byteOrderMark: Bool)
    /// UTF-32, big- or little-endian, told by its byte order mark (00 00 FE FF, FF FE 00 00) or by
    /// the zero bytes of its first characters.
    case utf32(bigEndian: Bool, byteOrderMark: Bool)
    /// A byte sequence that is not UTF-8 starts at this offset (0-based, from the start of the file).
    case invalidUTF8(byteOffset: Int)
    /// A NUL character at this offset: JSON text never holds one (RFC 8259 §7), a file in UTF-16 or
    /// UTF-32 does.
    case nulCharacter(byteOffset: Int)

    /// `UTF-16LE (with a byte order mark)`, `a byte that is not UTF-8 at offset 12`, ...
    public var description: String {
        switch self {
        case let .utf16(bigEndian, byteOrderMark):
            return "UTF-16\(bigEndian ? "BE" : "LE")" + (byteOrderMark ? " (with a byte order mark)" : "")
        case let .utf32(bigEndian, byteOrderMark):
            return "UTF-32\(bigEndian ? "BE" : "LE")" + (byteOrderMark ? " (with a byte order mark)" : "")
        case let .invalidUTF8(offset): return "bytes that are not UTF-8 at offset \(offset)"
        case let .nulCharacter(offset): return "a NUL character at offset \(offset)"
        }
    }

    /// The name `iconv -f` knows the encoding by, for UTF-16 and UTF-32.
    package var iconvName: String? {
        switch self {
        case let .utf16(bigEndian, _): return "UTF-16\(bigEndian ? "BE" : "LE")"
        case let .utf32(bigEndian, _): return "UTF-32\(bigEndian ? "BE" : "LE")"
        case .invalidUTF8, .nulCharacter: return nil
        }
    }
}
