import Foundation
@testable import TrustPinning
import XCTest

/// The codec registry: names, and recognition in registry order where two formats could claim a
/// document (the order the loader had before the registry).
final class PinningConfigurationCodecsTests: XCTestCase {
    func testEveryFormatIsNamedOnceAndFoundByName() {
        XCTAssertEqual(PinningConfigurationFormat.allCases.map(\.rawValue), ["trustkit", "ats", "android", "json"])
        for format in PinningConfigurationFormat.allCases {
            XCTAssertEqual(PinningConfigurationFormat(rawValue: format.rawValue), format)
            XCTAssertEqual(format.description, format.rawValue)
        }
        XCTAssertEqual([PinningConfigurationFormat.json, .ats, .android, .trustkit].map(\.rawValue), ["json", "ats", "android", "trustkit"])
        XCTAssertNil(PinningConfigurationFormat(rawValue: "yaml"))
    }

    func testRecognitionAsksTheCodecsInRegistryOrder() throws {
        let pins = try [ConfigurationPins.leaf(), ConfigurationPins.backup()].map { "<string>\($0.bareBase64)</string>" }.joined()
        let both = xmlPropertyList(
            """
            <dict><key>NSPinnedDomains</key><dict/><key>TSKPinnedDomains</key>\
            <dict><key>swifttrust.test</key><dict><key>TSKPublicKeyHashes</key><array>\(pins)</array></dict></dict></dict>
            """)
        XCTAssertEqual(PinningConfiguration.detectFormat(of: both), .trustkit, "TrustKit before ATS")
        let androidMentioningPlist = Data("<?xml version=\"1.0\"?><!-- not a <plist> --><network-security-config/>".utf8)
        XCTAssertEqual(PinningConfiguration.detectFormat(of: androidMentioningPlist), .android, "XML codecs before the property-list reading")
        XCTAssertEqual(PinningConfiguration.detectFormat(of: Data(#"{"TSKPinnedDomains": {}}"#.utf8)), .trustkit, "TrustKit JSON before ours")
        XCTAssertEqual(PinningConfiguration.detectFormat(of: Data(#"{"version": 1, "domains": []}"#.utf8)), .json)
        XCTAssertNil(PinningConfiguration.detectFormat(of: Data("<html/>".utf8)))
        let unrecognised = loadError { () throws(PinningConfigurationLoadError) in try PinningConfiguration.load(data: Data("<html/>".utf8)) }
        guard case let .unrecognisedFormat(message)? = unrecognised?.rule else { return XCTFail("\(String(describing: unrecognised))") }
        for format in PinningConfigurationFormat.allCases {
            XCTAssertTrue(message.contains(format.codec.recognitionHint), message)
        }
    }
}
