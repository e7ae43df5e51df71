import Foundation
import MetricsTestKit
import NIOCore
import TrustCore
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 41 item 4: what a `TLSTrustVerifier` records through swift-metrics, read back from the
/// test kit's `TestMetrics` passed as the factory (nothing is bootstrapped globally).
final class DecisionMetricsLoopbackTests: LoopbackTestCase {
    private let serverChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]

    /// Every value the bounded dimensions may take.
    private static let allowedDimensionValues: [String: Set<String>] = [
        "outcome": ["trusted", "rejected"], "role": ["server", "client"], "resumed": ["true", "false"],
        "reason": [
            "none", "no_certificates", "malformed_certificate", "evaluation_failed", "evaluator_rejected",
            "security_policy_rejected", "judge_rejected", "challenge_cancelled", "protection_space_rejected", "options_not_enforced",
            "certificate_transparency_not_enforced",
            "verifier_misconfigured", "identity_not_allowed", "anchors_unavailable",
        ],
        "kind": ["crl", "ocsp", "ca_issuers"], "result": ["ok", "failed", "reloaded"],
    ]

    private func decisions(_ recorded: TestMetrics, outcome: String, reason: String, role: String = "server") -> Int64 {
        recorded.counterTotal(
            label: TLSTrustMetrics.decisionsLabel,
            dimensions: [("outcome", outcome), ("role", role), ("reason", reason), ("resumed", "false")])
    }

    /// A judge's rejection is labelled by its failure's type: TrustPinning's evaluators and
    /// security policies each by their own word, every other judge by one (never by its text).
    func testJudgeRejectionsAreLabelledByTheirFailuresType() throws {
        struct Other: TLSTrustJudgeFailure { var description: String { "anything the judge chose" } }
        let labelled: [(any TLSTrustJudgeFailure, String)] = [
            (ServerTrustFailureReason.noCertificatesFound, "evaluator_rejected"),
            (SecurityPolicyFailure.noPinnedCertificates, "security_policy_rejected"),
            (Other(), "judge_rejected"),
        ]
        for (failure, label) in labelled {
            let reason = TLSTrustFailure.judgeRejected(host: "a.test", failure: AnyTLSTrustJudgeFailure(failure)).metricReason
            XCTAssertEqual(reason, label)
            XCTAssertTrue(try XCTUnwrap(Self.allowedDimensionValues["reason"]).contains(reason), reason)
        }
    }

    func testTrustedAndRejectedHandshakesAreCountedTimedAndTheExpiryGaugeIsSet() throws {
        let recorded = TestMetrics()
        let metrics = TLSTrustMetrics(factory: recorded)
        let server = try startNIOServer(presenting: serverChain)

        XCTAssertNil(try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings(), metrics: metrics)).error)
        let otherRoot = try TLSTrustVerifier(settings: try TestCertificates.settings(anchors: ["rsa/root.pem"]), metrics: metrics)
        guard case .evaluationFailed? = rejection(try connect(port: server.port, verifier: otherRoot)) else { return XCTFail() }
        var otherName = try TestCertificates.settings()
        otherName.requiredIdentity = try .dnsName("other.swifttrust.test")
        let wrongIdentity = try TLSTrustVerifier(settings: otherName, metrics: metrics)
        guard case .identityNotAllowed? = rejection(try connect(port: server.port, verifier: wrongIdentity)) else { return XCTFail() }

        XCTAssertEqual(decisions(recorded, outcome: "trusted", reason: "none"), 1)
        XCTAssertEqual(decisions(recorded, outcome: "rejected", reason: "evaluation_failed"), 1)
        XCTAssertEqual(decisions(recorded, outcome: "rejected", reason: "identity_not_allowed"), 1)
        XCTAssertEqual(recorded.counterTotal(label: TLSTrustMetrics.decisionsLabel), 3)

        let timer = try recorded.expectTimer(TLSTrustMetrics.decisionDurationLabel, [("role", "server")])
        XCTAssertEqual(timer.values.count, 3)
        XCTAssertTrue(timer.values.allSatisfy { $0 > 0 && $0 < 10_000_000_000 }, "\(timer.values)")

        // The chain trusted: leaf, intermediate, root; the gauge is its earliest notAfter from now.
        let chain = try serverChain.flatMap(TestCertificates.certificates) + TestCertificates.certificates("ecdsa/root.pem")
        let earliest = try XCTUnwrap(chain.map(\.notAfter.secondsSince1970).min())
        let gauge = try recorded.expectGauge(TLSTrustMetrics.peerNearestExpiryLabel)
        XCTAssertEqual(try XCTUnwrap(gauge.lastValue), Double(earliest) - Date().timeIntervalSince1970, accuracy: 60)

        assertBoundedDimensions(recorded)
    }

    func testFetchesOfTheSettingsFetcherAreCountedThroughAHandshake() throws {
        let recorded = TestMetrics()
        let server = try startNIOServer(presenting: serverChain)
        var settings = try TestCertificates.settings()
        settings.revocation = .useAnyAvailableMethod // soft fail: nothing served, the peer still trusted
        let verifier = try TLSTrustVerifier(settings: settings, metrics: TLSTrustMetrics(factory: recorded))
        XCTAssertNil(try connect(port: server.port, verifier: verifier).error)

        let fetches = recorded.counters(label: TLSTrustMetrics.fetchesLabel)
        XCTAssertFalse(fetches.isEmpty, "the leaf's revocation URLs were asked for")
        for counter in fetches {
            XCTAssertTrue(counter.dimensions.contains { $0 == ("result", "failed") }, "\(counter.dimensions)")
        }
        XCTAssertEqual(decisions(recorded, outcome: "trusted", reason: "none"), 1)
        assertBoundedDimensions(recorded)
    }

    func testDisabledMetricsRecordNothingAndLeaveTheFetcherAlone() throws {
        let settings = try TestCertificates.settings()
        XCTAssertTrue(try TLSTrustVerifier(settings: settings, metrics: .disabled).settings.revocationFetching.fetcher is NoRevocationFetcher)
        XCTAssertFalse(
            try TLSTrustVerifier(settings: settings).settings.revocationFetching.fetcher is NoRevocationFetcher,
            "the default metrics count the fetches")
        XCTAssertFalse(TLSTrustMetrics.disabled.isEnabled)
        XCTAssertTrue(TLSTrustMetrics.standard.isEnabled)
        let server = try startNIOServer(presenting: serverChain)
        XCTAssertNil(try connect(port: server.port, verifier: TLSTrustVerifier(settings: settings, metrics: .disabled)).error)
    }

    /// No dimension value outside the fixed lists: nothing a peer or a rule chose.
    private func assertBoundedDimensions(_ recorded: TestMetrics, file: StaticString = #filePath, line: UInt = #line) {
        let dimensions =
            recorded.counters.flatMap(\.dimensions) + recorded.timers.flatMap(\.dimensions)
            + recorded.recorders.flatMap(\.dimensions)
        for (key, value) in dimensions {
            XCTAssertTrue(Self.allowedDimensionValues[key]?.contains(value) == true, "\(key)=\(value)", file: file, line: line)
        }
    }
}
