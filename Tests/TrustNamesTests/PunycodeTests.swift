import XCTest
@testable import TrustNames

final class PunycodeTests: XCTestCase {
    /// RFC 3492 §7.1 sample strings (code points, Punycode).
    private static let rfcSamples: [(name: String, codePoints: [UInt32], punycode: String)] = [
        (
            "(A) Arabic (Egyptian)",
            [
                0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644,
                0x0645, 0x0648, 0x0634, 0x0639, 0x0631, 0x0628, 0x064A, 0x061F,
            ],
            "egbpdaj6bu4bxfgehfvwxn"
        ),
        (
            "(B) Chinese (simplified)",
            [0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587],
            "ihqwcrb4cv8a8dqg056pqjye"
        ),
        (
            "(C) Chinese (traditional)",
            [0x4ED6, 0x5011, 0x7232, 0x4EC0, 0x9EBD, 0x4E0D, 0x8AAA, 0x4E2D, 0x6587],
            "ihqwctvzc91f659drss3x8bo0yb"
        ),
        (
            "(D) Czech",
            [
                0x50, 0x72, 0x6F, 0x10D, 0x70, 0x72, 0x6F, 0x73, 0x74, 0x11B, 0x6E, 0x65,
                0x6D, 0x6C, 0x75, 0x76, 0xED, 0x10D, 0x65, 0x73, 0x6B, 0x79,
            ],
            "Proprostnemluvesky-uyb24dma41a"
        ),
        (
            "(E) Hebrew",
            [
                0x05DC, 0x05DE, 0x05D4, 0x05D4, 0x05DD, 0x05E4, 0x05E9, 0x05D5, 0x05D8, 0x05DC,
                0x05D0, 0x05DE, 0x05D3, 0x05D1, 0x05E8, 0x05D9, 0x05DD, 0x05E2, 0x05D1, 0x05E8,
                0x05D9, 0x05EA,
            ],
            "4dbcagdahymbxekheh6e0a7fei0b"
        ),
        (
            "(G) Japanese",
            [
                0x306A, 0x305C, 0x307F, 0x3093, 0x306A, 0x65E5, 0x672C, 0x8A9E, 0x3092, 0x8A71,
                0x3057, 0x3066, 0x304F, 0x308C, 0x306A, 0x3044, 0x306E, 0x304B,
            ],
            "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"
        ),
        (
            "(I) Russian",
            [
                0x043F, 0x043E, 0x0447, 0x0435, 0x043C, 0x0443, 0x0436, 0x0435, 0x043E, 0x043D,
                0x0438, 0x043D, 0x0435, 0x0433, 0x043E, 0x0432, 0x043E, 0x0440, 0x044F, 0x0442,
                0x043F, 0x043E, 0x0440, 0x0443, 0x0441, 0x0441, 0x043A, 0x0438,
            ],
            "b1abfaaepdrnnbgefbadotcwatmq2g4l"
        ),
        (
            "(J) Spanish",
            [
                0x50, 0x6F, 0x72, 0x71, 0x75, 0xE9, 0x6E, 0x6F, 0x70, 0x75, 0x65, 0x64, 0x65, 0x6E,
                0x73, 0x69, 0x6D, 0x70, 0x6C, 0x65, 0x6D, 0x65, 0x6E, 0x74, 0x65, 0x68, 0x61, 0x62,
                0x6C, 0x61, 0x72, 0x65, 0x6E, 0x45, 0x73, 0x70, 0x61, 0xF1, 0x6F, 0x6C,
            ],
            "PorqunopuedensimplementehablarenEspaol-fmd56a"
        ),
        (
            "(K) Vietnamese",
            [
                0x54, 0x1EA1, 0x69, 0x73, 0x61, 0x6F, 0x68, 0x1ECD, 0x6B, 0x68, 0xF4, 0x6E, 0x67,
                0x74, 0x68, 0x1EC3, 0x63, 0x68, 0x1EC9, 0x6E, 0xF3, 0x69, 0x74, 0x69, 0x1EBF, 0x6E,
                0x67, 0x56, 0x69, 0x1EC7, 0x74,
            ],
            "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"
        ),
        (
            "(L) 3<nen>B<gumi><kinpachi><sensei>",
            [0x33, 0x5E74, 0x42, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F],
            "3B-ww4c5e180e575a65lsy2b"
        ),
        (
            "(M) <amuro><namie>-with-SUPER-MONKEYS",
            [
                0x5B89, 0x5BA4, 0x5948, 0x7F8E, 0x6075, 0x2D, 0x77, 0x69, 0x74, 0x68, 0x2D, 0x53,
                0x55, 0x50, 0x45, 0x52, 0x2D, 0x4D, 0x4F, 0x4E, 0x4B, 0x45, 0x59, 0x53,
            ],
            "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"
        ),
        (
            "(N) Hello-Another-Way-<sorezore><no><basho>",
            [
                0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x2D, 0x41, 0x6E, 0x6F, 0x74, 0x68, 0x65, 0x72, 0x2D,
                0x57, 0x61, 0x79, 0x2D, 0x305D, 0x308C, 0x305E, 0x308C, 0x306E, 0x5834, 0x6240,
            ],
            "Hello-Another-Way--fc4qua05auwb3674vfr0b"
        ),
        (
            "(O) <hitotsu><yane><no><shita>2",
            [0x3072, 0x3068, 0x3064, 0x5C4B, 0x6839, 0x306E, 0x4E0B, 0x32],
            "2-u9tlzr9756bt3uc0v"
        ),
        (
            "(P) Maji<de>Koi<suru>5<byou><mae>",
            [0x4D, 0x61, 0x6A, 0x69, 0x3067, 0x4B, 0x6F, 0x69, 0x3059, 0x308B, 0x35, 0x79D2, 0x524D],
            "MajiKoi5-783gue6qz075azm5e"
        ),
        (
            "(Q) <pafii>de<runba>",
            [0x30D1, 0x30D5, 0x30A3, 0x30FC, 0x64, 0x65, 0x30EB, 0x30F3, 0x30D0],
            "de-jg4avhby1noc0d"
        ),
        (
            "(R) <sono><supiido><de>",
            [0x305D, 0x306E, 0x30B9, 0x30D4, 0x30FC, 0x30C9, 0x3067],
            "d9juau41awczczp"
        ),
        (
            "(S) -> $1.00 <-",
            [0x2D, 0x3E, 0x20, 0x24, 0x31, 0x2E, 0x30, 0x30, 0x20, 0x3C, 0x2D],
            "-> $1.00 <--"
        ),
    ]

