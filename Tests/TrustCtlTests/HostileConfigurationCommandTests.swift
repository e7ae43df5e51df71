import Foundation
import XCTest

/// Issue 31's loader reproductions through the command line: `trustctl pins convert` answers at
/// once with exit status 2 and the rule.
final class HostileConfigurationCommandTests: XCTestCase {
    /// A binary property list of `levels` arrays, each holding the one below it twice
    /// (`n = [n-1, n-1]`, a `true` at the bottom): a few hundred bytes that a reader expanding
    /// shared objects turns into 2^levels nodes.
    static func sharedObjectBomb(levels: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(bytes.count)
        bytes.append(0x09) // object 0: true
        for level in 1...levels {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(level - 1), UInt8(level - 1)] // array of two references to the level below
        }
        let offsetTable = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        func be64(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        // Trailer: 6 unused, offset size 2, reference size 1, object count, top object, table offset.
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + be64(offsets.count) + be64(levels) + be64(offsetTable)
        return bytes
    }

    func testASharedObjectBombIsRefusedAtOnce() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).plist")
        try Data(Self.sharedObjectBomb(levels: 40)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let start = Date()
        let result = try trustctl(["pins", "convert", url.path, "--to", "json"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "answers at once, not after expanding 2^40 nodes")
        XCTAssertEqual(result.status, 2, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("shared objects are expanded"), result.stderrText)
    }

    func testADuplicateKeyInTheJSONPinFormatIsRefusedWithItsLine() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString).json")
        try Data(Self.duplicateEnforcement.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try trustctl(["pins", "convert", url.path, "--to", "android"])
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stderrText.contains("enforcement"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains(".json:8: at domains[0].enforcement"), result.stderrText)
    }

    /// Issue 40 item 2: the same file in UTF-16 or UTF-32 (which Foundation would decode, and the
    /// duplicate-key scan cannot read) is refused as not UTF-8, naming the file; with a UTF-8 byte
    /// order mark the duplicate is found at its key path and line.
    func testAJSONPinFileThatIsNotUTF8IsRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let utf16LE = Data(Self.duplicateEnforcement.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let utf32BE = Data(
            ("\u{FEFF}" + Self.duplicateEnforcement).unicodeScalars.flatMap { scalar in
                (0..<4).reversed().map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
            })
        for (data, encoding) in [(utf16LE, "UTF-16LE"), (utf32BE, "UTF-32BE (with a byte order mark)")] {
            try data.write(to: url)
            let result = try trustctl(["pins", "convert", url.path, "--to", "android"])
            XCTAssertEqual(result.status, 2, "\(encoding): " + result.stdoutText + result.stderrText)
            XCTAssertTrue(result.stderrText.contains("\(url.path): not UTF-8: the file holds \(encoding)"), result.stderrText)
        }
        try (Data([0xEF, 0xBB, 0xBF]) + Data(Self.duplicateEnforcement.utf8)).write(to: url)
        let marked = try trustctl(["pins", "convert", url.path, "--to", "android"])
        XCTAssertEqual(marked.status, 2, marked.stdoutText + marked.stderrText)
        XCTAssertTrue(marked.stderrText.contains(".json:8: at domains[0].enforcement"), marked.stderrText)
    }

    /// A SwiftTrust JSON pin file with `"enforcement"` twice (line 8).
    private static let duplicateEnforcement = """
        {
          "version": 1,
          "domains": [
            {
              "domain": "api.example.com",
              "pins": { "leaf": ["sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "sha256/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="] },
              "enforcement": "enforce",
              "enforcement": "reportOnly"
            }
          ]
        }
        """
}
