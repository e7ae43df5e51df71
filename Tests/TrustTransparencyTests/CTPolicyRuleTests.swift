import Foundation
import TrustTransparency
import XCTest

/// trustd's `(A1 and A2) or (B1 and B2)` on the fixtures: which SCTs count, which do not, and why.
final class CTPolicyRuleTests: XCTestCase {
    func testEmbeddedSCTsFromEnoughLogsQualify() throws {
        let result = try CTFixtures.evaluate("main", try CTFixtures.embedded("main"), logs: try CTFixtures.list(Array(0...5)))
        XCTAssertEqual(result.qualifyingRule, .embedded)
        XCTAssertTrue(result.isQualified)
        XCTAssertEqual(result.countedLogs, (0...5).map { "log \($0)" })
        XCTAssertEqual(result.notCounted, [])
        XCTAssertTrue(result.hasEmbeddedSCTFromCurrentLog)
        XCTAssertFalse(result.hasDeliveredSCT)
        XCTAssertEqual(result.issuanceTime, CTFixtures.at(10))
        XCTAssertEqual(result.counted.first?.timestamp, CTFixtures.at(10))
    }

    func testTheRSALogsSignaturesVerify() throws {
        let result = try CTFixtures.evaluate("main", try CTFixtures.embedded("main"), logs: try CTFixtures.list([5]))
        XCTAssertEqual(result.countedLogs, ["log 5"])
        let delivered = try CTFixtures.evaluate(
            "plain", try CTFixtures.tls("plain-rsa") + CTFixtures.tls("plain-one"),
            logs: try CTFixtures.list([0, 5]))
        XCTAssertEqual(delivered.qualifyingRule, .delivered)
        XCTAssertEqual(delivered.countedLogs, ["log 5", "log 0"])
    }

    func testWithoutTheIssuerEmbeddedSCTsCannotCount() throws {
        let result = CTPolicy.evaluate(
            leaf: try CTFixtures.leaf("main"), issuer: nil, timestamps: try CTFixtures.embedded("main"),
            logs: try CTFixtures.list(Array(0...5)), at: CTFixtures.evaluation)
        XCTAssertFalse(result.isQualified)
        XCTAssertEqual(Set(result.reasons.values), [.issuerUnavailable])
    }

    func testTwoCurrentLogsWithOneDeliveredSCTQualify() throws {
        let result = try CTFixtures.evaluate("plain", try CTFixtures.tls("plain"), logs: try CTFixtures.list([0, 1]))
        XCTAssertEqual(result.qualifyingRule, .delivered)
        XCTAssertEqual(result.currentLogCount, 2)
        XCTAssertEqual(result.counted.map(\.source), [.tlsExtension, .tlsExtension])
        XCTAssertNil(result.issuanceTime)
    }

    func testOneDeliveredSCTIsNotEnough() throws {
        let result = try CTFixtures.evaluate("plain", try CTFixtures.tls("plain-one"), logs: try CTFixtures.list([0, 1]))
        XCTAssertNil(result.qualifyingRule)
        XCTAssertEqual(result.countedRule, .delivered)
        XCTAssertEqual(result.currentLogCount, 1)
        XCTAssertTrue(result.description.contains("SCTs from 1 current logs (2 required)"), result.description)
    }

    func testEachLogCountsOnceWithItsEarliestSCT() throws {
        let result = try CTFixtures.evaluate("plain", try CTFixtures.tls("plain-same-log"), logs: try CTFixtures.list([0, 1]))
        XCTAssertNil(result.qualifyingRule)
        XCTAssertEqual(result.counted.map(\.index), [0])
        XCTAssertEqual(result.counted.first?.timestamp, CTFixtures.at(100))
        XCTAssertEqual(result.reasons[1], .sameLogAlreadyCounted(log: "log 0"))
    }

