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
        bytes.append(0x09)                                   // object 0: true
        for level in 1...levels {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(level - 1), UInt8(level - 1)]   // array of two references to the level below
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
        let json = """
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
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try trustctl(["pins", "convert", url.path, "--to", "android"])
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stderrText.contains("enforcement"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains(".json:8: at domains[0].enforcement"), result.stderrText)
    }
}
