import Foundation
@testable import TrustPinning
import TrustTestSupport
import XCTest

/// TrustKit reads `TSKPublicKeyHashes` with Foundation's `Data(base64Encoded:)`, which drops the
/// padding bits of the last character (TrustKit's parse_configuration.m; its demo's backup pin
/// `BBBB…BBB=` is such a text): the loader reads them the same way and notes the canonical form.
final class TrustKitNonCanonicalPinTests: XCTestCase {
    /// TrustKit's demo and tests' backup pin (TrustKitDemo AppDelegate, TSKPinningValidatorTests).
    private static let demoBackupPin = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="
    /// The 32 bytes Foundation decodes it to: 0x04 0x10 0x41 repeated, then 0x04 0x10.
    private static let demoBackupDigest = Array([[UInt8]](repeating: [0x04, 0x10, 0x41], count: 10).joined()) + [0x04, 0x10]

    /// `pin`'s base64 with the two padding bits of its last character set: the same 32 bytes.
    private func withPaddingBitsSet(_ pin: SPKIPin) throws -> String {
        try XCTUnwrap(TrustTestSupport.withPaddingBitsSet(pin.bareBase64))
    }

    private func configuration(pins: [String]) -> Data {
        let list = pins.map { "\"\($0)\"" }.joined(separator: ", ")
        return Data("{\"TSKPinnedDomains\": {\"swifttrust.test\": {\"TSKPublicKeyHashes\": [\(list)]}}}".utf8)
    }

    func testABackupPinWithPaddingBitsSetLoadsAsTrustKitReadsIt() throws {
        let intermediate = try ConfigurationPins.intermediate()
        let written = try withPaddingBitsSet(intermediate)
        XCTAssertNotEqual(written, intermediate.bareBase64)
        XCTAssertEqual(Data(base64Encoded: written).map(Array.init), intermediate.digest, "Foundation reads it as the intermediate's digest")

        let loaded = try PinningConfiguration.load(data: configuration(pins: [written, Self.demoBackupPin]), file: "trustkit.json")
        let policy = try XCTUnwrap(loaded.policy(forHost: "swifttrust.test"))
        XCTAssertEqual(policy.requirements.first?.pins.map(\.digest), [intermediate.digest, Self.demoBackupDigest])
        let chain = try ConfigurationPins.chain()
        XCTAssertTrue(policy.requirements.allSatisfy { $0.isSatisfied(by: chain) }, "the pin matches the intermediate's key")
        XCTAssertFalse(try XCTUnwrap(policy.requirements.first).isSatisfied(by: [chain[0]]), "and nothing else of the chain")

        let base = "TSKPinnedDomains.swifttrust.test.TSKPublicKeyHashes"
        XCTAssertEqual(
            loaded.notes,
            [
                PinningConfigurationNote(
                    file: "trustkit.json", keyPath: "\(base)[0]",
                    kind: .nonCanonicalPin(domain: "swifttrust.test", written: written, canonical: intermediate.bareBase64)),
                PinningConfigurationNote(
                    file: "trustkit.json", keyPath: "\(base)[1]",
                    kind: .nonCanonicalPin(
                        domain: "swifttrust.test", written: Self.demoBackupPin,
                        canonical: "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA=")),
            ])
        XCTAssertTrue(loaded.notes[1].description.contains("\"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA=\""), loaded.notes[1].description)

        // The canonical text loads the same configuration, without notes.
        let canonical = try PinningConfiguration.load(
            data: configuration(pins: [intermediate.bareBase64, "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA="]), file: "trustkit.json")
        XCTAssertEqual(canonical, loaded)
        XCTAssertEqual(canonical.notes, [])
    }

    func testTwoTextsOfOneDigestAreOnePin() throws {
        let intermediate = try ConfigurationPins.intermediate()
        let data = configuration(pins: [intermediate.bareBase64, try withPaddingBitsSet(intermediate)])
        assertLoadFails(
            "the same digest twice", keyPath: "TSKPinnedDomains.swifttrust.test.TSKPublicKeyHashes",
            { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.loadTrustKit(data: data, file: "trustkit.json")
            }, rule: { $0 == .tooFewPins(domain: "swifttrust.test", count: 1, minimum: 2) })
    }

    /// What Foundation refuses (or some Foundation reads otherwise) stays refused.
    func testWhatTrustKitRefusesIsStillRefused() throws {
        let backup = try ConfigurationPins.backup().bareBase64
        let b43 = String(repeating: "B", count: 43)
        let refused = [
            b43, // no padding: Foundation needs a multiple of 4
            b43 + "==", // 45 characters: the older decoder refuses
            b43 + "= ", // whitespace
            " " + b43 + "=",
            String(repeating: "B", count: 42) + "-=", // base64url alphabet
            String(repeating: "B", count: 40) + "=BBB", // "=" before the end
            String(repeating: "B", count: 44), // 33 bytes
            String(repeating: "B", count: 42) + "==", // 31 bytes
        ]
        for text in refused {
            assertLoadFails(
                text, keyPath: "TSKPinnedDomains.swifttrust.test.TSKPublicKeyHashes[0]",
                { () throws(PinningConfigurationLoadError) in
                    try PinningConfiguration.loadTrustKit(data: configuration(pins: [text, backup]), file: "trustkit.json")
                }, rule: \.isMalformedPin)
        }
    }

    /// Where this decoder reads a text, Foundation here reads the same bytes.
    func testTheDecoderAgreesWithFoundationWhereItReads() {
        let b43 = String(repeating: "B", count: 43)
        let texts = [
            Self.demoBackupPin, String(repeating: "B", count: 42) + "A=", b43 + "=====", "QR==", "QQ==", "QUJ=", "QUI=", "AAAA====", "AQIDBA==",
            "/w==", "//8=",
        ]
        for text in texts {
            let ours = FoundationBase64.decode(text.utf8)
            XCTAssertNotNil(ours, text)
            XCTAssertEqual(ours, Data(base64Encoded: text).map(Array.init), text)
        }
        for text in ["====", "A===", "AAAAA===", "QQ=", "QQ", "Q R==", "QQ==QQ=="] {
            XCTAssertNil(FoundationBase64.decode(text.utf8), text)
        }
    }

    /// Written back, a configuration's pins are canonical base64, and load again without notes.
    func testWritingBackEmitsCanonicalBase64() throws {
        let intermediate = try ConfigurationPins.intermediate()
        let written = try withPaddingBitsSet(intermediate)
        let loaded = try PinningConfiguration.load(data: configuration(pins: [written, Self.demoBackupPin]), file: "trustkit.json")
        for format in PinningConfigurationFormat.allCases where format != .ats {
            let text = String(decoding: try loaded.encoded(as: format), as: UTF8.self)
            XCTAssertTrue(text.contains(intermediate.bareBase64), "\(format): \(text)")
            XCTAssertTrue(text.contains("BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA="), "\(format): \(text)")
            XCTAssertFalse(text.contains(written), "\(format): \(text)")
            XCTAssertFalse(text.contains(Self.demoBackupPin), "\(format): \(text)")
            let reloaded = try PinningConfiguration.load(data: loaded.encoded(as: format), file: "back")
            XCTAssertEqual(reloaded, loaded, "\(format)")
            XCTAssertEqual(reloaded.notes, [], "\(format)")
        }
    }
}
