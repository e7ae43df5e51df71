import TrustDER
import XCTest

/// ASN.1 character-string types and their character sets (X.680 §41, RFC 5280 DirectoryString).
final class DERStringTests: XCTestCase {
    private func decode(_ identifier: UInt8, _ content: [UInt8]) throws -> String {
        try element(tlv(identifier, content)).string()
    }

    private func assertRejected(
        _ identifier: UInt8, _ content: [UInt8], type: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        assertDERError(.invalidString(type: type), at: 0, "\(content)", file: file, line: line) {
            try self.decode(identifier, content)
        }
    }

    // MARK: - UTF8String

    func testUTF8StringValid() throws {
        XCTAssertEqual(try decode(0x0C, bytes("test")), "test")
        XCTAssertEqual(try decode(0x0C, []), "")
        XCTAssertEqual(try decode(0x0C, [0x68, 0xC3, 0xA9]), "hé")
        XCTAssertEqual(try decode(0x0C, [0xE2, 0x82, 0xAC]), "€")
        XCTAssertEqual(try decode(0x0C, [0xF0, 0x9F, 0x98, 0x80]), "😀")
        XCTAssertEqual(try decode(0x0C, [0xEF, 0xBF, 0xBD]), "\u{FFFD}")
        XCTAssertEqual(try decode(0x0C, [0xF4, 0x8F, 0xBF, 0xBF]), "\u{10FFFF}")
        XCTAssertEqual(try decode(0x0C, bytes("Zürich 東京")), "Zürich 東京")
        XCTAssertEqual(try decode(0x0C, [0x00]), "\u{0}")
    }

    func testUTF8StringOverlongFormsAreRejected() {
        assertRejected(0x0C, [0xC0, 0xAF], type: "UTF8String") // overlong '/'
        assertRejected(0x0C, [0xC1, 0xBF], type: "UTF8String")
        assertRejected(0x0C, [0xE0, 0x80, 0xAF], type: "UTF8String") // 3-byte overlong '/'
        assertRejected(0x0C, [0xF0, 0x80, 0x80, 0xAF], type: "UTF8String") // 4-byte overlong '/'
        assertRejected(0x0C, [0xC0, 0x80], type: "UTF8String") // "modified UTF-8" NUL
    }

    func testUTF8StringSurrogatesAreRejected() {
        assertRejected(0x0C, [0xED, 0xA0, 0x80], type: "UTF8String") // U+D800
        assertRejected(0x0C, [0xED, 0xBF, 0xBF], type: "UTF8String") // U+DFFF
        assertRejected(0x0C, [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], type: "UTF8String") // CESU-8 pair
    }

    func testUTF8StringTruncatedAndInvalidSequencesAreRejected() {
        assertRejected(0x0C, [0xE2, 0x82], type: "UTF8String")
        assertRejected(0x0C, [0x61, 0xC3], type: "UTF8String")
        assertRejected(0x0C, [0xF0, 0x9F, 0x98], type: "UTF8String")
        assertRejected(0x0C, [0x80], type: "UTF8String") // lone continuation
        assertRejected(0x0C, [0xC3, 0x41], type: "UTF8String") // missing continuation
        assertRejected(0x0C, [0xF4, 0x90, 0x80, 0x80], type: "UTF8String") // above U+10FFFF
        assertRejected(0x0C, [0xF8, 0x88, 0x80, 0x80, 0x80], type: "UTF8String")
        assertRejected(0x0C, [0xFE], type: "UTF8String")
        assertRejected(0x0C, [0xFF], type: "UTF8String")
    }

    // MARK: - PrintableString

    func testPrintableStringValid() throws {
        let all = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?"
        XCTAssertEqual(try decode(0x13, bytes(all)), all)
        XCTAssertEqual(try decode(0x13, bytes("Example CA (Test), Inc.")), "Example CA (Test), Inc.")
        XCTAssertEqual(try decode(0x13, []), "")
    }

    func testPrintableStringRejectsOutsideCharacters() {
        for character in ["*", "@", "_", "&", "!", "\"", "#", ";", "<", ">", "[", "\\", "~", "%", "$", "`", "{", "|"] {
            assertRejected(0x13, bytes("ab\(character)c"), type: "PrintableString")
        }
        assertRejected(0x13, [0x41, 0x0A], type: "PrintableString")
        assertRejected(0x13, [0x41, 0x00], type: "PrintableString")
        assertRejected(0x13, [0xC3, 0xA9], type: "PrintableString")
        // Exhaustive: exactly 74 byte values are allowed.
        let allowed = (0...255).map(UInt8.init).filter { (try? self.decode(0x13, [$0])) != nil }
        XCTAssertEqual(allowed.count, 74)
    }

    // MARK: - IA5String

    func testIA5String() throws {
        XCTAssertEqual(try decode(0x16, bytes("user@example.com")), "user@example.com")
        let all = (0..<0x80).map(UInt8.init)
        XCTAssertEqual(try decode(0x16, all).unicodeScalars.map(\.value), (0..<0x80).map(UInt32.init))
        for byte: UInt8 in [0x80, 0xA0, 0xE9, 0xFF] {
            assertRejected(0x16, [0x61, byte], type: "IA5String")
        }
    }

