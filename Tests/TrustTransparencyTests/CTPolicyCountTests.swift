import Foundation
import TrustTransparency
import XCTest

/// A1's threshold, by lifetime, at each boundary: a leaf whose embedded SCTs come from exactly the
/// required number of listed logs qualifies; one log fewer does not.
final class CTPolicyCountTests: XCTestCase {
    /// Each leaf has embedded SCTs from logs 0-5; only the first `count` are listed.
    private func assertRequires(_ leaf: String, _ required: Int, at date: Date, file: StaticString = #filePath, line: UInt = #line) throws {
        let timestamps = try CTFixtures.embedded(leaf)
        let enough = try CTFixtures.evaluate(leaf, timestamps, logs: try CTFixtures.list(Array(0..<required)), at: date)
        XCTAssertEqual(enough.qualifyingRule, .embedded, "\(leaf) with \(required) logs", file: file, line: line)
        XCTAssertEqual(enough.requiredEmbeddedLogCount, required, leaf, file: file, line: line)
        XCTAssertEqual(enough.embeddedLogCount, required, file: file, line: line)
        let short = try CTFixtures.evaluate(leaf, timestamps, logs: try CTFixtures.list(Array(0..<(required - 1))), at: date)
        XCTAssertNil(short.qualifyingRule, "\(leaf) with \(required - 1) logs", file: file, line: line)
        XCTAssertEqual(short.countedRule, .embedded, file: file, line: line)
        XCTAssertEqual(short.counted.count, required - 1, file: file, line: line)
        XCTAssertEqual(short.reasons[required - 1], .unknownLog(try CTFixtures.log(required - 1).base64ID), file: file, line: line)
    }

    func testFromApril2021ByDaysOfLifetime() throws {
        try assertRequires("v2-180d", 2, at: CTFixtures.evaluation)
        try assertRequires("v2-180d-1s", 3, at: CTFixtures.evaluation)
        try assertRequires("v2-825d", 3, at: CTFixtures.evaluation)
        try assertRequires("v2-825d-1s", 4, at: CTFixtures.evaluation)
    }

    func testBeforeApril2021ByMonthsOfLifetime() throws {
        let date = CTFixtures.date("2020-06-01T00:00:00Z")
        try assertRequires("v1-14m", 2, at: date)
        try assertRequires("v1-15m", 3, at: date)
        try assertRequires("v1-27m", 3, at: date)
        try assertRequires("v1-28m", 4, at: date)
        try assertRequires("v1-39m", 4, at: date)
        try assertRequires("v1-40m", 5, at: date)
    }

    func testTheRuleChangesOnApril21st2021() throws {
        let date = CTFixtures.date("2021-06-01T00:00:00Z")
        // 200 days: six months before the change (2 logs), more than 180 days after it (3 logs).
        try assertRequires("switch-before", 2, at: date)
        try assertRequires("switch-after", 3, at: date)
    }

    func testRequiredCountsAsAFunction() {
        let day = CTFixtures.day
        let after = CTFixtures.t0
        XCTAssertEqual(CTPolicy.requiredEmbeddedLogCount(notBefore: after, notAfter: after + 180 * day), 2)
        XCTAssertEqual(CTPolicy.requiredEmbeddedLogCount(notBefore: after, notAfter: after + 180 * day + 1), 3)
        XCTAssertEqual(CTPolicy.requiredEmbeddedLogCount(notBefore: after, notAfter: after + 825 * day), 3)
        XCTAssertEqual(CTPolicy.requiredEmbeddedLogCount(notBefore: after, notAfter: after + 825 * day + 1), 4)
        let before = CTFixtures.date("2020-01-31T00:00:00Z")
        // 2020-01-31 + 15 months is 2021-04-30 (clamped): a calendar month, not 30 days.
        XCTAssertEqual(CTPolicy.requiredEmbeddedLogCount(notBefore: before, notAfter: CTFixtures.date("2021-04-29T23:59:59Z")), 2)
        XCTAssertEqual(CTPolicy.requiredEmbeddedLogCount(notBefore: before, notAfter: CTFixtures.date("2021-04-30T00:00:00Z")), 3)
        XCTAssertEqual(CTPolicy.lifetimeInSecondsFrom, CTFixtures.date("2021-04-21T00:00:00Z"))
        XCTAssertEqual(
            CTPolicy.requiredEmbeddedLogCount(
                notBefore: CTPolicy.lifetimeInSecondsFrom - 1,
                notAfter: CTPolicy.lifetimeInSecondsFrom - 1 + 200 * day), 2)
        XCTAssertEqual(
            CTPolicy.requiredEmbeddedLogCount(
                notBefore: CTPolicy.lifetimeInSecondsFrom,
                notAfter: CTPolicy.lifetimeInSecondsFrom + 200 * day), 3)
    }
}
