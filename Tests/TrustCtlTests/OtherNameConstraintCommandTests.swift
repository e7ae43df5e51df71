import Foundation
import TrustTestSupport
import XCTest

/// Issue 43, item 1, through trustctl: an anchor whose nameConstraints otherName lacks its
/// `[0] EXPLICIT` wrapper (``OtherNameConstraintFixtures``) is read, trusted as Apple trusts it, and
/// reported as an encoding finding by `chain` and `inspect`.
final class OtherNameConstraintCommandTests: XCTestCase {
    private static func path(_ name: String) -> String { OtherNameConstraintFixtures.path(name) }

    private func run(_ command: String, _ extra: [String] = []) throws -> TrustCtlResult {
        try trustctl(
            [
                command, Self.path("leaf.pem"), "--anchors", Self.path("root.pem"), "--host", TestCertificatesDirectory.host,
                "--at", TestCertificatesDirectory.verifyDate,
            ] + extra, environment: ["NO_COLOR": "1"])
    }

    func testChainTrustsTheAnchorAndShowsTheFinding() throws {
        let text = try run("chain")
        XCTAssertEqual(text.status, 0, text.stdoutText + text.stderrText)
        XCTAssertTrue(text.stdoutText.contains("nameConstraints otherName whose value lacks its [0] EXPLICIT wrapper"), text.stdoutText)

        let json = try run("chain", ["--json"])
        XCTAssertEqual(json.status, 0, json.stderrText)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
        let finding = try XCTUnwrap(findings.first { $0["code"] as? String == "othername-constraint-unwrapped" }, "\(findings)")
        XCTAssertEqual(finding["severity"] as? String, "warning")
        XCTAssertEqual(finding["certificateIndex"] as? Int, 1)
    }

    func testVerifyTrustsItAndInspectListsTheFinding() throws {
        let verify = try run("verify")
        XCTAssertEqual(verify.status, 0, verify.stdoutText + verify.stderrText)
        let inspect = try trustctl(["inspect", Self.path("root.pem")], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(inspect.status, 0, inspect.stderrText)
        XCTAssertTrue(inspect.stdoutText.contains("nameConstraints otherName value without its [0] EXPLICIT wrapper"), inspect.stdoutText)
    }
}
