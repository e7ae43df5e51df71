import Foundation
import XCTest

/// Issue 43 items 3–5 through `trustctl verify`: verify dates past 9999 (`--at`), a required key
/// usage (`--key-usage`) and Apple's SPKI pin options (`--leaf-spki-sha256`, `--ca-spki-sha256`),
/// on the certificates of scripts/generate-policy-option-certificates.
final class PolicyOptionsCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private static let host = TestCertificatesDirectory.host

    private func verify(_ arguments: [String]) throws -> TrustCtlResult {
        try trustctl(["verify"] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// The failures of a `--json` report: subject and reason text.
    private func failures(_ result: TrustCtlResult) throws -> [(subject: String?, reason: String)] {
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any], result.stdoutText)
        let failures = try XCTUnwrap(report["failures"] as? [[String: Any]], "\(report)")
        return failures.map { ($0["subject"] as? String, $0["reason"] as? String ?? "") }
    }

    // MARK: - --at past 9999

    func testAVerifyDatePast9999InExpandedOrEpochForm() throws {
        let chain = [Self.path("policy-options/far-future-leaf.pem"), "--anchors", Self.path("policy-options/far-future-root.pem"),
                     "--profile", "rfc5280"]
        let within = try verify(chain + ["--at", "+9999-10-01T00:00:00Z"])
        XCTAssertEqual(within.status, 0, within.stdoutText + within.stderrText)
        for at in ["+10000-01-02T00:00:00Z", "@253402387200"] {
            let after = try verify(chain + ["--at", at, "--json"])
            XCTAssertEqual(after.status, 1, after.stdoutText + after.stderrText)
            let failures = try self.failures(after)
            XCTAssertEqual(failures.first?.subject, "O=SwiftTrust,CN=www.swifttrust.test", "\(failures)")
            XCTAssertEqual(failures.first?.reason, "expired 9999-12-31T23:59:59Z", "\(failures)")
        }
    }

    func testAFiveDigitYearWithoutItsSignIsAUsageError() throws {
        let result = try verify([Self.path("ecdsa/chain.pem"), "--at", "10000-01-02T00:00:00Z"])
        XCTAssertEqual(result.status, 2, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("--at 10000-01-02T00:00:00Z is not a date"), result.stderrText)
    }
}
