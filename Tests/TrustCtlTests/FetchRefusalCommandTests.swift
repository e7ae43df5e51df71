import Foundation
import OpenSSLServerSupport
import XCTest

/// Issue 40 item 3 for servers' chains: `trustctl verify` and `probe` say why a revocation status
/// is unknown (a CRL fetch refused as a loopback destination), in text and JSON, and
/// `--fetch-local-addresses` lets the fetch through (then the revoked leaf is refused).
final class FetchRefusalCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private static let host = TestCertificatesDirectory.host
    private var directory: URL!
    private var fixture: LoopbackCRLFixture?
    private var server: OpenSSLServer?

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-fetch-refusal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fixture = try LoopbackCRLFixture(in: directory, client: false)
    }

    override func tearDownWithError() throws {
        server?.stop()
        fixture?.responder.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private var refusal: String { "fetch refused: 127.0.0.1 is a loopback address" }

    /// The first fetch failure of chain certificate 0 in a `--json` report's `chain` (verify) or
    /// `revocation` (probe) array.
    private func firstFetchFailure(_ json: String, key: String) throws -> [String: Any] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        let entries = try XCTUnwrap(object[key] as? [[String: Any]], json)
        let failures = try XCTUnwrap(entries.first?["fetchFailures"] as? [[String: Any]], json)
        return try XCTUnwrap(failures.first, json)
    }

    func testVerifySaysWhyTheStatusIsUnknown() throws {
        let fixture = try XCTUnwrap(fixture)
        let base = [
            "verify", fixture.leaf, "--intermediates", Self.path("ecdsa/intermediate.pem"), "--anchors", Self.path("ecdsa/root.pem"),
            "--host", Self.host, "--revocation", "crl",
        ]
        let soft = try trustctl(base)
        XCTAssertEqual(soft.status, 0, soft.stdoutText + soft.stderrText)
        XCTAssertTrue(soft.stdoutText.contains("revocation: unknown: CRL \(fixture.url) not fetched: \(refusal)"), soft.stdoutText)

        let json = try trustctl(base + ["--json"])
        let failure = try firstFetchFailure(json.stdoutText, key: "chain")
        XCTAssertEqual(failure["url"] as? String, fixture.url)
        XCTAssertEqual(failure["reason"] as? String, refusal)
        XCTAssertEqual(fixture.responder.accepted, 0)

        let allowed = try trustctl(base + ["--fetch-local-addresses"])
        XCTAssertEqual(allowed.status, 1, allowed.stdoutText + allowed.stderrText)
        XCTAssertTrue(allowed.stdoutText.contains("revoked"), allowed.stdoutText)
    }

    func testProbeSaysWhyTheStatusIsUnknownAndTakesFetchLocalAddresses() throws {
        let fixture = try XCTUnwrap(fixture)
        let server: OpenSSLServer
        do {
            server = try OpenSSLServer(certificate: fixture.leaf, key: fixture.key, chain: [Self.path("ecdsa/intermediate.pem")])
        } catch OpenSSLServer.StartError.opensslMissing {
            throw XCTSkip("openssl is not installed")
        }
        self.server = server
        let base = [
            "probe", "127.0.0.1:\(server.port)", "--host", Self.host, "--sni", Self.host, "--anchors", Self.path("ecdsa/root.pem"),
            "--revocation", "crl", "--connect-timeout", "5",
        ]
        let soft = try trustctl(base, environment: ["NO_COLOR": "1"])
        XCTAssertEqual(soft.status, 0, soft.stdoutText + soft.stderrText)
        XCTAssertTrue(soft.stdoutText.contains("CRL \(fixture.url) not fetched: \(refusal)"), soft.stdoutText)

        let json = try trustctl(base + ["--json"])
        XCTAssertEqual(try firstFetchFailure(json.stdoutText, key: "revocation")["reason"] as? String, refusal)
        XCTAssertEqual(fixture.responder.accepted, 0)

        let allowed = try trustctl(base + ["--fetch-local-addresses"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(allowed.status, 1, allowed.stdoutText + allowed.stderrText)
        XCTAssertTrue(allowed.stdoutText.contains("revoked"), allowed.stdoutText)
    }
}
