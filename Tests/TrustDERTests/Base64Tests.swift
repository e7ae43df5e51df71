import TrustDER
import XCTest

/// Strict base64 (RFC 4648 §4) used by the PEM decoder.
final class Base64Tests: XCTestCase {
    /// RFC 4648 §10 test vectors.
    private let vectors: [(String, String)] = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    func testRFC4648EncodeVectors() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded, plain)
        }
    }

    func testRFC4648DecodeVectors() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.decode(Array(encoded.utf8)), Array(plain.utf8), encoded)
            XCTAssertEqual(Base64.decode(encoded.utf8), Array(plain.utf8), encoded)
        }
    }

    func testFullAlphabet() {
        let bytes: [UInt8] = [
            0x00, 0x10, 0x83, 0x10, 0x51, 0x87, 0x20, 0x92, 0x8B, 0x30, 0xD3, 0x8F,
            0x41, 0x14, 0x93, 0x51, 0x55, 0x97, 0x61, 0x96, 0x9B, 0x71, 0xD7, 0x9F,
            0x82, 0x18, 0xA3, 0x92, 0x59, 0xA7, 0xA2, 0x9A, 0xAB, 0xB2, 0xDB, 0xAF,
            0xC3, 0x1C, 0xB3, 0xD3, 0x5D, 0xB7, 0xE3, 0x9E, 0xBB, 0xF3, 0xDF, 0xBF,
        ]
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        XCTAssertEqual(Base64.encode(bytes), alphabet)
        XCTAssertEqual(Base64.decode(Array(alphabet.utf8)), bytes)
    }

    func testRoundTripAllLengthsAndByteValues() {
        let all = (0...255).map(UInt8.init)
        for length in 0...all.count {
            let input = Array(all[0..<length].reversed())
            let encoded = Base64.encode(input)
            XCTAssertEqual(encoded.count, (length + 2) / 3 * 4)
            XCTAssertEqual(Base64.decode(Array(encoded.utf8)), input, "length \(length)")
        }
    }

    func testNonZeroPadBitsAreRejected() {
        XCTAssertEqual(Base64.decode(Array("QQ==".utf8)), [0x41])
        XCTAssertNil(Base64.decode(Array("QR==".utf8)))
        XCTAssertNil(Base64.decode(Array("QT==".utf8)))
        XCTAssertNil(Base64.decode(Array("Zh==".utf8)))
        XCTAssertEqual(Base64.decode(Array("QUI=".utf8)), [0x41, 0x42])
        XCTAssertNil(Base64.decode(Array("QUJ=".utf8)))
        XCTAssertNil(Base64.decode(Array("Zm9=".utf8)))
        XCTAssertNil(Base64.decode(Array("Zm/=".utf8)))
    }

    func testBadPaddingIsRejected() {
        for text in [
            "Zg", "Zg=", "Zg===", "Zm8", "Z", "Zm9vY", "=", "==", "====", "Z===", "Zg=A", "Zm=v",
            "Zg==Zm8=", "Zm8=Zm9v", "=Zg=", "Zm9v====", "Zm9vYg===",
        ] {
            XCTAssertNil(Base64.decode(Array(text.utf8)), "'\(text)' must be rejected")
        }
    }

    func testStrayCharactersAreRejected() {
        for text in [
            "Zm9v\n", "Zm9 v", " Zm9v", "Zm9v\r\nYmFy", "Zm-v", "Zm_v", "Zm9v*", "Zm.v", "Zm9v\0\0\0\0",
            "Zm9v\u{7F}Zm8", "Zm9vYmFy\t",
        ] {
            XCTAssertNil(Base64.decode(Array(text.utf8)), "'\(text.debugDescription)' must be rejected")
        }
        XCTAssertNil(Base64.decode([0x5A, 0x6D, 0x39, 0xC3]))
    }
}