    func testOCSPSCTsCountAsDelivered() throws {
        let result = try CTFixtures.evaluate("plain", try CTFixtures.ocsp("plain", leaf: "plain"), logs: try CTFixtures.list([3, 4]))
        XCTAssertEqual(result.qualifyingRule, .delivered)
        XCTAssertEqual(result.counted.map(\.source), [.ocspResponse, .ocspResponse])
    }

    func testDeliveredAndEmbeddedSCTsTogetherMakeTheTwoCurrentLogs() throws {
        // v2-825d-1s needs 4 logs' embedded SCTs; only logs 0 and 1 are listed, so A1 fails. Its
        // TLS SCT (log 0) satisfies B2, and logs 0 and 1 (embedded) B1. Log 0 counts with its
        // embedded SCT, the earlier.
        let timestamps = try CTFixtures.embedded("v2-825d-1s") + CTFixtures.tls("long")
        let result = try CTFixtures.evaluate("v2-825d-1s", timestamps, logs: try CTFixtures.list([0, 1]))
        XCTAssertEqual(result.qualifyingRule, .delivered)
        XCTAssertEqual(result.counted.map(\.index), [0, 1])
        XCTAssertEqual(result.reasons[6], .sameLogAlreadyCounted(log: "log 0"))
        XCTAssertEqual(result.embeddedLogCount, 2)
        XCTAssertEqual(result.requiredEmbeddedLogCount, 4)
        let embeddedOnly = try CTFixtures.evaluate("v2-825d-1s", try CTFixtures.embedded("v2-825d-1s"), logs: try CTFixtures.list([0, 1]))
        XCTAssertNil(embeddedOnly.qualifyingRule)
        XCTAssertEqual(embeddedOnly.countedRule, .embedded)
    }

    func testUnderTheEmbeddedRuleDeliveredSCTsDoNotCount() throws {
        // Logs 0 and 5 only: B1 needs two current logs and has them (embedded 0, 5 plus TLS 0, 5),
        // so B decides; with log 5 unlisted, A decides and the TLS SCT from log 0 is "not embedded".
        let timestamps = try CTFixtures.embedded("main") + CTFixtures.tls("main")
        let both = try CTFixtures.evaluate("main", timestamps, logs: try CTFixtures.list([0, 5]))
        XCTAssertEqual(both.qualifyingRule, .delivered)
        let one = try CTFixtures.evaluate("main", timestamps, logs: try CTFixtures.list([0]))
        XCTAssertNil(one.qualifyingRule)
        XCTAssertEqual(one.countedRule, .embedded)
        XCTAssertEqual(one.reasons[6], .notEmbedded)
        XCTAssertEqual(one.reasons[7], .unknownLog(try CTFixtures.log(5).base64ID))
    }

    func testAllThreeSources() throws {
        let timestamps = try CTFixtures.embedded("main") + CTFixtures.tls("main") + CTFixtures.ocsp("main", leaf: "main")
        let result = try CTFixtures.evaluate("main", timestamps, logs: try CTFixtures.list(Array(0...5)))
        XCTAssertEqual(result.qualifyingRule, .delivered)
        XCTAssertEqual(result.counted.count, 6)
        XCTAssertEqual(Set(result.notCounted.map(\.source)), [.tlsExtension, .ocspResponse])
        XCTAssertEqual(
            Set(result.reasons.values),
            [
                .sameLogAlreadyCounted(log: "log 0"), .sameLogAlreadyCounted(log: "log 5"),
                .sameLogAlreadyCounted(log: "log 2"),
            ])
    }