    // MARK: - VisibleString

    func testVisibleString() throws {
        XCTAssertEqual(try decode(0x1A, bytes("Visible ~!@#")), "Visible ~!@#")
        XCTAssertEqual(try decode(0x1A, bytes(" ")), " ")
        for byte: UInt8 in [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xE9] {
            assertRejected(0x1A, [0x41, byte], type: "VisibleString")
        }
    }

    // MARK: - NumericString

    func testNumericString() throws {
        XCTAssertEqual(try decode(0x12, bytes("0123 456789")), "0123 456789")
        for text in ["12a", "-1", "1.0", "+1", "1/2"] {
            assertRejected(0x12, bytes(text), type: "NumericString")
        }
        assertRejected(0x12, [0x31, 0x0A], type: "NumericString")
    }

    // MARK: - TeletexString

    func testTeletexStringIsReadAsLatin1() throws {
        XCTAssertEqual(try decode(0x14, [0xE9]), "é")
        XCTAssertEqual(try decode(0x14, [0x43, 0x61, 0x66, 0xE9]), "Café")
        XCTAssertEqual(try decode(0x14, [0xFF, 0xA9, 0x41]), "ÿ©A")
        // Every byte maps to the code point of the same value.
        let all = (0...255).map(UInt8.init)
        XCTAssertEqual(try decode(0x14, all).unicodeScalars.map(\.value), (0...255).map(UInt32.init))
    }

    // MARK: - BMPString

    func testBMPStringValid() throws {
        XCTAssertEqual(try decode(0x1E, [0x00, 0x41, 0x00, 0xE9]), "Aé")
        XCTAssertEqual(try decode(0x1E, [0x4E, 0x2D, 0x65, 0x87]), "中文")
        XCTAssertEqual(try decode(0x1E, [0xFF, 0xFD]), "\u{FFFD}")
        XCTAssertEqual(try decode(0x1E, []), "")
    }

    func testBMPStringOddLengthAndSurrogatesAreRejected() {
        assertRejected(0x1E, [0x00], type: "BMPString")
        assertRejected(0x1E, [0x00, 0x41, 0x00], type: "BMPString")
        assertRejected(0x1E, [0xD8, 0x00], type: "BMPString")
        assertRejected(0x1E, [0x00, 0x41, 0xDF, 0xFF], type: "BMPString")
        assertRejected(0x1E, [0xD8, 0x3D, 0xDE, 0x00], type: "BMPString") // a UTF-16 pair is still not UCS-2
    }

    // MARK: - UniversalString

    func testUniversalStringValid() throws {
        XCTAssertEqual(try decode(0x1C, [0x00, 0x00, 0x00, 0x41, 0x00, 0x01, 0xF6, 0x00]), "A😀")
        XCTAssertEqual(try decode(0x1C, [0x00, 0x10, 0xFF, 0xFF]), "\u{10FFFF}")
        XCTAssertEqual(try decode(0x1C, []), "")
    }

    func testUniversalStringInvalidIsRejected() {
        for count in [1, 2, 3, 5, 6, 7] {
            assertRejected(0x1C, [UInt8](repeating: 0, count: count - 1) + [0x41], type: "UniversalString")
        }
        assertRejected(0x1C, [0x00, 0x00, 0xD8, 0x00], type: "UniversalString")
        assertRejected(0x1C, [0x00, 0x11, 0x00, 0x00], type: "UniversalString")
        assertRejected(0x1C, [0xFF, 0xFF, 0xFF, 0xFF], type: "UniversalString")
    }

    // MARK: - General

    func testIsString() throws {
        for identifier: UInt8 in [0x0C, 0x12, 0x13, 0x14, 0x16, 0x1A, 0x1C, 0x1E] {
            XCTAssertTrue(try element([identifier, 0x00]).isString, "0x\(String(identifier, radix: 16))")
        }
        for identifier: UInt8 in [0x02, 0x04, 0x05, 0x17, 0x18, 0x80, 0x8C, 0x15, 0x19] {
            XCTAssertFalse(try element([identifier, 0x00]).isString, "0x\(String(identifier, radix: 16))")
        }
    }

    func testNonStringTagIsRejected() throws {
        let octets = try element([0x04, 0x01, 0x41])
        assertDERError(.unexpectedTag(expected: "a string type", found: "OCTET STRING"), at: 0) { try octets.string() }
        let implicit = try element([0x82, 0x01, 0x41])
        assertDERError(.unexpectedTag(expected: "a string type", found: "[2]"), at: 0) { try implicit.string() }
    }

    func testErrorOffsetIsTheElementOffset() throws {
        let der = tlv(0x30, tlv(0x13, ascii: "ok") + tlv(0x13, ascii: "a*b"))
        var reader = try element(der).children()
        XCTAssertEqual(try reader.readAny().string(), "ok")
        let bad = try reader.readAny()
        XCTAssertEqual(bad.offset, 6)
        assertDERError(.invalidString(type: "PrintableString"), at: 6) { try bad.string() }
    }
}
