import Foundation
import OpenSSLServerSupport
import XCTest

/// `trustctl probe` against `openssl s_server` on 127.0.0.1: verdicts, exit statuses, output.
final class ProbeCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private static let verifyDate = TestCertificatesDirectory.verifyDate
    private static let host = TestCertificatesDirectory.host

    private var servers: [OpenSSLServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    /// An s_server presenting `leaf` (its key under keys/) and `chain`.
    private func server(_ leaf: String, chain: [String] = ["ecdsa/intermediate.pem"]) throws -> OpenSSLServer {
        let key = Self.path("keys/" + leaf.replacingOccurrences(of: ".pem", with: ".key.pem"))
        let server: OpenSSLServer
        do { server = try OpenSSLServer(certificate: Self.path(leaf), key: key, chain: chain.map(Self.path)) } catch OpenSSLServer.StartError
            .opensslMissing
        {
            throw XCTSkip("openssl is not installed")
        }
        servers.append(server)
        return server
    }

    /// Probes 127.0.0.1:`port` for the test host under the test root at the pinned date.
    private func probe(_ port: Int, _ extra: [String] = [], anchors: String = "ecdsa/root.pem") throws -> TrustCtlResult {
        try trustctl(
            [
                "probe", "127.0.0.1:\(port)", "--host", Self.host, "--sni", Self.host, "--anchors", Self.path(anchors),
                "--at", Self.verifyDate, "--connect-timeout", "5",
            ] + extra, environment: ["NO_COLOR": "1"])
    }

    func testGoodChainIsAcceptedWithProtocolCipherChainAndVerdict() throws {
        let result = try probe(try server("ecdsa/leaf.pem").port)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let text = result.stdoutText
        XCTAssertTrue(text.contains("Protocol: TLS 1.3"), text)
        // openssl s_server's default TLS 1.3 suite: the first one both sides offer.
        XCTAssertTrue(text.contains("Cipher suite: TLS_AES_"), text)
        XCTAssertTrue(text.contains("Presented certificates (2, in the order received)"), text)
        XCTAssertTrue(text.contains("Verdict: accepted for \(Self.host)"), text)
    }

    func testRejectionsExitOneWithTheReason() throws {
        let good = try server("ecdsa/leaf.pem").port
        let wrongHost = try trustctl(
            [
                "probe", "127.0.0.1:\(good)", "--host", "api.swifttrust.test", "--anchors", Self.path("ecdsa/root.pem"),
                "--at", Self.verifyDate,
            ], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(wrongHost.status, 1, wrongHost.stderrText)
        XCTAssertTrue(wrongHost.stdoutText.contains("host api.swifttrust.test not in SAN"), wrongHost.stdoutText)

        let untrusted = try probe(good, anchors: "rsa/root.pem")
        XCTAssertEqual(untrusted.status, 1)
        XCTAssertTrue(untrusted.stdoutText.contains("Verdict: rejected for \(Self.host)"), untrusted.stdoutText)

        let expired = try probe(try server("ecdsa/leaf-expired.pem").port)
        XCTAssertEqual(expired.status, 1)
        XCTAssertTrue(expired.stdoutText.contains("expired"), expired.stdoutText)
    }

    func testPinningPoliciesJudgeTheLiveChain() throws {
        let port = try server("ecdsa/leaf.pem").port
        let pinned = try probe(port, ["--policy", "pinned-certificates", "--pin", Self.path("ecdsa/intermediate.pem")])
        XCTAssertEqual(pinned.status, 0, pinned.stdoutText + pinned.stderrText)
        let unpinned = try probe(port, ["--policy", "public-keys", "--pin", Self.path("rsa/leaf.pem")])
        XCTAssertEqual(unpinned.status, 1)
        XCTAssertTrue(unpinned.stdoutText.contains("public-key pinning failed"), unpinned.stdoutText)

        let selfSigned = try server("ecdsa/self-signed-leaf.pem", chain: []).port
        let accepted = try probe(
            selfSigned,
            [
                "--policy", "pinned-certificates", "--pin", Self.path("ecdsa/self-signed-leaf.pem"),
                "--accept-self-signed",
            ])
        XCTAssertEqual(accepted.status, 0, accepted.stdoutText)
    }

    func testJSONAndSavedChain() throws {
        let port = try server("ecdsa/leaf.pem").port
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: saved) }
        let result = try probe(port, ["--json", "--save-chain", saved.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        XCTAssertEqual(json["accepted"] as? Bool, true)
        XCTAssertEqual(json["tlsVersion"] as? String, "TLS 1.3")
        XCTAssertEqual(json["port"] as? Int, port)
        XCTAssertEqual(json["serverName"] as? String, Self.host)
        // The saved chain is exactly what the server presented: leaf and intermediate, in order.
        let expected =
            try String(contentsOfFile: Self.path("ecdsa/leaf.pem"), encoding: .utf8)
            + String(contentsOfFile: Self.path("ecdsa/intermediate.pem"), encoding: .utf8)
        XCTAssertEqual(try String(contentsOf: saved, encoding: .utf8).filter { !$0.isWhitespace }, expected.filter { !$0.isWhitespace })
    }

    func testConnectionFailuresAndUsageErrorsExitTwo() throws {
        // A port nobody listens on: bind one, note it, close it.
        let refused = try trustctl(["probe", "127.0.0.1:\(try closedPort())", "--connect-timeout", "5"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderrText.contains("cannot connect"), refused.stderrText)

        for arguments in [
            ["probe", "ftp://example.test/"], ["probe", "host:99999"], ["probe", "[::1"],
            ["probe", "h.test", "--purpose", "client"], ["probe", "h.test", "--connect-timeout", "0"],
        ] {
            let result = try trustctl(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdoutText)")
        }
    }

    func testNotTLSExitsTwo() throws {
        // A loopback TCP server that answers with plain text and closes.
        let listener = try PlainTextListener()
        defer { listener.stop() }
        let result = try trustctl(["probe", "127.0.0.1:\(listener.port)", "--connect-timeout", "5"])
        XCTAssertEqual(result.status, 2, result.stdoutText)
        XCTAssertTrue(result.stderrText.contains("TLS handshake"), result.stderrText)
    }

    /// A loopback port that was free a moment ago.
    private func closedPort() throws -> Int {
        let listener = try PlainTextListener()
        let port = listener.port
        listener.stop()
        return port
    }
}

/// A TCP listener on 127.0.0.1 that writes a line of plain text to each connection and closes it.
private final class PlainTextListener {
    let port: Int
    private let socket: Int32
    private let thread: Thread

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EBADF) }
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        thread = Thread {
            while true {
                let client = accept(socket, nil, nil)
                if client < 0 { return }
                let reply = "HTTP/1.0 400 not TLS\r\n\r\n"
                _ = reply.withCString { write(client, $0, strlen($0)) }
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
