import Foundation
import XCTest

/// Runs the built `trustctl` binary on a certificate whose subject CN and SANs carry terminal
/// escape sequences, newlines, C1 controls and a bidi override, and checks that none reaches
/// standard output or standard error raw, in every command's text and JSON output and in error
/// messages, while the JSON still carries the exact value.
final class TrustCtlOutputEscapingTests: XCTestCase {
    /// ESC [31m (red), a newline that would fake a line, DEL, CSI as a C1 control, RIGHT-TO-LEFT OVERRIDE.
    private static let hostileCommonName = "evil\u{1B}[31mred\nline\u{7F}\u{9B}2J\u{202E}gnp.exe"
    private var directory: URL!
    private var certificate: String { directory.appendingPathComponent("hostile.pem").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trustctl-escaping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try makeHostileCertificate()
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: - Every output

    func testTextAndJSONOutputOfEveryCommandCarryNoRawControlCharacter() throws {
        let anchored = ["--anchors", certificate, "--host", "www.example.test"]
        let commands: [[String]] = [
            ["inspect", certificate], ["inspect", "--json", certificate], ["inspect", "--verbose", certificate, certificate],
            ["verify", certificate] + anchored, ["verify", "--json", certificate] + anchored,
            ["verify", "--policy", "default", certificate] + anchored,
            ["chain", certificate] + anchored, ["chain", "--json", certificate] + anchored,
            ["pin", certificate], ["pin", "--json", certificate],
        ]
        for arguments in commands {
            let result = try trustctl(arguments)
            XCTAssertNotEqual(result.status, 2, "\(arguments): \(result.stderrText)")
            assertNoRawControls(result, arguments)
            XCTAssertTrue(result.stdoutText.contains("evil"), "\(arguments) prints the subject: \(result.stdoutText)")
        }
    }

    /// `trustctl store` prints the subjects of the anchors (here the hostile certificate as SSL_CERT_FILE,
    /// the well-known locations read under an empty directory).
    func testStoreOutputIsEscaped() throws {
        let root = directory.appendingPathComponent("empty-root", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for arguments in [["store", "--root", root.path], ["store", "--json", "--root", root.path]] {
            let result = try trustctl(arguments, environment: ["SSL_CERT_FILE": certificate, "SSL_CERT_DIR": ""])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderrText)")
            assertNoRawControls(result, arguments)
            // Text escapes the newline as \u000a, JSON as \n.
            XCTAssertTrue(result.stdoutText.contains(#"evil\u001b[31mred"#), "\(arguments): \(result.stdoutText)")
        }
    }

    func testTextOutputShowsTheEscapesOnOneLine() throws {
        let result = try trustctl(["inspect", certificate])
        let subject = try XCTUnwrap(result.stdoutText.split(separator: "\n").first { $0.contains("Subject:") })
        XCTAssertTrue(subject.hasSuffix(#"CN=evil\u001b[31mred\u000aline\u007f\u009b2J\u202egnp.exe"#), String(subject))
        let sans = try XCTUnwrap(result.stdoutText.split(separator: "\n").first { $0.contains("SANs:") })
        XCTAssertTrue(sans.hasSuffix(#"DNS:a\u001b[31m.example, DNS:b\u000ac.example"#), String(sans))
    }

    func testJSONOutputKeepsTheExactValue() throws {
        for command in ["inspect", "pin"] {
            let result = try trustctl([command, "--json", certificate])
            let reports = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]])
            XCTAssertEqual(reports.first?["subject"] as? String, "CN=" + Self.hostileCommonName, command)
        }
    }

    func testErrorMessagesAreEscaped() throws {
        let missing = directory.appendingPathComponent("no\u{1B}]0;title\u{07}such\n.pem").path
        let result = try trustctl(["inspect", missing])
        XCTAssertEqual(result.status, 2)
        assertNoRawControls(result, ["inspect", missing])
        XCTAssertTrue(result.stderrText.contains(#"no\u001b]0;title\u0007such\u000a.pem: cannot read file"#), result.stderrText)
    }

    func testLimboTextOutputIsEscaped() throws {
        let pem = try String(contentsOfFile: certificate, encoding: .utf8)
        let suite: [String: Any] = [
            "version": 1,
            "testcases": [
                [
                    "id": "webpki::\u{1B}[2Jhostile", "description": "hostile\n", "validation_kind": "SERVER",
                    "trusted_certs": [pem], "untrusted_intermediates": [], "peer_certificate": pem,
                    "expected_result": "SUCCESS", "expected_peer_name": ["kind": "DNS", "value": "www.example.test"],
                ]
            ],
        ]
        let suitePath = directory.appendingPathComponent("limbo.json")
        try JSONSerialization.data(withJSONObject: suite).write(to: suitePath)
        for arguments in [["limbo", "--verbose", suitePath.path], ["limbo", "--json", suitePath.path]] {
            let result = try trustctl(arguments)
            XCTAssertEqual(result.status, 1, "the case is answered wrong on purpose: \(result.stdoutText) \(result.stderrText)")
            assertNoRawControls(result, arguments)
        }
        XCTAssertTrue(try trustctl(["limbo", "--verbose", suitePath.path]).stdoutText.contains(#"webpki::\u001b[2Jhostile"#))
    }

    func testAnUnusableSSLCertFileStopsVerifyAndChainWithStatus2() throws {
        let missing = directory.appendingPathComponent("missing-anchors.pem").path
        for command in ["verify", "chain"] {
            let result = try trustctl([command, certificate], environment: ["SSL_CERT_FILE": missing])
            XCTAssertEqual(result.status, 2, "\(command): \(result.stdoutText)")
            XCTAssertTrue(result.stderrText.contains("SSL_CERT_FILE=\(missing) does not exist"), result.stderrText)
        }
        // With --anchors alone the system store is not needed, and not consulted.
        let anchored = try trustctl(["verify", certificate, "--anchors", certificate], environment: ["SSL_CERT_FILE": missing])
        XCTAssertNotEqual(anchored.status, 2, anchored.stderrText)
    }

    // MARK: - Helpers

    /// Scalars no terminal should receive raw: C0 except newline, DEL, C1, bidi controls.
    private func rawControls(_ bytes: [UInt8]) -> [UInt32] {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value).filter { value in
            (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value) || [0x061C, 0x200E, 0x200F].contains(value)
                || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
    }

    private func assertNoRawControls(_ result: TrustCtlResult, _ arguments: [String], line: UInt = #line) {
        XCTAssertEqual(rawControls(result.stdout), [], "stdout of \(arguments): \(result.stdoutText)", line: line)
        XCTAssertEqual(rawControls(result.stderr), [], "stderr of \(arguments): \(result.stderrText)", line: line)
    }

    /// A self-signed P-256 certificate whose CN is ``hostileCommonName`` and whose SANs are
    /// `a ESC[31m .example` and `b NEWLINE c.example`, made by the openssl CLI.
    private func makeHostileCertificate() throws {
        guard
            let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw XCTSkip("openssl is not installed (needed to make the hostile certificate)")
        }
        // The configuration file holds the raw ESC; "\n" is openssl's own escape for a newline.
        let config =
            "[req]\ndistinguished_name=dn\n[dn]\n[ext]\nsubjectAltName=@alt\nbasicConstraints=critical,CA:TRUE\n"
            + "keyUsage=critical,keyCertSign,digitalSignature\n[alt]\nDNS.1=a\u{1B}[31m.example\nDNS.2=b\\nc.example\n"
        let configPath = directory.appendingPathComponent("openssl.cnf")
        try Data(config.utf8).write(to: configPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", directory.appendingPathComponent("key.pem").path, "-out", certificate, "-days", "30",
            "-utf8", "-config", configPath.path, "-extensions", "ext", "-subj", "/CN=" + Self.hostileCommonName,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "openssl req failed")
    }
}