    private func scalars(_ values: [UInt32]) -> [Unicode.Scalar] {
        values.compactMap { Unicode.Scalar($0) }
    }

    func testRFC3492SamplesEncode() {
        for sample in Self.rfcSamples {
            let input = scalars(sample.codePoints)
            XCTAssertEqual(input.count, sample.codePoints.count, sample.name)
            XCTAssertEqual(Punycode.encode(input), sample.punycode, sample.name)
        }
    }

    func testRFC3492SamplesDecode() {
        for sample in Self.rfcSamples {
            XCTAssertEqual(Punycode.decode(sample.punycode[...]), scalars(sample.codePoints), sample.name)
        }
    }

    func testDecodeIsCaseInsensitiveForDigits() {
        // RFC 3492 gives (I) with mixed-case annotations; they must be ignored.
        let russian = Self.rfcSamples[6]
        XCTAssertEqual(Punycode.decode("b1abfaaepdrnnbgefbaDotcwatmq2g4l"), scalars(russian.codePoints))
        XCTAssertEqual(Punycode.decode("TDA")?.map(\.value), [0xFC])
        XCTAssertEqual(Punycode.decode("BCHER-KVA")?.map(\.value), [0x42, 0xFC, 0x43, 0x48, 0x45, 0x52])
    }

    func testBucher() {
        XCTAssertEqual(Punycode.encode("bücher".unicodeScalars), "bcher-kva")
        XCTAssertEqual(Punycode.decode("bcher-kva").map { String(String.UnicodeScalarView($0)) }, "bücher")
        XCTAssertEqual(Punycode.encode("münchen".unicodeScalars), "mnchen-3ya")
    }

    func testASCIIOnlyAndEmpty() {
        XCTAssertEqual(Punycode.encode("abc".unicodeScalars), "abc-")
        XCTAssertEqual(Punycode.decode("abc-")?.map(\.value), [0x61, 0x62, 0x63])
        XCTAssertEqual(Punycode.encode("".unicodeScalars), "")
        XCTAssertEqual(Punycode.decode("")?.count, 0)
    }

    func testRoundTripOfAstralAndBoundaryScalars() {
        for values: [UInt32] in [[0x80], [0x10FFFF], [0x1F600, 0x61, 0x1F600], [0xFFFD, 0x7F, 0xD7FF, 0xE000]] {
            let input = scalars(values)
            guard let encoded = Punycode.encode(input) else {
                XCTFail("encode failed for \(values)")
                continue
            }
            XCTAssertEqual(Punycode.decode(encoded[...]), input, "\(values)")
        }
        XCTAssertEqual(Punycode.decode("dn32g")?.map(\.value), [0x10FFFF])
    }

    func testDecodeRejectsMalformedInput() {
        let invalid: [Substring] = [
            "bücher-kva", // non-basic code point in the literal part
            "abc-kv!", // invalid digit
            "-abc", // the delimiter is not consumed when nothing precedes it
            "kv", // truncated variable-length integer
            "ib9b", // decodes to the surrogate U+D800
            "en32g", // decodes to 0x110000, beyond Unicode
            "ww902716a", // decodes to 0xFFFFFFFF
            "99999999999", // overflows 32 bits
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
            "a-99999999999999999999",
        ]
        for input in invalid {
            XCTAssertNil(Punycode.decode(input), String(input))
        }
    }

    func testOverlongInputIsRefused() {
        let longASCII = String(repeating: "a", count: Punycode.maximumInputLength + 1)
        XCTAssertNil(Punycode.encode(longASCII.unicodeScalars))
        XCTAssertNil(Punycode.decode(longASCII[...]))
        let atLimit = String(repeating: "ü", count: Punycode.maximumInputLength)
        XCTAssertNotNil(Punycode.encode(atLimit.unicodeScalars))
    }

    func testDecodeNeverTrapsOnArbitraryDigitStrings() {
        // A deterministic sweep over short strings of digits and delimiters.
        let alphabet = Array("a9z-0A".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<5_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let length = Int((state >> 33) % 16)
            var bytes: [UInt8] = []
            var local = state
            for _ in 0..<length {
                local = local &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(alphabet[Int((local >> 40) % UInt64(alphabet.count))])
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let decoded = Punycode.decode(text[...]), let reencoded = Punycode.encode(decoded) {
                // Whatever decodes must decode identically after re-encoding.
                XCTAssertEqual(Punycode.decode(reencoded[...]), decoded, text)
            }
        }
    }
}
