import Foundation
import TrustTransparency
import XCTest

/// Retired, read-only and sharded logs, at each boundary. The main leaf's SCT from log k is stamped
/// T0 + 10(k+1) s; its notAfter is T0 + 90 days.
final class CTPolicyLogStateTests: XCTestCase {
    private func evaluateMain(_ logs: [CTLog], extra: [PresentedTimestamp] = []) throws -> CTEvaluation {
        try CTFixtures.evaluate("main", try CTFixtures.embedded("main") + extra, logs: try CTFixtures.list(logs))
    }

    func testARetiredLogCountsForAnEmbeddedSCTDatedBeforeRetirementOnALeafIssuedBeforeIt() throws {
        // Log 2's SCT at T0 + 30 s; the issuance time is log 0's SCT, T0 + 10 s.
        let result = try evaluateMain([try CTFixtures.log(0), try CTFixtures.log(2, retiredSince: CTFixtures.at(31))])
        XCTAssertEqual(result.qualifyingRule, .embedded)
        XCTAssertEqual(result.countedLogs, ["log 0", "log 2"])
        XCTAssertEqual(result.issuanceTime, CTFixtures.at(10))
        XCTAssertEqual(result.currentLogCount, 1)
    }

    func testARetiredLogDoesNotCountForAnSCTDatedAtOrAfterRetirement() throws {
        for retired in [CTFixtures.at(30), CTFixtures.at(20)] {
            let result = try evaluateMain([try CTFixtures.log(0), try CTFixtures.log(2, retiredSince: retired)])
            XCTAssertNil(result.qualifyingRule)
            XCTAssertEqual(result.reasons[2], .loggedAfterRetirement(log: "log 2", timestamp: CTFixtures.at(30), retiredSince: retired))
        }
    }

    func testARetiredLogDoesNotCountWhenTheLeafWasIssuedAfterRetirement() throws {
        // Current log 3 (SCT at T0 + 40 s) sets the issuance time; log 2 (SCT at T0 + 30 s) retired
        // at T0 + 35 s, before issuance: not counted; retired at T0 + 41 s: counted.
        let before = try evaluateMain([try CTFixtures.log(3), try CTFixtures.log(2, retiredSince: CTFixtures.at(35))])
        XCTAssertNil(before.qualifyingRule)
        XCTAssertEqual(before.reasons[2], .issuedAfterRetirement(log: "log 2", issuance: CTFixtures.at(40), retiredSince: CTFixtures.at(35)))
        let after = try evaluateMain([try CTFixtures.log(3), try CTFixtures.log(2, retiredSince: CTFixtures.at(41))])
        XCTAssertEqual(after.qualifyingRule, .embedded)
    }

    func testEmbeddedSCTsFromRetiredLogsAloneDoNotQualify() throws {
        // A2 needs an embedded SCT from a current log.
        let result = try evaluateMain([
            try CTFixtures.log(0, retiredSince: CTFixtures.at(1000)),
            try CTFixtures.log(1, retiredSince: CTFixtures.at(1000)),
        ])
        XCTAssertNil(result.qualifyingRule)
        XCTAssertFalse(result.hasEmbeddedSCTFromCurrentLog)
        XCTAssertEqual(result.reasons[0], .retiredLog(log: "log 0", retiredSince: CTFixtures.at(1000)))
        // Without an embedded SCT from a current log the issuance time is the evaluation time,
        // after both retirements: A1 counts neither.
        XCTAssertEqual(result.embeddedLogCount, 0)
        XCTAssertNil(result.issuanceTime)
    }

    func testDeliveredSCTsFromRetiredLogsAreInvalid() throws {
        let retired = CTFixtures.date("2026-03-01T00:00:00Z")
        let result = try CTFixtures.evaluate(
            "plain", try CTFixtures.tls("plain-retired"),
            logs: try CTFixtures.list([try CTFixtures.log(3, retiredSince: retired), try CTFixtures.log(0)]))
        XCTAssertNil(result.qualifyingRule)
        XCTAssertEqual(result.reasons[0], .deliveredFromRetiredLog(log: "log 3", retiredSince: retired))
        XCTAssertEqual(result.countedLogs, ["log 0"])
    }

    func testSCTsAfterALogBecameReadOnlyDoNotCount() throws {
        // Log 2's SCT at T0 + 30 s: read-only from T0 + 30 s it counts, from T0 + 29 s it does not.
        let atTime = try evaluateMain([try CTFixtures.log(2, readOnlySince: CTFixtures.at(30)), try CTFixtures.log(3)])
        XCTAssertEqual(atTime.qualifyingRule, .embedded)
        let before = try evaluateMain([try CTFixtures.log(2, readOnlySince: CTFixtures.at(29)), try CTFixtures.log(3)])
        XCTAssertNil(before.qualifyingRule)
        XCTAssertEqual(before.reasons[2], .afterReadOnly(log: "log 2", timestamp: CTFixtures.at(30), readOnlySince: CTFixtures.at(29)))
        // Log 1's SCT at T0 + 20.5 s is compared in whole seconds: read-only from T0 + 20 s, it counts.
        let truncated = try evaluateMain([try CTFixtures.log(1, readOnlySince: CTFixtures.at(20)), try CTFixtures.log(3)])
        XCTAssertEqual(truncated.qualifyingRule, .embedded)
    }

    func testAShardCoversOnlyLeavesWhoseNotAfterIsInIt() throws {
        let notAfter = CTFixtures.at(90 * CTFixtures.day)
        let inside = try evaluateMain([try CTFixtures.log(0), try CTFixtures.log(4, shard: .init(start: notAfter, end: notAfter + 1))])
        XCTAssertEqual(inside.qualifyingRule, .embedded)
        for shard in [CTLog.Shard(start: notAfter - 1, end: notAfter), CTLog.Shard(start: notAfter + 1, end: nil)] {
            let outside = try evaluateMain([try CTFixtures.log(0), try CTFixtures.log(4, shard: shard)])
            XCTAssertNil(outside.qualifyingRule, "\(shard)")
            XCTAssertEqual(outside.reasons[4], .outsideShard(log: "log 4", notAfter: notAfter, shard: shard))
        }
    }

    func testTheLoadedListsStatesDecideAsProgrammaticOnes() throws {
        // JSON: 0 usable, 1 qualified, 2 read-only since T0 + 25 s (its SCT at T0 + 30 s does not
        // count), 3 retired 2026-03-01, 4 sharded over 2026 (covers the main leaf), 5 usable.
        // The property list says the same of logs 0-5 (its states from its dates).
        let lists = [
            try CTLogList.loadJSON(try CTFixtures.data("log-list.json"), file: "log-list.json"),
            try CTLogList.loadPropertyList(try CTFixtures.data("log-list.plist"), file: "log-list.plist"),
        ]
        for list in lists {
            let result = try CTFixtures.evaluate("main", try CTFixtures.embedded("main"), logs: list)
            XCTAssertEqual(result.qualifyingRule, .embedded)
            XCTAssertEqual(result.counted.map(\.index), [0, 1, 3, 4, 5])
            XCTAssertEqual(
                result.reasons[2],
                .afterReadOnly(
                    log: "SwiftTrust test log 2", timestamp: CTFixtures.at(30),
                    readOnlySince: CTFixtures.at(25)))
        }
    }
}
