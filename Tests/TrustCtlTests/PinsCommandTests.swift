import Foundation
import OpenSSLServerSupport
import TrustTestSupport
import XCTest

/// `trustctl pins check` against `openssl s_server` on 127.0.0.1, `pins convert`, and
/// `pin --emit-config`: exit statuses and what they print.
final class PinsCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private static let verifyDate = TestCertificatesDirectory.verifyDate
    private static let host = TestCertificatesDirectory.host
    /// The SHA-256 of nothing: a backup pin no key has.
    private static let backup = "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

    private var servers: [OpenSSLServer] = []
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func server(_ pki: String) throws -> OpenSSLServer {
        let leaf = "\(pki)/leaf.pem"
        let key = Self.path("keys/\(pki)/leaf.key.pem")
        let server: OpenSSLServer
        do { server = try OpenSSLServer(certificate: Self.path(leaf), key: key, chain: [Self.path("\(pki)/intermediate.pem")]) } catch OpenSSLServer
            .StartError.opensslMissing
        {
            throw XCTSkip("openssl is not installed")
        }
        servers.append(server)
        return server
    }

    /// The pin `trustctl pin --json` prints for the first certificate of a file.
    private func pin(_ file: String) throws -> String {
        let result = try trustctl(["pin", "--json", Self.path(file)])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let entries = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]]
        return try XCTUnwrap(entries?.first?["spkiPin"] as? String)
    }

    /// Writes a JSON configuration pinning the ECDSA intermediate (plus the backup) for the test host.
    private func writeConfiguration(enforcement: String = "enforce") throws -> String {
        let json = """
            {"version": 1, "domains": [{"domain": "\(Self.host)", "enforcement": "\(enforcement)",
              "expires": "2026-09-01", "pins": {"chain": ["\(try pin("ecdsa/intermediate.pem"))", "\(Self.backup)"]}}]}
            """
        let file = directory.appendingPathComponent("pins.json")
        try Data(json.utf8).write(to: file)
        return file.path
    }

    private func check(_ config: String, port: Int, _ extra: [String] = []) throws -> TrustCtlResult {
        try trustctl(
            [
                "pins", "check", config, "\(Self.host):\(port)@127.0.0.1", "--anchors", Self.path("ecdsa/root.pem"),
                "--anchors", Self.path("rsa/root.pem"), "--at", Self.verifyDate, "--connect-timeout", "5",
            ] + extra,
            environment: ["NO_COLOR": "1"])
    }

    func testMatchingPinsPassAndTheBackupIsShownAsMatchingNothing() throws {
        let config = try writeConfiguration()
        let result = try check(config, port: try server("ecdsa").port)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        let text = result.stdoutText
        XCTAssertTrue(text.contains("PASS: the pins match what is served"), text)
        XCTAssertTrue(text.contains("\(Self.backup)  matches nothing served"), text)
        XCTAssertTrue(text.contains("\(try pin("ecdsa/intermediate.pem"))  matches [1]"), text)
        XCTAssertTrue(text.contains("pins expire 2026-09-01: in 92 days"), text)
        XCTAssertTrue(text.contains("(anchor, not served)"), text)
    }

    func testAPinSetThatNoLongerMatchesFailsBeforeRelease() throws {
        let config = try writeConfiguration()
        let result = try check(config, port: try server("rsa").port, ["--json"])
        XCTAssertEqual(result.status, 1, result.stderrText)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]])
        XCTAssertEqual(reports.first?["verdict"] as? String, "pinMismatch")
        let pins = try XCTUnwrap(reports.first?["pins"] as? [[String: Any]])
        XCTAssertEqual(pins.compactMap { ($0["matches"] as? [Int])?.count }, [0, 0])
        // Report-only: a warning, exit 0.
        let reportOnly = try check(try writeConfiguration(enforcement: "reportOnly"), port: try server("rsa").port)
        XCTAssertEqual(reportOnly.status, 0, reportOnly.stderrText)
        XCTAssertTrue(reportOnly.stdoutText.contains("WARN: report-only pins match nothing served"), reportOnly.stdoutText)
        // After the expiry date the pins no longer apply.
        let expired = try trustctl(
            [
                "pins", "check", config, "\(Self.host):\(try server("rsa").port)@127.0.0.1",
                "--anchors", Self.path("rsa/root.pem"), "--at", "2026-09-02T00:00:00Z",
            ], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(expired.status, 0, expired.stdoutText + expired.stderrText)
        XCTAssertTrue(expired.stdoutText.contains("WARN: the pins have expired and are not enforced"), expired.stdoutText)
        XCTAssertTrue(expired.stdoutText.contains("pins expired 2026-09-01"), expired.stdoutText)
    }

    func testAnUnconfiguredHostAndABadConfigurationAreReported() throws {
        let config = try writeConfiguration()
        let port = try server("ecdsa").port
        let unlisted = try trustctl([
            "pins", "check", config, "api.swifttrust.test:\(port)@127.0.0.1", "--anchors", Self.path("ecdsa/root.pem"),
            "--at", Self.verifyDate,
        ])
        XCTAssertEqual(unlisted.status, 1)
        XCTAssertTrue(unlisted.stdoutText.contains("no configured domain covers api.swifttrust.test"), unlisted.stdoutText)
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"version": 1, "domains": [{"domain": "a.test", "pins": {"chain": ["sha256/AAAA"]}}]}"#.utf8).write(to: bad)
        let malformed = try trustctl(["pins", "check", bad.path])
        XCTAssertEqual(malformed.status, 2)
        XCTAssertTrue(malformed.stderrText.contains("bad.json: at domains[0].pins.chain[0]"), malformed.stderrText)
    }

    /// TrustKit's demo backup pin: its last character has padding bits set (TrustKitDemo AppDelegate).
    private static let trustKitDemoBackup = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="

    /// `pin`'s bare base64 (from `sha256/…`) with the padding bits of its last character set.
    private func withPaddingBitsSet(_ pin: String) throws -> String {
        try XCTUnwrap(TrustTestSupport.withPaddingBitsSet(String(pin.dropFirst("sha256/".count))))
    }

    /// Issue 43: a TrustKit pin in non-canonical base64 is read as TrustKit reads it (the decoded
    /// bytes are the pin), and `pins check` says the text was not canonical.
    func testATrustKitPinInNonCanonicalBase64MatchesAndIsNoted() throws {
        let canonical = try pin("ecdsa/intermediate.pem")
        let written = try withPaddingBitsSet(canonical)
        let json = """
            {"TSKPinnedDomains": {"\(Self.host)": {"TSKPublicKeyHashes": ["\(written)", "\(Self.trustKitDemoBackup)"]}}}
            """
        let file = directory.appendingPathComponent("trustkit.json")
        try Data(json.utf8).write(to: file)
        let result = try check(file.path, port: try server("ecdsa").port)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("PASS: the pins match what is served"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("\(canonical)  matches [1]"), result.stdoutText)
        let notes = result.stderrText
        XCTAssertTrue(
            notes.contains(
                "note: \(file.path): at TSKPinnedDomains.\(Self.host).TSKPublicKeyHashes[0]: pin \"\(written)\" of domain \(Self.host) is not canonical base64"
            ), notes)
        XCTAssertTrue(notes.contains("canonical form is \"\(canonical.dropFirst("sha256/".count))\""), notes)
        XCTAssertTrue(notes.contains("TSKPublicKeyHashes[1]: pin \"\(Self.trustKitDemoBackup)\""), notes)
        XCTAssertTrue(notes.contains("\"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA=\""), notes)
        // Converted, the pins are written canonically.
        let converted = try trustctl(["pins", "convert", file.path, "--to", "json"])
        XCTAssertEqual(converted.status, 0, converted.stderrText)
        XCTAssertTrue(converted.stdoutText.contains(canonical), converted.stdoutText)
        XCTAssertFalse(converted.stdoutText.contains(written), converted.stdoutText)
    }

    /// `verify --policy spki --pin-sha256` reads a pin as TrustKit does, with a note.
    func testVerifyPinSHA256ReadsANonCanonicalPinAsTrustKitDoes() throws {
        let written = try withPaddingBitsSet(try pin("ecdsa/intermediate.pem"))
        let arguments = [
            "verify", Self.path("ecdsa/chain.pem"), "--anchors", Self.path("ecdsa/root.pem"),
            "--host", Self.host, "--at", Self.verifyDate, "--policy", "spki",
        ]
        let result = try trustctl(
            arguments + ["--pin-sha256", written, "--pin-sha256", "sha256/" + Self.trustKitDemoBackup],
            environment: ["NO_COLOR": "1"])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stderrText.contains("note: --pin-sha256 \(written) is not canonical base64"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains("as sha256/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA="), result.stderrText)
        // A wrong length is still refused.
        let short = try trustctl(arguments + ["--pin-sha256", String(written.dropLast(5)) + "=", "--pin-sha256", Self.trustKitDemoBackup])
        XCTAssertEqual(short.status, 2, short.stdoutText + short.stderrText)
        XCTAssertTrue(short.stderrText.contains("malformed SPKI pin"), short.stderrText)
    }

    func testConvertTranslatesAndRefusesWhatTheTargetCannotExpress() throws {
        let config = try writeConfiguration()
        let android = try trustctl(["pins", "convert", config, "--to", "android"])
        XCTAssertEqual(android.status, 0, android.stderrText)
        XCTAssertTrue(android.stdoutText.contains("<pin-set expiration=\"2026-09-01\">"), android.stdoutText)
        let androidFile = directory.appendingPathComponent("network_security_config.xml")
        try Data(android.stdout).write(to: androidFile)
        let back = try trustctl(["pins", "convert", androidFile.path, "--to", "json"])
        XCTAssertEqual(back.status, 0, back.stderrText)
        XCTAssertEqual(try trustctl(["pins", "convert", config, "--to", "json"]).stdout, back.stdout)
        // Chain-wide pins cannot be written as ATS (its leaf and CA lists must both match).
        let ats = try trustctl(["pins", "convert", config, "--to", "ats"])
        XCTAssertEqual(ats.status, 1)
        XCTAssertTrue(ats.stderrText.contains(Self.host), ats.stderrText)
    }

    func testPinEmitsAConfigurationBlockThatLoads() throws {
        let block = try trustctl([
            "pin", Self.path("ecdsa/intermediate.pem"), Self.path("ecdsa/root.pem"), "--emit-config", "ats",
            "--domain", Self.host, "--subdomains", "oneLevel",
        ])
        XCTAssertEqual(block.status, 0, block.stderrText)
        XCTAssertTrue(block.stdoutText.contains("NSPinnedCAIdentities"), block.stdoutText)
        let file = directory.appendingPathComponent("Info.plist")
        try Data(block.stdout).write(to: file)
        let port = try server("ecdsa").port
        let result = try trustctl([
            "pins", "check", file.path, "\(Self.host):\(port)@127.0.0.1", "--anchors", Self.path("ecdsa/root.pem"),
            "--at", Self.verifyDate,
        ])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        // TrustKit needs a backup pin: one key alone is refused, naming the rule.
        let single = try trustctl(["pin", Self.path("ecdsa/intermediate.pem"), "--emit-config", "trustkit", "--domain", Self.host])
        XCTAssertEqual(single.status, 1, single.stdoutText)
        let withBackup = try trustctl([
            "pin", Self.path("ecdsa/intermediate.pem"), "--emit-config", "trustkit", "--domain", Self.host,
            "--backup-pin", Self.backup,
        ])
        XCTAssertEqual(withBackup.status, 0, withBackup.stderrText)
    }

    /// `trustctl pin DIR` loads what an app's bundle scan pins: AFNetworking's `*.cer` in DER by
    /// default, Alamofire's six extensions with `--convention alamofire`, PEM only with
    /// `--include-pem`; a stray `ca.pem` is reported as skipped, a PEM `.cer` as malformed (exit 1).
    func testPinOfADirectoryFollowsTheNamedConvention() throws {
        try FileManager.default.copyItem(atPath: Self.path("ecdsa/leaf.der"), toPath: directory.appendingPathComponent("leaf.cer").path)
        try FileManager.default.copyItem(atPath: Self.path("ecdsa/root.pem"), toPath: directory.appendingPathComponent("ca.pem").path)
        try FileManager.default.copyItem(atPath: Self.path("ecdsa/leaf.der"), toPath: directory.appendingPathComponent("leaf.DER").path)
        let leafPin = try pin("ecdsa/leaf.pem"), rootPin = try pin("ecdsa/root.pem")
        func pins(_ arguments: [String]) throws -> (status: Int32, pins: [String], stderr: String) {
            let result = try trustctl(["pin", "--json", directory.path] + arguments)
            let entries = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]]
            return (result.status, (entries ?? []).compactMap { $0["spkiPin"] as? String }, result.stderrText)
        }
        let byDefault = try pins([])
        XCTAssertEqual(byDefault.status, 0, byDefault.stderr)
        XCTAssertEqual(byDefault.pins, [leafPin])
        XCTAssertTrue(byDefault.stderr.contains("ca.pem: not a file the AFNetworking (*.cer, DER) convention loads"), byDefault.stderr)
        XCTAssertTrue(byDefault.stderr.contains("leaf.DER"), byDefault.stderr)
        let withPEM = try pins(["--include-pem"])
        XCTAssertEqual(withPEM.pins, [rootPin, leafPin])
        let alamofire = try pins(["--convention", "alamofire"])
        XCTAssertEqual(alamofire.pins, [leafPin], "leaf.DER is the same certificate as leaf.cer")
        XCTAssertFalse(alamofire.stderr.contains("leaf.DER"), alamofire.stderr)

        try FileManager.default.copyItem(
            atPath: Self.path("ecdsa/intermediate.pem"), toPath: directory.appendingPathComponent("intermediate.cer").path)
        let pemCer = try pins([])
        XCTAssertEqual(pemCer.status, 1, pemCer.stderr)
        XCTAssertTrue(pemCer.stderr.contains("intermediate.cer: PEM text"), pemCer.stderr)
        XCTAssertEqual(try pins(["--include-pem"]).status, 0)
    }
}
