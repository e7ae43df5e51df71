import Foundation
import TrustCore
import TrustPinning
import TrustSession
import TrustTestSupport
import TrustX509
import XCTest

/// Certificate Transparency logs are enforced by the evaluation only (trustd's SecPolicyCheckCT runs
/// on the validated path), so they count as a setting that needs an evaluation
/// (`TrustConfiguration.requiresEvaluation`): a judge that accepts without evaluating is refused beside
/// them when configured, and an acceptance that did not rest on an evaluation under the logs is
/// rejected, never the logs silently skipped.
final class CertificateTransparencyEnforcementTests: XCTestCase {
    private static let host = "www.swifttrust.test"

    private static func logList() throws -> CTLogList {
        let file = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures/log-list.json")
        return try CTLogList.loadJSON(try Data(contentsOf: file), file: file.lastPathComponent)
    }

    /// The test root as the only anchor at the verify date, with `logs` configured.
    private func settings(logs: CTLogSelection?) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try TestCertificates.certificates("ecdsa/root.pem"))
        settings.verifyDate = Date(timeIntervalSince1970: 1_780_272_000)
        settings.configuration.certificateTransparencyLogs = logs
        return settings
    }

    /// Accepts every peer without looking at it, and says so.
    private struct Skipping: TLSTrustJudging {
        var acceptsWithoutEvaluating: Bool { true }
        func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? { nil }
    }

    /// Claims to evaluate, but takes the logs off the trust and accepts without evaluating.
    private struct DroppingLogs: TLSTrustJudging {
        func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? {
            trust.configuration.certificateTransparencyLogs = nil
            return nil
        }
    }

    /// Claims to evaluate, but accepts without evaluating (and leaves the logs alone).
    private struct NotLooking: TLSTrustJudging {
        func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? { nil }
    }

    func testJudgesThatAcceptWithoutEvaluatingAreRefusedBesideLogsByName() throws {
        let keys = try TestCertificates.certificates("ecdsa/intermediate.pem").publicKeys
        var allowingInvalid = SecurityPolicy()
        allowingInvalid.allowInvalidCertificates = true
        let skipping: [(String, TLSTrustJudge)] = [
            ("DisabledTrustEvaluator", .evaluator(DisabledTrustEvaluator())),
            ("PublicKeysTrustEvaluator", .evaluator(PublicKeysTrustEvaluator(keys: keys, performDefaultValidation: false, validateHost: false))),
            ("SecurityPolicy", .securityPolicy(allowingInvalid)),
            ("Skipping", .custom(Skipping())),
        ]
        let logs = try Self.logList()
        for (name, judge) in skipping {
            XCTAssertNoThrow(try TLSTrustDecider(settings: try settings(logs: nil), judge: judge), "\(name) without logs")
            for selection in [CTLogSelection.published(logs), .trustedByCaller(logs)] {
                XCTAssertThrowsError(try TLSTrustDecider(settings: try settings(logs: selection), judge: judge), name) {
                    guard case let .judgeSkipsCertificateTransparency(refused)? = $0 as? TLSTrustConfigurationError else {
                        return XCTFail("\(name): \($0)")
                    }
                    XCTAssertTrue(refused.hasPrefix(name), "\(refused) for \(name)")
                    XCTAssertTrue("\($0)".contains("Certificate Transparency logs"), "\($0)")
                }
            }
        }
        XCTAssertNoThrow(try TLSTrustDecider(settings: try settings(logs: .published(logs)), judge: .evaluate))
    }

    func testAnAcceptanceWithoutAnEvaluationUnderTheLogsIsRejected() throws {
        let chain = try TestCertificates.certificates("ecdsa/chain.pem")
        let decider = try TLSTrustDecider(settings: try settings(logs: .trustedByCaller(try Self.logList())), judge: .custom(DroppingLogs()))
        guard case let .rejected(failure) = decider.decideOffline(chain, role: .server(host: Self.host)) else {
            return XCTFail("a judge that removed the CT logs from the trust was believed")
        }
        XCTAssertEqual(failure, .certificateTransparencyNotEnforced(host: Self.host, evaluation: nil))
        XCTAssertTrue(failure.description.contains("not under the configured Certificate Transparency logs"), failure.description)
    }

    func testAJudgeThatDidNotLookIsBackedByAnEvaluationUnderTheLogs() throws {
        let chain = try TestCertificates.certificates("ecdsa/chain.pem")
        let decider = try TLSTrustDecider(settings: try settings(logs: .trustedByCaller(try Self.logList())), judge: .custom(NotLooking()))
        guard case let .trusted(peer) = decider.decideOffline(chain, role: .server(host: Self.host)) else {
            return XCTFail("a chain to the caller's anchor was refused")
        }
        // The caller's root is no system root: trustd does not require CT under it, and says why.
        let report = try XCTUnwrap(peer.evaluation?.certificateTransparency, "the acceptance rests on an evaluation without CT")
        XCTAssertEqual(report.exemption, .anchorNotSystemRoot)
    }
}
