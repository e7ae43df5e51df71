/// The character checks XML 1.0 makes of the whole document before any markup is read: valid
/// UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) and only the
/// characters of §2.2 `Char` (no C0 controls other than tab, LF and CR; no U+FFFE or U+FFFF).
package enum XMLCharacterValidation {
    /// Throws for the first byte sequence that is not allowed, naming its line.
    package static func validate(_ bytes: [UInt8]) throws(XMLSyntaxError) {
        var line = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
                    line += 1
                } else if byte < 0x20, byte != 0x09, byte != 0x0D {
                    throw XMLSyntaxError(line: line, problem: .invalidCharacter(UInt32(byte)))
                }
                index += 1
                continue
            }
            guard let (scalar, length) = decodeMultibyte(bytes, at: index) else {
                throw XMLSyntaxError(line: line, problem: .notUTF8)
            }
            guard isAllowed(scalar) else { throw XMLSyntaxError(line: line, problem: .invalidCharacter(scalar)) }
            index += length
        }
    }

    /// Whether `scalar` is an XML 1.0 `Char` (§2.2).
    package static func isAllowed(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// The scalar and length of the multi-byte UTF-8 sequence at `index`, or nil when it is not
    /// well-formed (RFC 3629 §4 table).
    private static func decodeMultibyte(_ bytes: [UInt8], at index: Int) -> (UInt32, Int)? {
        let lead = bytes[index]
        let length: Int
        let secondRange: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return nil
        }
        guard bytes.count - index >= length, secondRange.contains(bytes[index + 1]) else { return nil }
        var scalar = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(continuation & 0x3F)
        }
        return (scalar, length)
    }
}
