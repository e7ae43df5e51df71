import Foundation
import TrustTestSupport
import XCTest

/// `trustctl verify --ct-logs / --trusted-ct-logs / --sct` (issue 43 item 6), on the fixtures of
/// scripts/generate-ct-fixtures, with the CT test CA as the system store (SSL_CERT_FILE).
final class CertificateTransparencyCommandTests: XCTestCase {
    private static let fixtures = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures")
    private static func path(_ relative: String) -> String { fixtures.appendingPathComponent(relative).path }
    /// The 2026 leaves are valid and the list (2026-01-20) is fresh.
    private static let at = "2026-02-01T00:00:00Z"

    private func verify(_ leaf: String, _ extra: [String]) throws -> TrustCtlResult {
        try trustctl(
            ["verify", Self.path("leaves/\(leaf).pem"), "--host", "\(leaf).example.test", "--at", Self.at] + extra,
            environment: ["NO_COLOR": "1", "SSL_CERT_FILE": Self.path("ca.pem")])
    }

    private func json(_ result: TrustCtlResult) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any], result.stdoutText + result.stderrText)
    }

    func testALeafWithoutSCTsUnderASystemRootIsNotTrustedAndTheJSONSaysWhy() throws {
        let result = try verify("plain", ["--ct-logs", Self.path("log-list.json"), "--json"])
        XCTAssertEqual(result.status, 1, result.stdoutText + result.stderrText)
        let report = try json(result)
        XCTAssertEqual(report["trusted"] as? Bool, false)
        let ct = try XCTUnwrap(report["certificateTransparency"] as? [String: Any], "\(report)")
        XCTAssertEqual(ct["qualified"] as? Bool, false)
        XCTAssertEqual(ct["required"] as? Bool, true)
        XCTAssertEqual(ct["currentLogs"] as? Int, 0)
        XCTAssertEqual(ct["requiredEmbeddedLogs"] as? Int, 2)
        let failures = try XCTUnwrap(report["failures"] as? [[String: Any]])
        let reason = try XCTUnwrap(failures.first?["reason"] as? String)
        XCTAssertTrue(reason.contains("SecPolicyCheckSystemTrustedCTRequired"), reason)
        XCTAssertTrue(reason.contains("SCTs from 0 current logs"), reason)
        XCTAssertEqual(failures.first?["severity"] as? String, "recoverable")
    }

    func testDeliveredSCTsFromAFileQualifyTheSameLeaf() throws {
        let result = try verify("plain", ["--ct-logs", Self.path("log-list.json"), "--sct", Self.path("tls/plain.bin"), "--json"])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        let ct = try XCTUnwrap(try json(result)["certificateTransparency"] as? [String: Any])
        XCTAssertEqual(ct["qualified"] as? Bool, true)
        XCTAssertEqual(ct["qualifyingRule"] as? String, "delivered")
        let timestamps = try XCTUnwrap(ct["timestamps"] as? [[String: Any]])
        XCTAssertEqual(timestamps.compactMap { $0["source"] as? String }, ["TLS extension", "TLS extension"])
    }

    func testTextOutputListsEachSCTAndThePropertyListFormReads() throws {
        let result = try verify("main", ["--trusted-ct-logs", Self.path("log-list.json")])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("Certificate Transparency: CT-qualified: embedded SCTs from enough logs"), result.stdoutText)
        XCTAssertEqual(result.stdoutText.components(separatedBy: "\n").filter { $0.hasPrefix("  SCT ") }.count, 6, result.stdoutText)
        // The property-list form (trustd's tests' SecTrustSetTrustedLogs input) has no date: caller-set.
        let plist = try verify("plain", ["--trusted-ct-logs", Self.path("log-list.plist")])
        XCTAssertEqual(plist.status, 1, plist.stdoutText + plist.stderrText)
        XCTAssertTrue(plist.stdoutText.contains("(required)"), plist.stdoutText)
    }

    func testMisusedFlagsAndBrokenFilesAreUsageErrors() throws {
        let both = try verify("plain", ["--ct-logs", Self.path("log-list.json"), "--trusted-ct-logs", Self.path("log-list.json")])
        XCTAssertEqual(both.status, 2, both.stderrText)
        let sctAlone = try verify("plain", ["--sct", Self.path("tls/plain.bin")])
        XCTAssertEqual(sctAlone.status, 2, sctAlone.stderrText)
        XCTAssertTrue(sctAlone.stderrText.contains("--sct needs the logs"), sctAlone.stderrText)
        let notAList = try verify("plain", ["--ct-logs", Self.path("ca.pem")])
        XCTAssertEqual(notAList.status, 2, notAList.stderrText)
        XCTAssertTrue(notAList.stderrText.contains("ca.pem"), notAList.stderrText)
        let notSCTs = try verify("plain", ["--ct-logs", Self.path("log-list.json"), "--sct", Self.path("ca.pem")])
        XCTAssertEqual(notSCTs.status, 2, notSCTs.stderrText)
        XCTAssertTrue(notSCTs.stderrText.contains("not a SignedCertificateTimestampList"), notSCTs.stderrText)
    }

    /// CT logs are enforced by the evaluation only: `--policy disabled` (or a pinning policy that
    /// evaluates nothing) beside a log list is refused when configured, naming the flag, instead of
    /// accepting a chain the list would reject (`plain` has no SCTs and is refused with the list).
    func testAPolicyThatSkipsEvaluationIsRefusedBesideALogList() throws {
        for flag in ["--ct-logs", "--trusted-ct-logs"] {
            let disabled = try verify("plain", [flag, Self.path("log-list.json"), "--policy", "disabled"])
            XCTAssertEqual(disabled.status, 2, disabled.stdoutText + disabled.stderrText)
            XCTAssertTrue(
                disabled.stderrText.contains("--policy disabled accepts without evaluating the chain, so it cannot enforce \(flag)"),
                disabled.stderrText)
        }
        XCTAssertEqual(try verify("plain", ["--policy", "disabled"]).status, 0, "without a list --policy disabled accepts, as before")
    }

    func testChainListsTheEmbeddedSCTsAndTheirFate() throws {
        let result = try trustctl(
            [
                "chain", Self.path("leaves/main.pem"), "--host", "main.example.test", "--at", Self.at,
                "--trusted-ct-logs", Self.path("log-list.json"),
            ],
            environment: ["NO_COLOR": "1", "SSL_CERT_FILE": Self.path("ca.pem")])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        let sctLines = result.stdoutText.components(separatedBy: "\n").filter { $0.contains("SCT:") }
        XCTAssertEqual(sctLines.count, 6, result.stdoutText)
        XCTAssertEqual(sctLines.filter { $0.hasSuffix(", counted") }.count, 5, result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("Certificate Transparency: CT-qualified"), result.stdoutText)
    }
}
