import Foundation
import XCTest

/// Issue 41 item 1 from the command line: `trustctl verify --expect-…` checks the verified leaf's
/// names (the committed ECDSA leaf: `DNS:www.swifttrust.test`, `O=SwiftTrust`), under the plain
/// evaluation and under a `--policy` evaluator; a leaf that is not verified is never "allowed".
final class ExpectedIdentityCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }

    private func verify(_ extra: [String], anchors: String = "ecdsa/root.pem") throws -> TrustCtlResult {
        try trustctl(
            [
                "verify", Self.path("ecdsa/leaf.pem"), "--intermediates", Self.path("ecdsa/intermediate.pem"),
                "--anchors", Self.path(anchors), "--at", TestCertificatesDirectory.verifyDate,
            ] + extra,
            environment: ["NO_COLOR": "1"])
    }

    func testAMatchingRuleIsTrustedAndANonMatchingOneIsNot() throws {
        for rule in [
            ["--expect-dns", "www.swifttrust.test"], ["--expect-dns", "*.swifttrust.test"], ["--expect-subject", "O=SwiftTrust"],
            ["--expect-dns", "other.test", "--expect-subject", "CN=www.swifttrust.test"],
        ] {
            let result = try verify(rule)
            XCTAssertEqual(result.status, 0, "\(rule): \(result.stdoutText)")
            XCTAssertTrue(result.stdoutText.contains("identity: allowed by"), "\(rule): \(result.stdoutText)")
        }
        for (rule, named) in [
            (["--expect-dns", "swifttrust.test"], "dns swifttrust.test"),
            (["--expect-dns", "*.www.swifttrust.test"], "dns *.www.swifttrust.test"),
            (["--expect-spiffe", "spiffe://swifttrust.test"], "spiffe spiffe://swifttrust.test"),
            (["--expect-subject", "O=swifttrust"], "subject O=swifttrust"),
            (["--expect-ip", "127.0.0.1"], "ip 127.0.0.1"),
        ] {
            let result = try verify(rule)
            XCTAssertEqual(result.status, 1, "\(rule): \(result.stdoutText)")
            XCTAssertTrue(result.stdoutText.contains("not trusted: identity refused: it fails \(named)"), "\(rule): \(result.stdoutText)")
        }
    }

    func testTheJSONReportNamesTheFailedRule() throws {
        let result = try verify(["--expect-uri", "https://www.swifttrust.test/", "--json"])
        XCTAssertEqual(result.status, 1, result.stdoutText)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        XCTAssertEqual(object["trusted"] as? Bool, false)
        let identity = try XCTUnwrap(object["identity"] as? [String: Any])
        XCTAssertEqual(identity["allowed"] as? Bool, false)
        XCTAssertEqual(identity["failedRule"] as? String, "uri https://www.swifttrust.test/")
    }

    func testAnUntrustedChainIsNotAllowedWhateverItsNames() throws {
        // The RSA root did not issue the ECDSA chain: the names match, the identity is not verified.
        let result = try verify(["--expect-dns", "www.swifttrust.test", "--json"], anchors: "rsa/root.pem")
        XCTAssertEqual(result.status, 1, result.stdoutText)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        let identity = try XCTUnwrap(object["identity"] as? [String: Any])
        XCTAssertEqual(identity["allowed"] as? Bool, false)
        XCTAssertNil(identity["failedRule"] as? String)
    }

    func testAPolicyEvaluatorsAcceptanceStillNeedsTheIdentity() throws {
        let pinned = ["--policy", "pinned-certificates", "--pin", Self.path("ecdsa/intermediate.pem"), "--host", TestCertificatesDirectory.host]
        XCTAssertEqual(try verify(pinned + ["--expect-dns", "www.swifttrust.test"]).status, 0)
        let refused = try verify(pinned + ["--expect-dns", "api.swifttrust.test"])
        XCTAssertEqual(refused.status, 1, refused.stdoutText)
        XCTAssertTrue(refused.stdoutText.contains("identity: refused: it fails dns api.swifttrust.test"), refused.stdoutText)
        let disabled = try verify(["--policy", "disabled", "--expect-dns", "www.swifttrust.test"])
        XCTAssertEqual(disabled.status, 2, disabled.stdoutText)
    }
}
