import Foundation
import TrustTransparency
import XCTest

/// When trustd enforces CT: a fresh list (or one the caller set), a leaf valid from 2018-10-16 on
/// and valid now.
final class CTEnforcementTests: XCTestCase {
    func testAListIsFreshForSixtyDaysEitherWay() throws {
        let list = try CTFixtures.list([0])
        let sixty = 60 * CTFixtures.day
        XCTAssertTrue(list.isFresh(at: CTFixtures.t0))
        XCTAssertTrue(list.isFresh(at: CTFixtures.t0 + sixty - 1))
        XCTAssertFalse(list.isFresh(at: CTFixtures.t0 + sixty))
        XCTAssertTrue(list.isFresh(at: CTFixtures.t0 - sixty + 1))
        XCTAssertFalse(list.isFresh(at: CTFixtures.t0 - sixty))
        XCTAssertFalse(try CTLogList(logs: []).isFresh(at: CTFixtures.t0), "an unknown update time is stale")
        XCTAssertTrue(try CTLogList(logs: []).updated(at: CTFixtures.t0).isFresh(at: CTFixtures.t0))
    }

    func testAStaleListExemptsUnlessTheCallerSetTheLogs() throws {
        let leaf = try CTFixtures.leaf("main")
        let stale = try CTFixtures.list([0])
        let later = CTFixtures.t0 + 61 * CTFixtures.day
        XCTAssertEqual(CTEnforcement.exemption(of: leaf, at: later, logs: stale, logsSetByCaller: false), .staleLogList(updated: CTFixtures.t0))
        XCTAssertNil(CTEnforcement.exemption(of: leaf, at: later, logs: stale, logsSetByCaller: true))
        XCTAssertNil(CTEnforcement.exemption(of: leaf, at: CTFixtures.evaluation, logs: stale, logsSetByCaller: false))
    }

    func testLeavesFromBeforeOctober16th2018AreExempt() throws {
        let logs = try CTFixtures.list([0])
        let date = CTFixtures.date("2019-01-01T00:00:00Z")
        XCTAssertEqual(
            CTEnforcement.exemption(of: try CTFixtures.leaf("enforcement-before"), at: date, logs: logs, logsSetByCaller: true),
            .issuedBeforeEnforcement(notBefore: CTFixtures.date("2018-10-15T23:59:59Z")))
        XCTAssertNil(CTEnforcement.exemption(of: try CTFixtures.leaf("enforcement-start"), at: date, logs: logs, logsSetByCaller: true))
    }

    func testOnlyCurrentlyValidLeaves() throws {
        let leaf = try CTFixtures.leaf("main")
        let logs = try CTFixtures.list([0])
        let notAfter = CTFixtures.at(90 * CTFixtures.day)
        XCTAssertNil(CTEnforcement.exemption(of: leaf, at: notAfter, logs: logs, logsSetByCaller: true))
        XCTAssertNil(CTEnforcement.exemption(of: leaf, at: CTFixtures.t0, logs: logs, logsSetByCaller: true))
        XCTAssertEqual(CTEnforcement.exemption(of: leaf, at: notAfter + 1, logs: logs, logsSetByCaller: true), .leafNotCurrentlyValid)
        XCTAssertEqual(CTEnforcement.exemption(of: leaf, at: CTFixtures.t0 - 1, logs: logs, logsSetByCaller: true), .leafNotCurrentlyValid)
    }
}
