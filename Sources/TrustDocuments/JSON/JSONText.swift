import Foundation

/// The bytes of a JSON document as text: UTF-8 only (RFC 8259 §8.1: "JSON text exchanged
/// between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"), with a
/// leading UTF-8 byte order mark, which §8.1 lets a parser ignore, skipped here and nowhere else.
///
/// Foundation's readers also decode UTF-16 and UTF-32, with or without a byte order mark; the
/// duplicate-key and limit scan (``JSONDuplicateKeyScanner``) reads UTF-8 bytes, and would see
/// neither the keys nor the structure of such a document. Every other encoding is therefore
/// refused before anything decodes the document (TrustPinning's configuration readers and the SPIFFE
/// bundle reader alike).
package enum JSONText {
    /// EF BB BF, U+FEFF in UTF-8.
    package static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The UTF-8 text of `data` without its byte order mark, for the decoder and the scan alike, or
    /// why `data` is not UTF-8 (UTF-16, UTF-32, bytes that are not UTF-8, a NUL character).
    package static func utf8Body(of data: Data) -> (body: Data?, problem: JSONEncodingProblem?) {
        let bytes = Array(data)
        if let wide = wideEncoding(of: bytes) { return (nil, wide) }
        let skipped = bytes.starts(with: utf8ByteOrderMark) ? utf8ByteOrderMark.count : 0
        let body = bytes[skipped...]
        if let problem = firstProblem(in: body) { return (nil, problem) }
        return (Data(body), nil)
    }

    /// UTF-16 or UTF-32, told by a byte order mark or, without one, by the zero bytes of the first
    /// characters (RFC 4627 §3; JSON text starts with ASCII), as Foundation tells them; nil otherwise.
    package static func wideEncoding(of bytes: some Collection<UInt8>) -> JSONEncodingProblem? {
        guard bytes.count >= 2 else { return nil }
        // Fewer than four bytes are padded with a byte that is neither zero nor part of a mark.
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0x20, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return .utf32(bigEndian: true, byteOrderMark: true)
        case (0xFF, 0xFE, 0x00, 0x00): return .utf32(bigEndian: false, byteOrderMark: true)
        case (0xFE, 0xFF, _, _): return .utf16(bigEndian: true, byteOrderMark: true)
        case (0xFF, 0xFE, _, _): return .utf16(bigEndian: false, byteOrderMark: true)
        case (0x00, 0x00, _, _) where bytes.count >= 4: return .utf32(bigEndian: true, byteOrderMark: false)
        case (_, 0x00, 0x00, 0x00) where bytes.count >= 4: return .utf32(bigEndian: false, byteOrderMark: false)
        case (0x00, _, _, _): return .utf16(bigEndian: true, byteOrderMark: false)
        case (_, 0x00, _, _): return .utf16(bigEndian: false, byteOrderMark: false)
        default: return nil
        }
    }

    /// The document's ASCII characters as text, enough to tell its format by: a UTF-8 document
    /// without its byte order mark, a UTF-16 or UTF-32 one without its zero bytes (its loader
    /// then refuses it with the reason).
    package static func sniffingText(of bytes: [UInt8]) -> String {
        if wideEncoding(of: bytes) != nil { return String(decoding: bytes.filter { $0 != 0 && $0 < 0x80 }, as: UTF8.self) }
        let body = bytes.starts(with: utf8ByteOrderMark) ? bytes.dropFirst(utf8ByteOrderMark.count) : bytes[...]
        return String(decoding: body, as: UTF8.self)
    }

    /// Whether the document's first character, after white space (RFC 8259 §2), opens an object.
    package static func startsWithObject(_ bytes: [UInt8]) -> Bool {
        sniffingText(of: bytes).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.first == "{"
    }

    /// The first byte sequence of `body` that is not UTF-8, or a NUL character (JSON text has none:
    /// RFC 8259 §7 escapes every control character in strings, and allows none outside them).
    /// Offsets count from the start of the file.
    private static func firstProblem(in body: ArraySlice<UInt8>) -> JSONEncodingProblem? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = body.makeIterator()
        var offset = body.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded):
                if encoded.count == 1, encoded.first == 0 { return .nulCharacter(byteOffset: offset) }
                offset += encoded.count
            case .error:
                return .invalidUTF8(byteOffset: offset)
            case .emptyInput:
                return nil
            }
        }
    }
}
