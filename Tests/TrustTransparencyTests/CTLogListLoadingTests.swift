import Foundation
import TrustCrypto
import TrustDocuments
import TrustTransparency
import XCTest

/// Apple's log list JSON (schema v4) and trustd's property-list form, and every refusal.
final class CTLogListLoadingTests: XCTestCase {
    private func json() throws -> CTLogList { try CTLogList.loadJSON(try CTFixtures.data("log-list.json"), file: "log-list.json") }
    private func plist() throws -> CTLogList {
        try CTLogList.loadPropertyList(try CTFixtures.data("log-list.plist"), file: "log-list.plist", updated: CTFixtures.t0)
    }

    func testJSONVersion4() throws {
        let list = try json()
        XCTAssertEqual(list.logs.count, 8)
        XCTAssertEqual(list.version, "4.1")
        XCTAssertEqual(list.updated, CTFixtures.date("2026-01-20T00:00:00Z"))
        XCTAssertEqual(list.logs.map(\.state), [.usable, .qualified, .readOnly, .retired, .usable, .usable, .pending, .rejected])
        XCTAssertEqual(list.logs.map(\.operatorName), ["Alfa", "Alfa", "Bravo", "Bravo", "Bravo", "Charlie", "Charlie", "Charlie"])
        for index in 0..<8 {
            let log = try XCTUnwrap(list.log(id: Digest.sha256(try CTFixtures.logKey(index))))
            XCTAssertEqual(log.key, try CTFixtures.logKey(index))
        }
        XCTAssertEqual(list.logs[2].readOnlySince, CTFixtures.at(25))
        XCTAssertEqual(list.logs[3].retiredSince, CTFixtures.date("2026-03-01T00:00:00Z"))
        XCTAssertTrue(list.logs[3].isRetired)
        XCTAssertEqual(list.logs[4].shard, .init(start: CTFixtures.date("2026-01-01T00:00:00Z"), end: CTFixtures.date("2027-01-01T00:00:00Z")))
        XCTAssertEqual(list.logs[4].logDescription, "SwiftTrust test log 4 (2026 shard)")
        XCTAssertEqual(list.logs.map(\.state.isTrusted), [true, true, true, true, true, true, false, false])
        XCTAssertEqual(try CTLogList.loadJSON(try CTFixtures.data("log-list.json"), file: "f", updated: CTFixtures.t0).updated, CTFixtures.t0)
    }

    func testBinaryPropertyList() throws {
        let binary = try CTLogList.loadPropertyList(try CTFixtures.data("log-list.bplist"), file: "log-list.bplist", updated: CTFixtures.t0)
        XCTAssertEqual(binary, try plist())
    }

    func testPropertyListAsTrustdsTestsWriteIt() throws {
        let list = try plist()
        XCTAssertEqual(list.logs.count, 6)
        XCTAssertEqual(list.updated, CTFixtures.t0)
        XCTAssertEqual(list.logs.map(\.state), [.usable, .usable, .readOnly, .retired, .usable, .usable])
        XCTAssertEqual(list.logs[2].readOnlySince, CTFixtures.at(25))
        XCTAssertEqual(list.logs[3].retiredSince, CTFixtures.date("2026-03-01T00:00:00Z"))
        XCTAssertEqual(list.logs[3].id, Digest.sha256(try CTFixtures.logKey(3)), "the explicit log_id")
        XCTAssertEqual(list.logs[4].shard, try json().logs[4].shard)
        XCTAssertEqual(list.logs.map(\.operatorName), ["Alfa", "Alfa", "Bravo", "Bravo", "Bravo", "Charlie"])
        XCTAssertEqual(list.logs.map(\.id), try json().logs.prefix(6).map(\.id))
    }

