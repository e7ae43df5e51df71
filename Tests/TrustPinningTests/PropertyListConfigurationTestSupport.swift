import Foundation
@testable import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// Real pins of TestCertificates/ for the ATS and TrustKit configuration tests.
enum ConfigurationPins {
    static func pin(_ relative: String) throws -> SPKIPin { SPKIPin(certificate: try TestCertificates.certificate(relative)) }

    static func leaf() throws -> SPKIPin { try pin("ecdsa/leaf.pem") }
    static func intermediate() throws -> SPKIPin { try pin("ecdsa/intermediate.pem") }
    static func root() throws -> SPKIPin { try pin("ecdsa/root.pem") }
    /// A key the ECDSA chain does not use: a backup pin.
    static func backup() throws -> SPKIPin { try pin("rsa/leaf.pem") }

    /// The ECDSA chain the pins are checked against, leaf first.
    static func chain() throws -> [Certificate] {
        try ["ecdsa/leaf.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem"].map(TestCertificates.certificate)
    }
}

extension SPKIPin {
    /// The pin as ATS and TrustKit write it: base64 without `sha256/`.
    var bareBase64: String { String(description.dropFirst(SPKIPin.prefix.count)) }
}

/// An XML property list whose top-level element is `body`.
func xmlPropertyList(_ body: String) -> Data {
    Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """.utf8)
}

/// The same property list in the binary format.
func binaryPropertyList(_ xml: Data) throws -> Data {
    let object = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    XCTAssertTrue(binary.starts(with: Data("bplist00".utf8)))
    return binary
}

/// The load error `load` throws, failing the test when it loads.
func loadError(
    _ load: () throws(PinningConfigurationLoadError) -> PinningConfiguration,
    file: StaticString = #filePath, line: UInt = #line
) -> PinningConfigurationLoadError? {
    do {
        let configuration = try load()
        XCTFail("loaded \(configuration)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Asserts that `load` fails at `keyPath` with a rule `matches` accepts.
func assertLoadFails(
    _ name: String, keyPath: String?, _ load: () throws(PinningConfigurationLoadError) -> PinningConfiguration,
    file: StaticString = #filePath, line: UInt = #line,
    rule matches: (PinningConfigurationRule) -> Bool
) {
    guard let error = loadError(load, file: file, line: line) else { return }
    XCTAssertEqual(error.keyPath, keyPath, "\(name): \(error)", file: file, line: line)
    XCTAssertTrue(matches(error.rule), "\(name): unexpected rule in \(error)", file: file, line: line)
}

/// The export error `export` throws, failing the test when it writes.
func exportError(
    _ export: () throws(PinningConfigurationExportError) -> Data,
    file: StaticString = #filePath, line: UInt = #line
) -> PinningConfigurationExportError? {
    do {
        let data = try export()
        XCTFail("wrote \(String(decoding: data, as: UTF8.self))", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

extension PinningConfigurationRule {
    var isInvalidValue: Bool { if case .invalidValue = self { return true } else { return false } }
    var isMalformedPin: Bool { if case .invalidPin(.malformedPin) = self { return true } else { return false } }
    var isInvalidHostPattern: Bool { if case .invalidPin(.invalidHostPattern) = self { return true } else { return false } }
    var isMalformedDocument: Bool { if case .malformedDocument = self { return true } else { return false } }
}
