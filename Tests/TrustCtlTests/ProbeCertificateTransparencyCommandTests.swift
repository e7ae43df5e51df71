import Foundation
import OpenSSLServerSupport
import TrustTestSupport
import XCTest

/// `trustctl probe --ct-logs / --trusted-ct-logs` against `openssl s_server` on 127.0.0.1, serving
/// the leaves of scripts/generate-ct-fixtures (their committed key): the logs reach the handshake's
/// verification as they reach `verify`'s evaluation, and the report shows the Certificate
/// Transparency result. The CT test CA is the system store (SSL_CERT_FILE) unless a test says
/// otherwise.
final class ProbeCertificateTransparencyCommandTests: XCTestCase {
    private static let fixtures = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures")
    private static func path(_ relative: String) -> String { fixtures.appendingPathComponent(relative).path }
    /// The 2026 leaves are valid and the list (2026-01-20) is fresh.
    private static let at = "2026-02-01T00:00:00Z"

    private var server: OpenSSLServer?

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// An s_server presenting leaves/`leaf`.pem, issued directly by the CT test CA.
    private func serve(_ leaf: String) throws -> Int {
        do {
            let started = try OpenSSLServer(certificate: Self.path("leaves/\(leaf).pem"), key: Self.path("keys/leaf.key.pem"), chain: [])
            server = started
            return started.port
        } catch OpenSSLServer.StartError.opensslMissing {
            throw XCTSkip("openssl is not installed")
        }
    }

    /// Probes a server presenting `leaf`, with `systemStore` as the system trust store.
    private func probe(_ leaf: String, _ extra: [String], systemStore: String = path("ca.pem")) throws -> TrustCtlResult {
        let host = "\(leaf).example.test"
        return try trustctl(
            ["probe", "127.0.0.1:\(try serve(leaf))", "--host", host, "--sni", host, "--at", Self.at, "--connect-timeout", "5", "--json"]
                + extra, environment: ["NO_COLOR": "1", "SSL_CERT_FILE": systemStore])
    }

    private func json(_ result: TrustCtlResult) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any], result.stdoutText + result.stderrText)
    }

    func testASystemTrustedServerWithoutSCTsIsRefusedInTheHandshake() throws {
        let result = try probe("plain", ["--ct-logs", Self.path("log-list.json")])
        XCTAssertEqual(result.status, 1, result.stdoutText + result.stderrText)
        let report = try json(result)
        XCTAssertEqual(report["accepted"] as? Bool, false)
        let failures = try XCTUnwrap(report["failures"] as? [[String: Any]], "\(report)")
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue((failures.first?["reason"] as? String)?.contains("SecPolicyCheckSystemTrustedCTRequired") == true, "\(failures)")
        let ct = try XCTUnwrap(report["certificateTransparency"] as? [String: Any], "\(report)")
        XCTAssertEqual(ct["required"] as? Bool, true)
        XCTAssertEqual(ct["qualified"] as? Bool, false)
        server?.stop()

        // Without the logs the same server is accepted, and the report has no CT part.
        let plain = try probe("plain", [])
        XCTAssertEqual(plain.status, 0, plain.stdoutText + plain.stderrText)
        XCTAssertNil(try json(plain)["certificateTransparency"])
    }

    func testEmbeddedSCTsQualifyTheServedLeafAndTheTextListsThem() throws {
        let result = try probe("main", ["--ct-logs", Self.path("log-list.json")])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        let ct = try XCTUnwrap(try json(result)["certificateTransparency"] as? [String: Any], result.stdoutText)
        XCTAssertEqual(ct["required"] as? Bool, true)
        XCTAssertEqual(ct["qualified"] as? Bool, true)
        XCTAssertEqual(ct["qualifyingRule"] as? String, "embedded")
        server?.stop()

        let text = try trustctl(
            [
                "probe", "127.0.0.1:\(try serve("main"))", "--host", "main.example.test", "--at", Self.at, "--connect-timeout", "5",
                "--ct-logs", Self.path("log-list.json"),
            ], environment: ["NO_COLOR": "1", "SSL_CERT_FILE": Self.path("ca.pem")])
        XCTAssertEqual(text.status, 0, text.stdoutText + text.stderrText)
        XCTAssertTrue(text.stdoutText.contains("Certificate Transparency: CT-qualified: embedded SCTs from enough logs"), text.stdoutText)
        XCTAssertEqual(text.stdoutText.components(separatedBy: "\n").filter { $0.hasPrefix("  SCT ") }.count, 6, text.stdoutText)
    }

    func testAnAnchorOutsideTheSystemStoreIsNotHeldToCTAndTheReportSaysWhy() throws {
        // The CT CA is the caller's anchor only; the system store holds another root. (A caller's
        // anchor that is also a system root is a system root, as in trustd.)
        let result = try probe(
            "plain", ["--ct-logs", Self.path("log-list.json"), "--anchors", Self.path("ca.pem")],
            systemStore: TestCertificates.directory.appendingPathComponent("ecdsa/root.pem").path)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        let ct = try XCTUnwrap(try json(result)["certificateTransparency"] as? [String: Any], result.stdoutText)
        XCTAssertEqual(ct["required"] as? Bool, false)
        XCTAssertNotNil(ct["notRequiredBecause"] as? String, "\(ct)")
    }

    func testAPolicyThatSkipsEvaluationCannotTakeTheLogs() throws {
        let result = try trustctl(["probe", "127.0.0.1:1", "--policy", "disabled", "--trusted-ct-logs", Self.path("log-list.json")])
        XCTAssertEqual(result.status, 2, result.stdoutText)
        XCTAssertTrue(result.stderrText.contains("--trusted-ct-logs"), result.stderrText)
    }
}
