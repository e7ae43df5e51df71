import Foundation
import OpenSSLServerSupport
import XCTest

/// `trustctl chain` and `verify` with `--fetch-issuers` (issue 34 item 5): a leaf whose server left
/// out the intermediate, made now by openssl with a caIssuers URL on a loopback responder that
/// serves the intermediate.
final class FetchIssuersCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private var directory: URL!
    private var responder: LoopbackResponder?

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-fetch-issuers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        responder?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A leaf for the test host issued by the committed ECDSA intermediate, naming `url` as caIssuers.
    private func leaf(caIssuers url: String) throws -> String {
        let config = directory.appendingPathComponent("leaf.cnf").path
        let lines = [
            "[req]", "distinguished_name = dn", "prompt = no", "[dn]", "CN = \(TestCertificatesDirectory.host)", "[ext]",
            "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = serverAuth",
            "subjectAltName = DNS:\(TestCertificatesDirectory.host)", "authorityKeyIdentifier = keyid",
            "authorityInfoAccess = caIssuers;URI:\(url)",
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        let request = directory.appendingPathComponent("leaf.csr").path
        let output = directory.appendingPathComponent("leaf.pem").path
        try OpenSSLCommand.run(["req", "-new", "-key", Self.path("keys/ecdsa/leaf.key.pem"), "-config", config, "-out", request])
        try OpenSSLCommand.run([
            "x509", "-req", "-in", request, "-CA", Self.path("ecdsa/intermediate.pem"),
            "-CAkey", Self.path("keys/ecdsa/intermediate.key.pem"), "-set_serial", "42", "-days", "30",
            "-extfile", config, "-extensions", "ext", "-out", output,
        ])
        return output
    }

    private func serveIntermediate() throws -> Int {
        let der = directory.appendingPathComponent("intermediate.der").path
        try OpenSSLCommand.run(["x509", "-in", Self.path("ecdsa/intermediate.pem"), "-outform", "DER", "-out", der])
        let responder = try LoopbackResponder(.answers(body: Array(try Data(contentsOf: URL(fileURLWithPath: der)))))
        self.responder = responder
        return responder.port
    }

    func testTheMissingIntermediateIsFetchedAndShownAsFetched() throws {
        let url = "http://127.0.0.1:\(try serveIntermediate())/intermediate.der"
        let leaf = try leaf(caIssuers: url)
        let base = [leaf, "--anchors", Self.path("ecdsa/root.pem"), "--host", TestCertificatesDirectory.host]
        let chain = try trustctl(["chain"] + base + ["--fetch-issuers", "--fetch-local-addresses"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(chain.status, 0, chain.stdoutText + chain.stderrText)
        XCTAssertTrue(chain.stdoutText.contains("fetched from \(url)"), chain.stdoutText)
        let verify = try trustctl(["verify"] + base + ["--fetch-issuers", "--fetch-local-addresses"])
        XCTAssertEqual(verify.status, 0, verify.stdoutText + verify.stderrText)

        // Without the flag nothing is fetched; without the local allowance the loopback URL is refused.
        XCTAssertEqual(try trustctl(["verify"] + base).status, 1)
        XCTAssertEqual(try trustctl(["verify"] + base + ["--fetch-issuers"]).status, 1)
    }

    /// Issue 40 item 7: `probe` fetches a missing intermediate only with --fetch-issuers, as
    /// `verify` and `chain` do, and --fetch-local-addresses lets it reach the loopback responder.
    func testProbeFetchesTheMissingIntermediateOnlyWhenAsked() throws {
        let url = "http://127.0.0.1:\(try serveIntermediate())/intermediate.der"
        let server: OpenSSLServer
        do {
            server = try OpenSSLServer(certificate: try leaf(caIssuers: url), key: Self.path("keys/ecdsa/leaf.key.pem"), chain: [])
        } catch OpenSSLServer.StartError.opensslMissing {
            throw XCTSkip("openssl is not installed")
        }
        defer { server.stop() }
        let base = [
            "probe", "127.0.0.1:\(server.port)", "--host", TestCertificatesDirectory.host, "--sni", TestCertificatesDirectory.host,
            "--anchors", Self.path("ecdsa/root.pem"), "--connect-timeout", "5",
        ]
        let plain = try trustctl(base + ["--fetch-local-addresses"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(plain.status, 1, plain.stdoutText + plain.stderrText)
        XCTAssertEqual(responder?.accepted, 0, "nothing is fetched without --fetch-issuers")
        let fetching = try trustctl(base + ["--fetch-issuers", "--fetch-local-addresses"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(fetching.status, 0, fetching.stdoutText + fetching.stderrText)
        XCTAssertTrue(fetching.stdoutText.contains("fetched from \(url)"), fetching.stdoutText)
    }
}