    private func assertRefused(
        json text: String, _ expected: CTLogListLoadError.Rule, limits: DocumentLimits = .standard,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try CTLogList.loadJSON(Data(text.utf8), file: "list.json", updated: nil, limits: limits), file: file, line: line) {
            XCTAssertEqual($0 as? CTLogListLoadError, CTLogListLoadError(file: "list.json", rule: expected), file: file, line: line)
        }
    }

    private func logJSON(_ fields: String) throws -> String {
        let key = Data(try CTFixtures.logKey(0)).base64EncodedString()
        return #"{"operators": [{"name": "A", "logs": [{"key": "\#(key)"\#(fields)}]}]}"#
    }

    func testJSONRefusals() throws {
        assertRefused(json: "[]", .wrongType("top level", expected: "dictionary", found: "array"))
        assertRefused(json: "{}", .missingKey("operators"))
        assertRefused(json: #"{"operators": {}}"#, .wrongType("operators", expected: "array", found: "dictionary"))
        assertRefused(json: #"{"operators": [{"logs": [{}]}]}"#, .missingKey("operators[0].logs[0].key"))
        assertRefused(json: #"{"operators": [{"logs": [{"key": "*"}]}]}"#, .invalidValue("operators[0].logs[0].key", reason: "not base64"))
        XCTAssertThrowsError(try CTLogList.loadJSON(Data(#"{"operators": [{"logs": [{"key": "AAAA"}]}]}"#.utf8), file: "list.json")) {
            guard case .unusableKey("operators[0].logs[0].key", .malformedKey)? = ($0 as? CTLogListLoadError)?.rule else { return XCTFail("\($0)") }
        }
        assertRefused(json: try logJSON(#", "log_id": "AAAA""#), .logIDMismatch("operators[0].logs[0]"))
        assertRefused(
            json: try logJSON(#", "state": {"usable": {"timestamp": "yesterday"}}"#),
            .invalidValue("operators[0].logs[0].state.usable.timestamp", reason: "not an RFC 3339 time (2018-01-01T00:00:00Z)"))
        assertRefused(
            json: try logJSON(#", "state": {"usable": {}, "retired": {}}"#),
            .invalidValue(
                "operators[0].logs[0].state", reason: "a state holds exactly one of pending, qualified, usable, readonly, retired, rejected"))
        assertRefused(
            json: try logJSON(#", "temporal_interval": {"start_inclusive": "2026-01-01T00:00:00Z"}"#),
            .missingKey("operators[0].logs[0].temporal_interval.end_exclusive"))
        assertRefused(json: try logJSON(#", "description": 5"#), .wrongType("operators[0].logs[0].description", expected: "string", found: "integer"))
        let key = Data(try CTFixtures.logKey(0)).base64EncodedString()
        let twice = #"{"operators": [{"logs": [{"key": "\#(key)"}]}, {"tiled_logs": [{"key": "\#(key)"}]}]}"#
        XCTAssertThrowsError(try CTLogList.loadJSON(Data(twice.utf8), file: "list.json")) {
            guard case .duplicateLogID? = ($0 as? CTLogListLoadError)?.rule else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try CTLogList.loadJSON(Data("{".utf8), file: "list.json")) {
            guard case .malformedDocument? = ($0 as? CTLogListLoadError)?.rule else { return XCTFail("\($0)") }
        }
    }

    func testUnknownStatesAreKeptAndNeverTrusted() throws {
        let list = try CTLogList.loadJSON(Data(try logJSON(#", "state": {"expired": {"timestamp": "2026-01-01T00:00:00Z"}}"#).utf8), file: "f")
        XCTAssertEqual(list.logs.first?.state, .unrecognised("expired"))
        XCTAssertEqual(list.logs.first?.state.isTrusted, false)
        XCTAssertEqual(try CTLogList.loadJSON(Data(try logJSON("").utf8), file: "f").logs.first?.state, .pending)
    }

    func testTimestampsWithFractionsAndOffsets() throws {
        let list = try CTLogList.loadJSON(
            Data(try logJSON(#", "state": {"readonly": {"timestamp": "2026-01-01T01:00:00.250+01:00"}}"#).utf8), file: "f")
        XCTAssertEqual(list.logs.first?.readOnlySince, CTFixtures.t0 + 0.25)
    }

    func testLimits() throws {
        let text = try String(decoding: CTFixtures.data("log-list.json"), as: UTF8.self)
        assertRefused(
            json: text, .tooLarge(byteCount: text.utf8.count, limit: 100),
            limits: DocumentLimits(maximumByteCount: 100, maximumNodeCount: 1000, maximumDepth: 16))
        assertRefused(
            json: text, .tooManyValues(limit: 50), limits: DocumentLimits(maximumByteCount: 1 << 20, maximumNodeCount: 50, maximumDepth: 16))
        assertRefused(json: text, .tooDeep(limit: 4), limits: DocumentLimits(maximumByteCount: 1 << 20, maximumNodeCount: 1000, maximumDepth: 4))
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        assertRefused(json: deep, .tooDeep(limit: 64))
        assertRefused(json: #"{"operators": [], "operators": []}"#, .duplicateKey("operators", key: "operators", line: 1))
        XCTAssertThrowsError(try CTLogList.loadJSON(Data([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]), file: "list.json")) {
            guard case .notUTF8? = ($0 as? CTLogListLoadError)?.rule else { return XCTFail("\($0)") }
        }
    }

    func testPropertyListRefusals() throws {
        func refused(_ text: String, _ expected: CTLogListLoadError.Rule, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try CTLogList.loadPropertyList(Data(text.utf8), file: "logs.plist"), file: file, line: line) {
                XCTAssertEqual($0 as? CTLogListLoadError, CTLogListLoadError(file: "logs.plist", rule: expected), file: file, line: line)
            }
        }
        let head = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
        XCTAssertThrowsError(try CTLogList.loadPropertyList(Data("bplist00".utf8), file: "logs.plist")) {
            guard case .malformedDocument? = ($0 as? CTLogListLoadError)?.rule else { return XCTFail("\($0)") }
        }
        refused(
            head + "<array><dict><key>key</key><data>AA==</data><key>key</key><data>AA==</data></dict></array></plist>",
            .duplicateKey("[0].key", key: "key", line: 1))
        refused(head + "<dict/></plist>", .wrongType("top level", expected: "array", found: "dictionary"))
        refused(head + "<array><dict><key>operator</key><string>A</string></dict></array></plist>", .missingKey("[0].key"))
        refused(
            head + "<array><dict><key>key</key><string>A</string></dict></array></plist>", .wrongType("[0].key", expected: "data", found: "string"))
        let key = Data(try CTFixtures.logKey(0)).base64EncodedString()
        refused(
            head + "<array><dict><key>key</key><data>\(key)</data><key>expiry</key><string>soon</string></dict></array></plist>",
            .wrongType("[0].expiry", expected: "date", found: "string"))
        refused(
            head + "<array><dict><key>key</key><data>\(key)</data><key>log_id</key><data>AAAA</data></dict></array></plist>",
            .invalidValue("[0].log_id", reason: "a log ID is 32 bytes"))
        XCTAssertThrowsError(try CTLogList.loadPropertyList(Data("not a plist".utf8), file: "logs.plist")) {
            guard case .malformedDocument? = ($0 as? CTLogListLoadError)?.rule else { return XCTFail("\($0)") }
        }
    }

    func testErrorsNameTheFileAndTheRule() {
        XCTAssertEqual(CTLogListLoadError(file: "a.json", rule: .missingKey("operators")).description, "a.json: operators: missing")
    }
}
