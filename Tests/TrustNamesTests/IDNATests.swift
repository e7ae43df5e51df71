import XCTest
@testable import TrustNames

final class IDNATests: XCTestCase {
    /// The byte entry point (used to parse the public-suffix list) answers exactly as the String one,
    /// on its fast path (normalised ASCII) and off it.
    func testConvertingUTF8BytesMatchesConvertingTheString() {
        let inputs = [
            "example.com", "example.com.", "com", "a", "a-b", "-ab", "ab-", "a--b", "xn--mnchen-3ya", "XN--MNCHEN-3YA",
            "xn--zz", "Example", "münchen", "東京", "例え.テスト", "a..b", ".", "", "*", "a_b", "a b",
            String(repeating: "a", count: 63), String(repeating: "a", count: 64), String(repeating: "a.", count: 127),
            String(repeating: "ab.", count: 90), String(repeating: "x", count: 3000),
        ]
        for input in inputs {
            let fromBytes = Array(input.utf8).withUnsafeBufferPointer { IDNA.toASCII(utf8: $0) }
            XCTAssertEqual(fromBytes, IDNA.toASCII(input), input)
        }
        // And for every line of the shipped list (its rules are where the byte entry point is used).
        for line in PublicSuffixListSnapshot.text.split(separator: "\n") where !line.hasPrefix("//") {
            for label in line.split(separator: ".") where label != "*" && label != "!" {
                let text = String(label.hasPrefix("!") ? label.dropFirst() : label)
                XCTAssertEqual(Array(text.utf8).withUnsafeBufferPointer { IDNA.toASCII(utf8: $0) }, IDNA.toASCII(text), text)
            }
        }
    }

    func testValidConversions() {
        let cases: [(input: String, expected: String)] = [
            ("example.com", "example.com"),
            ("WWW.Example.COM", "www.example.com"),
            ("example.com.", "example.com"),
            ("localhost", "localhost"),
            ("a-b.c0.d", "a-b.c0.d"),
            ("münchen.de", "xn--mnchen-3ya.de"),
            ("MÜNCHEN.DE", "xn--mnchen-3ya.de"),
            ("bücher.example", "xn--bcher-kva.example"),
            ("Bücher.Example.", "xn--bcher-kva.example"),
            ("XN--BCHER-KVA.example", "xn--bcher-kva.example"),
            ("xn--bcher-kva.example", "xn--bcher-kva.example"),
            ("例え.テスト", "xn--r8jz45g.xn--zckzah"),
            ("пример.рф", "xn--e1afmkfd.xn--p1ai"),
            ("straße.de", "xn--strae-oqa.de"), // IDNA2008: ß is kept
            ("日本語。jp", "xn--wgv71a119e.jp"), // ideographic full stop
            ("\u{212A}.example", "k.example"), // KELVIN SIGN lowercases to ASCII
            ("bu\u{308}cher.example", "xn--bcher-kva.example"), // NFC composes u + U+0308
            ("ab--cd.example", "ab--cd.example"), // reserved ASCII label, still LDH
        ]
        for (input, expected) in cases {
            XCTAssertEqual(IDNA.toASCII(input), expected, input)
        }
    }

