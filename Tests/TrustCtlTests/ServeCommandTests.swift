import Foundation
import OpenSSLServerSupport
import Synchronization
import XCTest

/// `trustctl serve` (issue 34 item 6) against `openssl s_client` on 127.0.0.1: each client's verdict,
/// resumed sessions re-verified (item 1 from the command line), exit statuses.
final class ServeCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private static let verifyDate = TestCertificatesDirectory.verifyDate
    private var directory: URL!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A running `trustctl serve`, its output collected as it comes.
    final class Server: Sendable {
        let process: Process
        private let output = Mutex(Data())
        private let finished = DispatchSemaphore(value: 0)

        init(_ executable: URL, _ arguments: [String]) throws {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            self.process = process
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    output.withLock { $0.append(chunk) }
                }
                finished.signal()
            }
        }

        var text: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

        /// The port of the "Listening on ADDRESS:PORT" line, within 10 seconds.
        func port() throws -> Int {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Listening on ") }),
                    let port = line.split(separator: ":").last.flatMap({ Int($0) })
                {
                    return port
                }
                if !process.isRunning { break }
                usleep(20_000)
            }
            throw XCTSkip("trustctl serve did not start listening: \(text)")
        }

        /// Waits for the process to exit (killing it after 20 seconds); its status.
        func wait() -> Int32 {
            if finished.wait(timeout: .now() + 20) == .timedOut { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    private func serve(_ extra: [String]) throws -> Server {
        try Server(
            try trustctlURL,
            [
                "serve", "--cert", Self.path("ecdsa/leaf.pem"), "--chain", Self.path("ecdsa/intermediate.pem"),
                "--key", Self.path("keys/ecdsa/leaf.key.pem"), "--port", "0", "--at", Self.verifyDate,
            ] + extra)
    }

    /// `openssl s_client` to 127.0.0.1:`port`, presenting `certificate` (with the intermediate) when given.
    private func sClient(_ port: Int, version: String = "-tls1_3", certificate: String? = nil, session: (file: String, resume: Bool)? = nil) throws
        -> String
    {
        var arguments = ["s_client", "-connect", "127.0.0.1:\(port)", version, "-ign_eof"]
        if let certificate {
            arguments += [
                "-cert", Self.path(certificate), "-cert_chain", Self.path("ecdsa/intermediate.pem"),
                "-key", Self.path("keys/" + certificate.replacingOccurrences(of: ".pem", with: ".key.pem")),
            ]
        }
        if let session { arguments += [session.resume ? "-sess_in" : "-sess_out", directory.appendingPathComponent(session.file).path] }
        return try OpenSSLCommand.output(of: arguments)
    }

    func testEachClientsVerdictIsPrintedAndAResumedSessionIsReverified() throws {
        let server = try serve(["--require-client-cert", "--anchors", Self.path("ecdsa/root.pem"), "--count", "3"])
        let port = try server.port()
        let first = try sClient(port, version: "-tls1_2", certificate: "ecdsa/leaf-client.pem", session: ("s.pem", false))
        XCTAssertTrue(first.contains("SwiftTrust serve: accepted CN=SwiftTrust Test Client"), first)
        let resumed = try sClient(port, version: "-tls1_2", session: ("s.pem", true))
        XCTAssertTrue(resumed.contains("Reused, TLSv1.2"), resumed)
        XCTAssertTrue(resumed.contains("SwiftTrust serve: accepted"), resumed)
        // A server certificate offered as a client certificate: no clientAuth EKU.
        _ = try sClient(port, certificate: "ecdsa/leaf.pem")
        XCTAssertEqual(server.wait(), 1, "a client was rejected: \(server.text)")

        let text = server.text
        XCTAssertEqual(text.components(separatedBy: "Verdict: client accepted: CN=SwiftTrust Test Client,O=SwiftTrust").count - 1, 2, text)
        XCTAssertTrue(text.contains("Session: resumed"), text)
        XCTAssertEqual(text.components(separatedBy: "Session: new").count - 1, 2, text)
        XCTAssertTrue(text.contains("Verdict: client rejected"), text)
        XCTAssertTrue(text.contains("extendedKeyUsage"), text)
    }

    func testJSONIsOneObjectPerConnection() throws {
        let server = try serve(["--require-client-cert", "--anchors", Self.path("ecdsa/root.pem"), "--count", "1", "--json"])
        _ = try sClient(try server.port(), certificate: "ecdsa/leaf-client.pem")
        XCTAssertEqual(server.wait(), 0, server.text)
        let line = try XCTUnwrap(server.text.split(separator: "\n").first { $0.hasPrefix("{") })
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["accepted"] as? Bool, true)
        XCTAssertEqual(object["sessionResumed"] as? Bool, false)
        XCTAssertEqual(object["client"] as? String, "CN=SwiftTrust Test Client,O=SwiftTrust")
    }

    /// `openssl s_client` to 127.0.0.1:`port` presenting the leaf at `certificate` (absolute path) and its `key`.
    private func sClient(_ port: Int, certificate: String, key: String) throws -> String {
        try OpenSSLCommand.output(of: [
            "s_client", "-connect", "127.0.0.1:\(port)", "-tls1_3", "-ign_eof", "-cert", certificate,
            "-cert_chain", Self.path("ecdsa/intermediate.pem"), "-key", key,
        ])
    }

    /// `trustctl serve` judging clients against the committed ECDSA root with CRLs fetched, at the
    /// real time (the fixture's leaf is made now), for one connection.
    private func serveCheckingCRLs(_ extra: [String]) throws -> Server {
        try Server(
            try trustctlURL,
            [
                "serve", "--cert", Self.path("ecdsa/leaf.pem"), "--chain", Self.path("ecdsa/intermediate.pem"),
                "--key", Self.path("keys/ecdsa/leaf.key.pem"), "--port", "0", "--require-client-cert",
                "--revocation", "crl", "--count", "1",
            ] + extra)
    }

    /// Issue 40 item 3: a revoked client whose CA publishes its CRL at a loopback address (a private
    /// PKI). Its chain validates to the explicit anchors alone, so the CA-signed CRL URL is fetched
    /// (docs/revocation.md, "Local addresses") and the client refused, with --fetch-local-addresses
    /// and without it.
    func testARevokedClientWhoseCRLIsOnLoopbackIsRefused() throws {
        let fixture = try LoopbackCRLFixture(in: directory, client: true)
        defer { fixture.responder.stop() }
        for extra in [[], ["--fetch-local-addresses"]] {
            let server = try serveCheckingCRLs(["--anchors", Self.path("ecdsa/root.pem")] + extra)
            _ = try sClient(try server.port(), certificate: fixture.leaf, key: fixture.key)
            XCTAssertEqual(server.wait(), 1, "\(extra): \(server.text)")
            XCTAssertTrue(server.text.contains("Verdict: client rejected"), "\(extra): \(server.text)")
            XCTAssertTrue(server.text.contains("revoked"), "\(extra): \(server.text)")
        }
        XCTAssertEqual(fixture.responder.accepted, 2, "the CRL was fetched for each connection")
    }

    /// When the system store may anchor a client too, its chain is not one the explicit anchors
    /// alone vouch for: the loopback CRL is not fetched, and the output says so and why (soft fail
    /// accepts); --fetch-local-addresses fetches it, and the revoked client is refused.
    func testARefusedCRLFetchIsPrintedWithItsReason() throws {
        let fixture = try LoopbackCRLFixture(in: directory, client: true)
        defer { fixture.responder.stop() }
        let anchors = ["--anchors", Self.path("ecdsa/root.pem"), "--system-anchors"]
        let server = try serveCheckingCRLs(anchors)
        _ = try sClient(try server.port(), certificate: fixture.leaf, key: fixture.key)
        XCTAssertEqual(server.wait(), 0, server.text)
        XCTAssertTrue(server.text.contains("Verdict: client accepted"), server.text)
        XCTAssertTrue(server.text.contains("CRL \(fixture.url) not fetched: fetch refused: 127.0.0.1 is a loopback address"), server.text)
        XCTAssertEqual(fixture.responder.accepted, 0)

        let json = try serveCheckingCRLs(anchors + ["--json"])
        _ = try sClient(try json.port(), certificate: fixture.leaf, key: fixture.key)
        XCTAssertEqual(json.wait(), 0, json.text)
        let line = try XCTUnwrap(json.text.split(separator: "\n").first { $0.hasPrefix("{") })
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let revocation = try XCTUnwrap(object["revocation"] as? [[String: Any]], line.description)
        let failures = try XCTUnwrap(revocation.first?["fetchFailures"] as? [[String: Any]], line.description)
        XCTAssertEqual(failures.first?["url"] as? String, fixture.url)
        XCTAssertEqual(failures.first?["purpose"] as? String, "CRL")
        XCTAssertEqual(failures.first?["reason"] as? String, "fetch refused: 127.0.0.1 is a loopback address")

        let allowed = try serveCheckingCRLs(anchors + ["--fetch-local-addresses"])
        _ = try sClient(try allowed.port(), certificate: fixture.leaf, key: fixture.key)
        XCTAssertEqual(allowed.wait(), 1, allowed.text)
        XCTAssertTrue(allowed.text.contains("revoked"), allowed.text)
    }

    /// Client certificates against the system store need --system-anchors said explicitly; a
    /// server-trust evaluator does not judge clients; trust options need --require-client-cert.
    func testConfigurationsThatCannotBeHonouredExitTwo() throws {
        let base = ["serve", "--cert", Self.path("ecdsa/leaf.pem"), "--key", Self.path("keys/ecdsa/leaf.key.pem"), "--port", "0"]
        for (extra, message) in [
            (["--require-client-cert"], "--require-client-cert needs --anchors"),
            (["--require-client-cert", "--anchors", Self.path("ecdsa/root.pem"), "--policy", "public-keys"], "--policy"),
            (["--anchors", Self.path("ecdsa/root.pem")], "add --require-client-cert"),
            (["--require-client-cert", "--anchors", Self.path("ecdsa/root.pem"), "--host", "a.test"], "--host and --ip do not apply"),
        ] {
            let result = try trustctl(base + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stdoutText)")
            XCTAssertTrue(result.stderrText.contains(message), "\(extra): \(result.stderrText)")
        }
    }

    /// Issue 40 item 7: every trust option judges client certificates only, so without
    /// --require-client-cert each is refused (exit 2) rather than ignored. 192.0.2.1 cannot be
    /// listened on, so a serve that accepted the flag would fail there, with another message.
    func testTrustOptionsWithoutClientCertificatesExitTwo() throws {
        let base = [
            "serve", "--cert", Self.path("ecdsa/leaf.pem"), "--key", Self.path("keys/ecdsa/leaf.key.pem"), "--port", "0",
            "--listen", "192.0.2.1", "--count", "1",
        ]
        let cases: [[String]] = [
            ["--profile", "webpki"], ["--purpose", "client"], ["--intermediates", Self.path("ecdsa/intermediate.pem")],
            ["--at", TestCertificatesDirectory.verifyDate], ["--enforce-anchor-constraints"],
            ["--crl", Self.path("revocation/intermediate-current.crl")], ["--ocsp-response", Self.path("revocation/good-leaf-good.ocsp")],
            ["--revocation", "crl"], ["--max-depth", "1"], ["--allow-legacy-algorithms"],
            ["--policy-oid", "1.2.3.4"], ["--require-explicit-policy"], ["--inhibit-policy-mapping"], ["--inhibit-any-policy"],
            ["--allow-email", "user@swifttrust.test"], ["--allow-spiffe", "spiffe://example.org"], ["--allow-subject", "O=SwiftTrust"],
        ]
        for extra in cases {
            let result = try trustctl(base + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stdoutText)")
            XCTAssertTrue(result.stderrText.contains("add --require-client-cert"), "\(extra): \(result.stderrText)")
            XCTAssertTrue(result.stderrText.contains(extra[0]), "\(extra): \(result.stderrText)")
        }
    }

    /// Issue 41 item 1: `--allow-…` names who a verified client must be. The committed client
    /// (`email:user@swifttrust.test`, `O=SwiftTrust`) is served under a rule it matches and refused
    /// in the handshake, with the rule named, under one it does not.
    func testAllowedIdentitiesAdmitOnlyMatchingClients() throws {
        let allowed = try serve([
            "--require-client-cert", "--anchors", Self.path("ecdsa/root.pem"), "--count", "1",
            "--allow-dns", "nobody.swifttrust.test", "--allow-email", "user@swifttrust.test",
        ])
        let served = try sClient(try allowed.port(), certificate: "ecdsa/leaf-client.pem")
        XCTAssertTrue(served.contains("SwiftTrust serve: accepted"), served)
        XCTAssertEqual(allowed.wait(), 0, allowed.text)

        let refusing = try serve([
            "--require-client-cert", "--anchors", Self.path("ecdsa/root.pem"), "--count", "1",
            "--allow-subject", "O=Someone Else", "--allow-email-domain", "example.com",
        ])
        let refused = try sClient(try refusing.port(), certificate: "ecdsa/leaf-client.pem")
        XCTAssertFalse(refused.contains("SwiftTrust serve: accepted"), refused)
        XCTAssertEqual(refusing.wait(), 1, refusing.text)
        XCTAssertTrue(refusing.text.contains("Verdict: client rejected"), refusing.text)
        XCTAssertTrue(refusing.text.contains("does not have the required identity"), refusing.text)
        XCTAssertTrue(refusing.text.contains("any(email-domain example.com, subject O=Someone Else)"), refusing.text)
    }

    /// A malformed `--allow-…` value is a usage error naming the flag.
    func testAMalformedAllowedIdentityExitsTwo() throws {
        let base = [
            "serve", "--cert", Self.path("ecdsa/leaf.pem"), "--key", Self.path("keys/ecdsa/leaf.key.pem"), "--port", "0",
            "--require-client-cert", "--anchors", Self.path("ecdsa/root.pem"), "--count", "1",
        ]
        for (flag, value) in [
            ("--allow-ip", "10.0.0.1/8"), ("--allow-spiffe", "spiffe://Example.org"), ("--allow-dns", "*.com"),
            ("--allow-subject", "XX=y"), ("--allow-uri", "no-scheme"),
        ] {
            let result = try trustctl(base + [flag, value])
            XCTAssertEqual(result.status, 2, "\(flag) \(value): \(result.stdoutText)")
            XCTAssertTrue(result.stderrText.contains(flag), "\(flag): \(result.stderrText)")
        }
    }
}