    func testSCTsFromTheFutureAreInvalid() throws {
        // Log 3's SCT is at T0 + 40 s, log 4's at T0 + 50 s; trustd compares in whole seconds.
        let timestamps = try CTFixtures.embedded("main")
        let logs = try CTFixtures.list(Array(0...5))
        let early = try CTFixtures.evaluate("main", timestamps, logs: logs, at: CTFixtures.at(45))
        XCTAssertEqual(early.reasons[4], .fromTheFuture(timestamp: CTFixtures.at(50), evaluatedAt: CTFixtures.at(45)))
        XCTAssertNil(early.reasons[3])
        let exact = try CTFixtures.evaluate("main", timestamps, logs: logs, at: CTFixtures.at(50.9))
        XCTAssertNil(exact.reasons[4])
        XCTAssertEqual(exact.reasons[5], .fromTheFuture(timestamp: CTFixtures.at(60), evaluatedAt: CTFixtures.at(50.9)))
        // Log 1's SCT at T0 + 20.5 s is in the future at T0 + 20.9 s: the evaluation time is cut to 20 s.
        let cut = try CTFixtures.evaluate("main", timestamps, logs: logs, at: CTFixtures.at(20.9))
        XCTAssertEqual(cut.reasons[1], .fromTheFuture(timestamp: CTFixtures.at(20.5), evaluatedAt: CTFixtures.at(20.9)))
        XCTAssertEqual(cut.countedLogs, ["log 0"])
    }

    func testMalformedSCTsAreInvalidWithTheirReason() throws {
        var timestamps = try CTFixtures.tls("plain")
        var v2 = timestamps[0].encoded
        v2[0] = 1
        timestamps[0] = PresentedTimestamp(encoded: v2, source: .tlsExtension)
        timestamps.append(PresentedTimestamp(encoded: try CTFixtures.tls("plain")[1].encoded + [0xFF], source: .tlsExtension))
        let result = try CTFixtures.evaluate("plain", timestamps, logs: try CTFixtures.list([0, 1]))
        XCTAssertEqual(result.reasons[0], .malformed(.unsupportedVersion(1)))
        XCTAssertEqual(result.reasons[2], .malformed(.trailingBytes(1)))
        XCTAssertEqual(result.countedLogs, ["log 1"])
        XCTAssertTrue(result.reasons[0]?.isInvalid ?? false)
    }

    func testABadSignatureIsInvalid() throws {
        var timestamps = try CTFixtures.tls("plain")
        var altered = timestamps[1].encoded
        altered[altered.count - 1] ^= 0x01
        timestamps[1] = PresentedTimestamp(encoded: altered, source: .tlsExtension)
        let result = try CTFixtures.evaluate("plain", timestamps, logs: try CTFixtures.list([0, 1]))
        XCTAssertNil(result.qualifyingRule)
        guard case .badSignature(log: "log 1", _)? = result.reasons[1] else { return XCTFail("\(result.reasons)") }
        // An SCT over another certificate (the main leaf's TLS SCT presented for the plain leaf).
        let other = try CTFixtures.evaluate("plain", try CTFixtures.tls("main"), logs: try CTFixtures.list([0, 5]))
        XCTAssertEqual(other.counted, [])
        XCTAssertEqual(other.notCounted.count, 2)
    }

    func testAnSCTVerifiedWithAnotherLogsKeyFails() throws {
        // The list says log 0's ID has log 1's key (a property list may give log_id as it likes).
        let wrong = try CTFixtures.log(0, id: try CTFixtures.log(0).id, key: 1)
        let result = try CTFixtures.evaluate("plain", try CTFixtures.tls("plain"), logs: try CTFixtures.list([wrong, try CTFixtures.log(1)]))
        XCTAssertNil(result.qualifyingRule)
        guard case .badSignature(log: "log 0", _)? = result.reasons[0] else { return XCTFail("\(result.reasons)") }
    }

    func testLogsNotTrustedDoNotCount() throws {
        let list = try CTLogList.loadJSON(try CTFixtures.data("log-list.json"), file: "log-list.json")
        let result = try CTFixtures.evaluate("plain", try CTFixtures.tls("plain-untrusted"), logs: list)
        XCTAssertEqual(result.reasons[0], .logNotTrusted(log: "SwiftTrust test log 6", state: .pending))
        XCTAssertEqual(result.reasons[1], .logNotTrusted(log: "SwiftTrust test log 7", state: .rejected))
    }
}
