import Foundation
import OpenSSLServerSupport
import XCTest

/// Issue 30's reproductions: `--crl` / `--revocation` and `--profile` are enforced whatever
/// `--policy` judges, by `verify` and by `probe` against `openssl s_server`; a policy that accepts
/// without evaluating is refused together with them (exit 2, naming both).
final class ConfiguredOptionsCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private static let host = TestCertificatesDirectory.host
    private static let revokedChain = path("revocation/revoked-leaf.pem")
    private static let crl = path("revocation/intermediate-current.crl")
    /// Every `--policy` that evaluates, with the pins it needs (the shared intermediate).
    private static let policies: [[String]] = [
        [], ["--policy", "default"], ["--policy", "revocation"],
        ["--policy", "pinned-certificates", "--pin", path("ecdsa/intermediate.pem")],
        ["--policy", "public-keys", "--pin", path("ecdsa/intermediate.pem")],
        ["--policy", "spki", "--pin", path("ecdsa/intermediate.pem"), "--pin", path("rsa/root.pem")], // the RSA root: the backup pin
        ["--policy", "pinned-certificates", "--pin", path("ecdsa/intermediate.pem"), "--no-default-validation"],
    ]

    private func chainFile(_ files: [String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(UUID().uuidString).pem")
        try Data(try files.map { try String(contentsOfFile: Self.path($0), encoding: .utf8) }.joined().utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private func verify(_ chain: String, _ extra: [String]) throws -> TrustCtlResult {
        try trustctl(
            [
                "verify", chain, "--anchors", Self.path("ecdsa/root.pem"), "--host", Self.host,
                "--at", TestCertificatesDirectory.verifyDate,
            ] + extra, environment: ["NO_COLOR": "1"])
    }

    func testVerifyEnforcesTheCRLAndTheProfileUnderEveryPolicy() throws {
        let revoked = try chainFile(["revocation/revoked-leaf.pem", "ecdsa/intermediate.pem"])
        let noAKI = try chainFile(["scenarios/leaf-no-aki.pem", "ecdsa/intermediate.pem"])
        for policy in Self.policies {
            let accepted = try verify(revoked, policy)
            XCTAssertEqual(accepted.status, 0, "without --crl the revoked leaf is not known to be revoked \(policy): \(accepted.stdoutText)")
            let withCRL = try verify(revoked, ["--crl", Self.crl] + policy)
            XCTAssertEqual(withCRL.status, 1, "\(policy): \(withCRL.stdoutText)\(withCRL.stderrText)")
            XCTAssertTrue(withCRL.stdoutText.contains("revoked"), "\(policy): \(withCRL.stdoutText)")
            let hardFail = try verify(revoked, ["--crl", Self.crl, "--revocation", "any,require-positive,no-network"] + policy)
            XCTAssertEqual(hardFail.status, 1, "\(policy): \(hardFail.stdoutText)")

            XCTAssertEqual(try verify(noAKI, policy).status, 0, "\(policy)")
            let webPKI = try verify(noAKI, ["--profile", "webpki"] + policy)
            XCTAssertEqual(webPKI.status, 1, "\(policy): \(webPKI.stdoutText)")
            XCTAssertTrue(webPKI.stdoutText.contains("authorityKeyIdentifier"), "\(policy): \(webPKI.stdoutText)")
        }
    }

    func testPoliciesThatDoNotEvaluateAreRefusedWithOptions() throws {
        let revoked = try chainFile(["revocation/revoked-leaf.pem", "ecdsa/intermediate.pem"])
        let skipping: [[String]] = [
            ["--policy", "disabled"],
            [
                "--policy", "spki", "--pin", Self.path("ecdsa/intermediate.pem"), "--pin", Self.path("rsa/root.pem"),
                "--no-default-validation", "--no-host-validation",
            ],
        ]
        for policy in skipping {
            XCTAssertEqual(try verify(revoked, policy).status, 0, "\(policy) alone is what the user asked for")
            for options in [["--crl", Self.crl], ["--profile", "webpki"], ["--revocation", "crl,no-network"]] {
                let result = try verify(revoked, policy + options)
                XCTAssertEqual(result.status, 2, "\(policy + options): \(result.stdoutText)")
                XCTAssertTrue(result.stderrText.contains("cannot enforce \(options[0])"), result.stderrText)
            }
        }
    }

    /// Issue 40 item 6: every option only an evaluation enforces is refused beside a policy that
    /// skips it, not only --profile and the revocation flags (exit 2, naming the flags).
    func testEveryOptionOnlyAnEvaluationEnforcesIsRefusedBesideASkippingPolicy() throws {
        let chain = try chainFile(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let disabled = ["--policy", "disabled"]
        let publicKeys = ["--policy", "public-keys", "--pin", Self.path("ecdsa/intermediate.pem"), "--no-default-validation", "--no-host-validation"]
        XCTAssertEqual(try verify(chain, disabled).status, 0)
        XCTAssertEqual(try verify(chain, publicKeys).status, 0)
        let cases: [([String], [String])] = [
            (disabled + ["--max-depth", "0"], ["--max-depth"]),
            (publicKeys + ["--policy-oid", "1.2.3.4", "--require-explicit-policy"], ["--policy-oid", "--require-explicit-policy"]),
            (disabled + ["--inhibit-any-policy", "--inhibit-policy-mapping"], ["--inhibit-any-policy", "--inhibit-policy-mapping"]),
            (disabled + ["--allow-legacy-algorithms"], ["--allow-legacy-algorithms"]),
            (disabled + ["--enforce-anchor-constraints"], ["--enforce-anchor-constraints"]),
        ]
        for (arguments, flags) in cases {
            let result = try verify(chain, arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdoutText)")
            XCTAssertTrue(result.stderrText.contains("accepts without evaluating the chain, so it cannot enforce"), result.stderrText)
            for flag in flags { XCTAssertTrue(result.stderrText.contains(flag), "\(flag): \(result.stderrText)") }
        }
        // probe refuses the same when it is configured, before connecting.
        let probe = try trustctl(
            ["probe", "127.0.0.1:1", "--host", Self.host, "--anchors", Self.path("ecdsa/root.pem")] + disabled + ["--max-depth", "0"])
        XCTAssertEqual(probe.status, 2, probe.stdoutText + probe.stderrText)
        XCTAssertTrue(probe.stderrText.contains("cannot enforce --max-depth"), probe.stderrText)
    }

    func testProbeEnforcesTheCRLAndTheProfileUnderEveryPolicy() throws {
        let revokedServer: OpenSSLServer
        let noAKIServer: OpenSSLServer
        do {
            revokedServer = try OpenSSLServer(
                certificate: Self.revokedChain, key: Self.path("revocation/keys/revoked-leaf.key.pem"),
                chain: [Self.path("ecdsa/intermediate.pem")])
            noAKIServer = try OpenSSLServer(
                certificate: Self.path("scenarios/leaf-no-aki.pem"),
                key: Self.path("keys/scenarios/leaf-no-aki.key.pem"), chain: [Self.path("ecdsa/intermediate.pem")])
        } catch OpenSSLServer.StartError.opensslMissing {
            throw XCTSkip("openssl is not installed")
        }
        defer {
            revokedServer.stop()
            noAKIServer.stop()
        }
        func probe(_ port: Int, _ extra: [String]) throws -> TrustCtlResult {
            try trustctl(
                [
                    "probe", "127.0.0.1:\(port)", "--host", Self.host, "--sni", Self.host, "--anchors", Self.path("ecdsa/root.pem"),
                    "--at", TestCertificatesDirectory.verifyDate, "--connect-timeout", "5",
                ] + extra, environment: ["NO_COLOR": "1"])
        }
        for policy in Self.policies {
            let revoked = try probe(revokedServer.port, ["--crl", Self.crl] + policy)
            XCTAssertEqual(revoked.status, 1, "\(policy): \(revoked.stdoutText)\(revoked.stderrText)")
            XCTAssertTrue(revoked.stdoutText.contains("Verdict: rejected"), "\(policy): \(revoked.stdoutText)")
            let webPKI = try probe(noAKIServer.port, ["--profile", "webpki"] + policy)
            XCTAssertEqual(webPKI.status, 1, "\(policy): \(webPKI.stdoutText)")
            XCTAssertEqual(try probe(noAKIServer.port, policy).status, 0, "\(policy)")
        }
    }
}