    /// NFC in the mapping step (our own tables): decomposed, reordered and Hangul-jamo inputs map
    /// like their composed forms. Expected A-labels are Python's `str.encode("idna")` of the composed form.
    func testNFCRelevantInputsMapLikeTheirComposedForms() {
        let cases: [(inputs: [String], expected: String)] = [
            (["éxample.com", "e\u{301}xample.com", "E\u{301}XAMPLE.COM"], "xn--xample-9ua.com"),
            // Hangul: precomposed, fully decomposed jamo L V T, and an LV syllable followed by a T jamo.
            (["각.kr", "\u{1100}\u{1161}\u{11A8}.kr", "가\u{11A8}.kr"], "xn--p39a.kr"),
            // Canonical ordering: dot below (class 220) sorts before circumflex (230) whatever the input order.
            (["ậ.example", "a\u{323}\u{302}.example", "a\u{302}\u{323}.example", "ạ\u{302}.example"], "xn--zkg.example"),
            // U+0958 is excluded from composition: NFC keeps U+0915 U+093C apart.
            (["\u{0958}.in", "\u{0915}\u{093C}.in"], "xn--11b2f.in"),
        ]
        for (inputs, expected) in cases {
            for input in inputs {
                XCTAssertEqual(IDNA.toASCII(input), expected, input.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
        }
    }

    func testCodePointsNewerThanTheNFCTablesAreRejected() {
        XCTAssertFalse(NFC.isKnown("\u{1E4D0}"), "NAG MUNDARI LETTER O is Unicode 15.0")
        XCTAssertNil(IDNA.toASCII("\u{1E4D0}.example"))
        XCTAssertNil(IDNA.toASCII("\u{0628}\u{0897}.example"), "U+0897 ARABIC PEPET is Unicode 16.0")
        XCTAssertTrue(NFC.isKnown("é"))
    }

    func testInvalidInputs() {
        let invalid: [String] = [
            "",
            ".",
            "..",
            ".example.com",
            "example..com",
            "example.com..",
            "exa mple.com",
            "under_score.example",
            "-leading.example",
            "trailing-.example",
            "*.example.com",
            "example.com:443",
            "[::1]",
            "a/b.example",
            "ex%41mple.com",
            "\u{0}.example",
            String(repeating: "a", count: 64) + ".example", // label too long
            "bü\u{2215}cher.example", // DIVISION SLASH
            "bücher\u{00A0}.example", // NO-BREAK SPACE
            "\u{0308}bc.example", // leading combining mark
            "-bücher.example", // leading hyphen in a U-label
            "bü--cher.example", // "--" in positions 3 and 4
            "ｅｘａｍｐｌｅ.com", // full-width: not mapped
            "a\u{200D}b.example", // ZWJ (CONTEXTJ)
            "😀.example", // symbol
            "xn--.example",
            "xn--a.example", // decodes to U+0080
            "xn--abc-.example", // decodes to ASCII only
            "xn--bcher-kva-.example", // trailing hyphen
            "xn--bcher-kv!.example",
            "xn--ls8h.example", // decodes to an emoji
            "xn--bcher-2pa.example", // decodes to "bÜcher": not lowercase
            "xn--u-ccb.example", // decodes to "u\u{308}": not NFC
            "xn--99999999999.example", // Punycode overflow
        ]
        for input in invalid {
            XCTAssertNil(IDNA.toASCII(input), input.debugDescription)
        }
    }

    func testALabelThatDecodesToValidULabelRoundTrips() {
        // "ü" alone and "ß" alone are valid, so their A-labels are accepted.
        XCTAssertEqual(IDNA.toASCII("xn--tda.example"), "xn--tda.example")
        XCTAssertEqual(IDNA.toASCII("ü.example"), "xn--tda.example")
        XCTAssertEqual(IDNA.toASCII("xn--zca.example"), "xn--zca.example")
    }

    func testLengthLimits() {
        let label63 = String(repeating: "a", count: 63)
        XCTAssertEqual(IDNA.toASCII(label63 + ".example"), label63 + ".example")

        // 4 labels of 63 octets + 3 dots = 255 octets: too long.
        let tooLong = [label63, label63, label63, label63].joined(separator: ".")
        XCTAssertNil(IDNA.toASCII(tooLong))

        // Exactly 253 octets is accepted, also with a trailing dot.
        let label61 = String(repeating: "b", count: 61)
        let exactly253 = [label63, label63, label63, label61].joined(separator: ".")
        XCTAssertEqual(exactly253.utf8.count, 253)
        XCTAssertEqual(IDNA.toASCII(exactly253), exactly253)
        XCTAssertEqual(IDNA.toASCII(exactly253 + "."), exactly253)
        XCTAssertNil(IDNA.toASCII(exactly253 + "b"))

        // A U-label whose A-label exceeds 63 octets.
        let longULabel = String(repeating: "ü", count: 60)
        XCTAssertNil(IDNA.toASCII(longULabel + ".example"))

        // Huge inputs are refused without trapping.
        XCTAssertNil(IDNA.toASCII(String(repeating: "a.", count: 100_000)))
    }

    func testOutputIsAlwaysAValidASCIIHostname() {
        let inputs = ["Bücher.example", "例え.テスト", "EXAMPLE.org.", "straße.de"]
        for input in inputs {
            guard let ascii = IDNA.toASCII(input) else {
                XCTFail("toASCII failed for \(input)")
                continue
            }
            XCTAssertTrue(IDNA.isValidASCIIHostname(ascii), ascii)
            XCTAssertFalse(ascii.hasSuffix("."), ascii)
            XCTAssertEqual(ascii, ascii.lowercased(), ascii)
        }
    }

    func testIsValidASCIIHostname() {
        let valid = [
            "example.com", "EXAMPLE.com", "example.com.", "a", "a-b.c", "xn--bcher-kva.example",
            "1.2.3.4", String(repeating: "a", count: 63) + ".com",
        ]
        for name in valid {
            XCTAssertTrue(IDNA.isValidASCIIHostname(name), name)
        }
        let invalid = [
            "", ".", "example.com..", ".example.com", "a..b", "-a.com", "a-.com", "a_b.com",
            "*.example.com", "bücher.example", "a b.com", "a.com/",
            String(repeating: "a", count: 64) + ".com",
            String(repeating: "a.", count: 127) + "ab",
        ]
        for name in invalid {
            XCTAssertFalse(IDNA.isValidASCIIHostname(name), name)
        }
    }

    func testEndsInNumericLabel() {
        XCTAssertTrue(IDNA.endsInNumericLabel("1.2.3.04"))
        XCTAssertTrue(IDNA.endsInNumericLabel("example.123"))
        XCTAssertTrue(IDNA.endsInNumericLabel("0x7f.0x1"))
        XCTAssertTrue(IDNA.endsInNumericLabel("foo.0X1F."))
        XCTAssertFalse(IDNA.endsInNumericLabel("example.com"))
        XCTAssertFalse(IDNA.endsInNumericLabel("123.example"))
        XCTAssertFalse(IDNA.endsInNumericLabel("foo.0x1g"))
    }
}
