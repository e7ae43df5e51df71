import Foundation
import TrustCore
import TrustPinning
import XCTest

/// Issue 40 item 2: a JSON configuration must be UTF-8 (RFC 8259 §8.1). Foundation's readers also
/// accept UTF-16 and UTF-32, which the duplicate-key and limit scan (ASCII bytes) cannot read, so
/// every other encoding is refused before anything decodes it; a UTF-8 byte order mark is skipped
/// once, so that key paths and lines stay right.
final class JSONEncodingTests: XCTestCase {
    /// The encodings Foundation would decode, each with and without a byte order mark.
    private static let wideEncodings: [(name: String, encode: @Sendable (String) -> Data, problem: @Sendable (Bool) -> JSONEncodingProblem)] = [
        ("UTF-16LE", { utf16($0, bigEndian: false) }, { .utf16(bigEndian: false, byteOrderMark: $0) }),
        ("UTF-16BE", { utf16($0, bigEndian: true) }, { .utf16(bigEndian: true, byteOrderMark: $0) }),
        ("UTF-32LE", { utf32($0, bigEndian: false) }, { .utf32(bigEndian: false, byteOrderMark: $0) }),
        ("UTF-32BE", { utf32($0, bigEndian: true) }, { .utf32(bigEndian: true, byteOrderMark: $0) }),
    ]

    private static func utf16(_ text: String, bigEndian: Bool) -> Data {
        Data(text.utf16.flatMap { unit in bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] })
    }

    private static func utf32(_ text: String, bigEndian: Bool) -> Data {
        Data(
            text.unicodeScalars.flatMap { scalar -> [UInt8] in
                let bytes = (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
                return bigEndian ? bytes.reversed() : bytes
            })
    }

    /// SwiftTrust's format with `"enforcement"` twice: refused in UTF-8 at domains[0].enforcement, line 8.
    private func swiftTrustDocument() throws -> String {
        let pin = try ConfigurationPins.leaf().description
        return """
            {
              "version": 1,
              "domains": [
                {
                  "domain": "swifttrust.test",
                  "pins": {"leaf": ["\(pin)"]},
                  "enforcement": "reportOnly",
                  "enforcement": "enforce"
                }
              ]
            }
            """
    }

    /// TrustKit JSON with `TSKEnforcePinning` twice.
    private func trustKitDocument() throws -> String {
        let leaf = try ConfigurationPins.leaf().bareBase64, backup = try ConfigurationPins.backup().bareBase64
        return """
            {"TSKPinnedDomains": {"swifttrust.test": {
              "TSKPublicKeyHashes": ["\(leaf)", "\(backup)"],
              "TSKEnforcePinning": false,
              "TSKEnforcePinning": true}}}
            """
    }

    func testEveryEncodingButUTF8IsRefusedBeforeDecoding() throws {
        for document in [try swiftTrustDocument(), try trustKitDocument()] {
            for (name, encode, problem) in Self.wideEncodings {
                for byteOrderMark in [false, true] {
                    let data = encode((byteOrderMark ? "\u{FEFF}" : "") + document)
                    // The format named, or recognised from the content.
                    for format in [PinningConfigurationFormat.json, .trustkit, nil] {
                        let label = "\(name)\(byteOrderMark ? " with BOM" : ""), as \(format?.displayName ?? "recognised")"
                        let error = try XCTUnwrap(
                            loadError { () throws(PinningConfigurationLoadError) in
                                try PinningConfiguration.load(data: data, file: "pins.json", format: format)
                            }, label)
                        XCTAssertEqual(error.file, "pins.json", label)
                        XCTAssertEqual(error.rule, .notUTF8(problem(byteOrderMark)), label)
                        XCTAssertNil(error.keyPath, label)
                    }
                }
            }
        }
    }

    func testAUTF8ByteOrderMarkIsSkippedOnceAndKeyPathsStayRight() throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        let swiftTrust = bom + Data(try swiftTrustDocument().utf8)
        for format in [PinningConfigurationFormat.json, nil] {
            let error = try XCTUnwrap(
                loadError { () throws(PinningConfigurationLoadError) in
                    try PinningConfiguration.load(data: swiftTrust, file: "pins.json", format: format)
                })
            XCTAssertEqual(error.keyPath, "domains[0].enforcement", "\(String(describing: format))")
            XCTAssertEqual(error.line, 8, "\(String(describing: format))")
        }
        let trustKit = bom + Data(try trustKitDocument().utf8)
        let trustKitError = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.load(data: trustKit, file: "trustkit.json")
            })
        XCTAssertEqual(trustKitError.keyPath, "TSKPinnedDomains.swifttrust.test.TSKEnforcePinning")
        XCTAssertEqual(trustKitError.line, 4)

        // A document without duplicates loads with its mark, as it does without.
        let valid = bom + Data(try swiftTrustDocument().replacingOccurrences(of: "\"enforcement\": \"reportOnly\",\n", with: "").utf8)
        XCTAssertEqual(try PinningConfiguration.load(data: valid, file: "pins.json").domains.first?.enforcement, .enforce)
        XCTAssertEqual(try PinningConfiguration.load(data: valid, file: "pins.json", format: .json).domains.count, 1)
    }

    func testBytesThatAreNotUTF8AreRefusedWithTheirOffset() throws {
        let latin1 = Data(#"{"version": 1, "domains": [{"domain": "caf"#.utf8) + Data([0xE9]) + Data(#".test"}]}"#.utf8)
        let error = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.load(data: latin1, file: "pins.json")
            })
        XCTAssertEqual(error.rule, .notUTF8(.invalidUTF8(byteOffset: 42)))
        let nul = Data(#"{"TSKPinnedDomains": {}}"#.utf8) + Data([0])
        let nulError = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.load(data: nul, file: "trustkit.json", format: .trustkit)
            })
        XCTAssertEqual(nulError.rule, .notUTF8(.nulCharacter(byteOffset: 24)))
        XCTAssertEqual(
            nulError.description,
            "trustkit.json: not UTF-8: the file holds a NUL character at offset 24, and JSON configurations must be UTF-8 (RFC 8259 §8.1)")
        let wide = PinningConfigurationLoadError(file: "pins.json", rule: .notUTF8(.utf16(bigEndian: false, byteOrderMark: true)))
        XCTAssertEqual(
            wide.description,
            "pins.json: not UTF-8: the file holds UTF-16LE (with a byte order mark), and JSON configurations "
                + "must be UTF-8 (RFC 8259 §8.1); convert it to UTF-8 (iconv -f UTF-16LE -t UTF-8)")
    }
}
