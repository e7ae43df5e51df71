import Foundation
import TrustCore
import TrustCrypto
import TrustX509
import TrustTestSupport
import XCTest

/// Runs every trust scenario through `openssl verify` and through ``ServerTrust`` and compares the
/// verdicts (trusted or not). Disagreements are allowed only when listed, with a reason, in
/// ``deliberateDisagreements`` (mirrored in `docs/openssl-differences.md`); a listed scenario on
/// which both now agree fails too, so the list stays current.
final class OpenSSLVerifyDifferentialTests: XCTestCase {
    /// Scenario name → why SwiftTrust deliberately answers differently from `openssl verify`.
    static let deliberateDisagreements: [String: String] = [
        "leaf-no-san, hostname":
            "OpenSSL falls back to the subject CN when the leaf has no DNS SAN; SwiftTrust requires a SAN (RFC 9525 §6.3, CABF BR 7.1.2.7.12) and never matches the CN by default.",
        "leaf-sha1":
            "OpenSSL's default auth level accepts SHA-1 signatures; SwiftTrust's SSL server profile rejects them as Apple's does (SecPolicyRemoveWeakHashOptions; SignaturePolicy.legacy accepts them).",
        "ed25519 chain":
            "OpenSSL accepts Ed25519 keys in a TLS server chain; Apple's SSL server key-size table lists RSA and EC only (SecPolicyAddStrongKeySizeOptions, SecCertificateIsAtLeastMinKeySize), so SwiftTrust's ssl profile rejects them as SecTrust does.",
        "(g) cross, root2 anchor":
            "OpenSSL takes the first time-valid issuer among the untrusted certificates (the twin signed by root) and does not backtrack to the twin signed by root2; SwiftTrust's path builder tries every candidate issuer.",
        "leaf-rsa1024":
            "OpenSSL's default auth level accepts a 1024-bit RSA leaf key; SwiftTrust's TLS (web-PKI) profile requires RSA keys of at least 2048 bits (CABF BR 6.1.5).",
        "rsa leaf, inner parameters absent":
            "OpenSSL's X509_verify compares tbsCertificate.signature and signatureAlgorithm byte for byte; SwiftTrust, like Chromium and Apple, compares them as algorithms, so absent and NULL RSA PKCS#1 parameters match (RFC 4055 §5).",
    ]

    /// One case: the leaf, the untrusted certificates offered with it, the anchors, and the policy.
    struct Scenario: Sendable {
        enum Purpose: Sendable { case server, client, none }

        var name: String
        var leaf: String
        var untrusted: [String] = []
        var anchors: [String] = ["ecdsa/root.pem"]
        var host: String? = TestCertificates.host
        var purpose: Purpose = .server
        /// A derived leaf replacing the file's certificate (e.g. a tampered signature).
        var deriveLeaf: (@Sendable (Certificate) throws -> Certificate)?
        /// Extra `openssl verify` options mirroring `configure`.
        var opensslOptions: [String] = []
        /// Extra SwiftTrust configuration.
        var configure: (@Sendable (ServerTrust) -> Void)?
    }

    static let scenarios: [Scenario] = {
        let ecdsa = ["ecdsa/intermediate.pem"]
        let cross = ["scenarios/cross-intermediate-by-root.pem", "scenarios/cross-intermediate-by-root2.pem"]
        let expiredFirst = ["scenarios/cross-intermediate-expired-by-root2.pem", "scenarios/cross-intermediate-by-root.pem"]
        return [
            Scenario(name: "ecdsa chain", leaf: "ecdsa/leaf.pem", untrusted: ecdsa),
            Scenario(name: "rsa chain", leaf: "rsa/leaf.pem", untrusted: ["rsa/intermediate.pem"], anchors: ["rsa/root.pem"]),
            Scenario(
                name: "rsa leaf, inner parameters absent", leaf: "rsa/leaf-params-absent.pem", untrusted: ["rsa/intermediate.pem"],
                anchors: ["rsa/root.pem"]),
            Scenario(name: "ed25519 chain", leaf: "ed25519/leaf.pem", untrusted: ["ed25519/intermediate.pem"], anchors: ["ed25519/root.pem"]),
            Scenario(name: "ecdsa chain, wrong root", leaf: "ecdsa/leaf.pem", untrusted: ecdsa, anchors: ["rsa/root.pem"]),
            Scenario(name: "leaf-multi-dns, api", leaf: "ecdsa/leaf-multi-dns.pem", untrusted: ecdsa, host: "api.swifttrust.test"),
            Scenario(name: "leaf-multi-dns, apex", leaf: "ecdsa/leaf-multi-dns.pem", untrusted: ecdsa, host: "swifttrust.test"),
            Scenario(name: "leaf-multi-dns, mismatch", leaf: "ecdsa/leaf-multi-dns.pem", untrusted: ecdsa, host: "mail.swifttrust.test"),
            Scenario(name: "leaf-wildcard, one label", leaf: "ecdsa/leaf-wildcard.pem", untrusted: ecdsa, host: "a.swifttrust.test"),
            Scenario(name: "leaf-wildcard, apex", leaf: "ecdsa/leaf-wildcard.pem", untrusted: ecdsa, host: "swifttrust.test"),
            Scenario(name: "leaf-wildcard, two labels", leaf: "ecdsa/leaf-wildcard.pem", untrusted: ecdsa, host: "a.b.swifttrust.test"),
            Scenario(name: "leaf-ip, IPv4", leaf: "ecdsa/leaf-ip.pem", untrusted: ecdsa, host: "192.0.2.10"),
            Scenario(name: "leaf-ip, IPv6", leaf: "ecdsa/leaf-ip.pem", untrusted: ecdsa, host: "2001:db8::10"),
            Scenario(name: "leaf-ip, other IPv4", leaf: "ecdsa/leaf-ip.pem", untrusted: ecdsa, host: "192.0.2.11"),
            Scenario(name: "leaf-no-san, hostname", leaf: "ecdsa/leaf-no-san.pem", untrusted: ecdsa),
            Scenario(name: "leaf-no-san, basic X.509", leaf: "ecdsa/leaf-no-san.pem", untrusted: ecdsa, host: nil, purpose: .none),
            Scenario(name: "leaf-expired", leaf: "ecdsa/leaf-expired.pem", untrusted: ecdsa),
            Scenario(name: "leaf-not-yet-valid", leaf: "ecdsa/leaf-not-yet-valid.pem", untrusted: ecdsa),
            Scenario(name: "self-signed leaf, root anchor", leaf: "ecdsa/self-signed-leaf.pem"),
            Scenario(name: "self-signed leaf, itself the anchor", leaf: "ecdsa/self-signed-leaf.pem", anchors: ["ecdsa/self-signed-leaf.pem"]),
            Scenario(name: "leaf-intermediate2", leaf: "ecdsa/leaf-intermediate2.pem", untrusted: ["ecdsa/intermediate2.pem"]),
            Scenario(
                name: "(a) pathLen violation", leaf: "scenarios/pathlen-violation-leaf.pem",
                untrusted: ["scenarios/pathlen0-ca.pem", "scenarios/pathlen-sub-ca.pem"]),
            Scenario(name: "(b) CA:FALSE issuer", leaf: "scenarios/leaf-under-not-ca.pem", untrusted: ["scenarios/not-ca-intermediate.pem"]),
            Scenario(
                name: "(c) no keyCertSign", leaf: "scenarios/leaf-under-no-keycertsign.pem",
                untrusted: ["scenarios/no-keycertsign-intermediate.pem"]),
            Scenario(
                name: "(d) expired intermediate", leaf: "scenarios/leaf-under-expired-intermediate.pem",
                untrusted: ["scenarios/expired-intermediate.pem"]),
            Scenario(name: "(e) unknown critical extension", leaf: "scenarios/unknown-critical-ext-leaf.pem", untrusted: ecdsa),
            Scenario(name: "(f) nc ok", leaf: "scenarios/nc-leaf-ok.pem", untrusted: ["scenarios/nc-intermediate.pem"]),
            Scenario(
                name: "(f) nc excluded", leaf: "scenarios/nc-leaf-excluded.pem", untrusted: ["scenarios/nc-intermediate.pem"],
                host: "x.bad.swifttrust.test"),
            Scenario(
                name: "(f) nc outside", leaf: "scenarios/nc-leaf-outside.pem", untrusted: ["scenarios/nc-intermediate.pem"],
                host: "www.example.org"),
            Scenario(name: "(f) nc ip outside", leaf: "scenarios/nc-leaf-ip-outside.pem", untrusted: ["scenarios/nc-intermediate.pem"]),
            Scenario(name: "(g) cross, root anchor", leaf: "scenarios/cross-leaf.pem", untrusted: cross),
            Scenario(name: "(g) cross, root2 anchor", leaf: "scenarios/cross-leaf.pem", untrusted: cross, anchors: ["scenarios/root2.pem"]),
            Scenario(
                name: "(g) cross, expired twin first, root2 anchor", leaf: "scenarios/cross-leaf.pem", untrusted: expiredFirst,
                anchors: ["scenarios/root2.pem"]),
            Scenario(
                name: "(g) cross, expired twin first, both anchors", leaf: "scenarios/cross-leaf.pem", untrusted: expiredFirst,
                anchors: ["scenarios/root2.pem", "ecdsa/root.pem"]),
            Scenario(
                name: "(g) cross, expired twin then valid twin, root2 anchor", leaf: "scenarios/cross-leaf.pem",
                untrusted: ["scenarios/cross-intermediate-expired-by-root2.pem", "scenarios/cross-intermediate-by-root2.pem"],
                anchors: ["scenarios/root2.pem"]),
            Scenario(name: "leaf-no-serverauth, server", leaf: "ecdsa/leaf-no-serverauth.pem", untrusted: ecdsa),
            Scenario(name: "leaf-no-serverauth, client", leaf: "ecdsa/leaf-no-serverauth.pem", untrusted: ecdsa, host: nil, purpose: .client),
            Scenario(name: "leaf-client, client", leaf: "ecdsa/leaf-client.pem", untrusted: ecdsa, host: nil, purpose: .client),
            Scenario(
                name: "(h) codeSigning CA, server", leaf: "scenarios/leaf-under-codesigning-ca.pem",
                untrusted: ["scenarios/eku-codesigning-intermediate.pem"]),
            Scenario(
                name: "(h) codeSigning CA, basic X.509", leaf: "scenarios/leaf-under-codesigning-ca.pem",
                untrusted: ["scenarios/eku-codesigning-intermediate.pem"], host: nil, purpose: .none),
            Scenario(name: "leaf-sha1", leaf: "scenarios/leaf-sha1.pem", untrusted: ecdsa),
            Scenario(
                name: "leaf-sha1, legacy policy", leaf: "scenarios/leaf-sha1.pem", untrusted: ecdsa,
                configure: { $0.options.signaturePolicy = .legacy }),
            Scenario(name: "leaf-sha1, auth level 1", leaf: "scenarios/leaf-sha1.pem", untrusted: ecdsa, opensslOptions: ["-auth_level", "1"]),
            Scenario(name: "leaf-rsa1024", leaf: "scenarios/leaf-rsa1024.pem", untrusted: ecdsa),
            Scenario(name: "leaf-rsa1024, auth level 2", leaf: "scenarios/leaf-rsa1024.pem", untrusted: ecdsa, opensslOptions: ["-auth_level", "2"]),
            Scenario(name: "(j) v1 intermediate", leaf: "scenarios/leaf-under-v1.pem", untrusted: ["scenarios/v1-intermediate.pem"]),
            Scenario(name: "(k) leaf-is-ca", leaf: "scenarios/leaf-is-ca.pem", untrusted: ["ecdsa/intermediate2.pem"]),
            Scenario(name: "(m) must-staple", leaf: "scenarios/leaf-must-staple.pem", untrusted: ecdsa),
            Scenario(name: "(n) RSA-PSS", leaf: "scenarios/leaf-pss.pem", untrusted: ["rsa/intermediate.pem"], anchors: ["rsa/root.pem"]),
            Scenario(name: "(o) certificate policies", leaf: "scenarios/leaf-policies.pem", untrusted: ecdsa),
            Scenario(name: "(l) wrong-order bundle", leaf: "ecdsa/leaf.pem", untrusted: ["scenarios/chain-wrong-order.pem"]),
            Scenario(name: "(l) bundle with root", leaf: "ecdsa/leaf.pem", untrusted: ["scenarios/chain-with-root.pem"]),
            Scenario(name: "(l) bundle with duplicate", leaf: "ecdsa/leaf.pem", untrusted: ["scenarios/chain-with-duplicate.pem"]),
            Scenario(name: "(l) leaf only", leaf: "ecdsa/leaf.pem", untrusted: ["scenarios/chain-leaf-only.pem"]),
            Scenario(
                name: "CRL required, none available", leaf: "ecdsa/leaf.pem", untrusted: ecdsa, opensslOptions: ["-crl_check"],
                configure: { $0.policies.append(.revocation([.crl, .requirePositiveResponse])) }),
            Scenario(
                name: "depth 0 with one intermediate", leaf: "ecdsa/leaf.pem", untrusted: ecdsa, opensslOptions: ["-verify_depth", "0"],
                configure: { $0.options.maximumDepth = 0 }),
            Scenario(
                name: "depth 1 with one intermediate", leaf: "ecdsa/leaf.pem", untrusted: ecdsa, opensslOptions: ["-verify_depth", "1"],
                configure: { $0.options.maximumDepth = 1 }),
            Scenario(name: "tampered leaf signature", leaf: "ecdsa/leaf.pem", untrusted: ecdsa, deriveLeaf: tamperedSignature),
        ]
    }()

    // MARK: - Running openssl

    static let opensslPath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/openssl" } + ["/usr/bin/openssl"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct Verdict {
        var trusted: Bool
        var detail: String
    }

    /// Runs `executable` to completion (with `environment` added to this process's), standard output and
    /// error combined.
    static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        try TestProcess.run(executable, arguments, environment: environment)
    }

    private var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenSSLVerifyDifferential-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
    }

    private func writePEM(_ certificates: [Certificate], named name: String) throws -> String {
        let url = workDirectory.appendingPathComponent(name)
        try Data(certificates.map(pem).joined().utf8).write(to: url)
        return url.path
    }

    private func leafCertificate(_ scenario: Scenario) throws -> Certificate {
        let certificate = try TestCertificates.certificate(scenario.leaf)
        return try scenario.deriveLeaf.map { try $0(certificate) } ?? certificate
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// The `openssl verify` arguments for `scenario`, its files written where needed.
    func opensslArguments(_ scenario: Scenario, index: Int) throws -> [String] {
        let caFile =
            scenario.anchors.count == 1
            ? TestCertificates.path(scenario.anchors[0])
            : try writePEM(scenario.anchors.flatMap { try TestCertificates.certificates($0) }, named: "anchors-\(index).pem")
        let leafFile =
            scenario.deriveLeaf == nil
            ? TestCertificates.path(scenario.leaf)
            : try writePEM([try leafCertificate(scenario)], named: "leaf-\(index).pem")
        var arguments = ["verify", "-attime", String(TestCertificates.verifyTime), "-CAfile", caFile]
        for file in scenario.untrusted { arguments += ["-untrusted", TestCertificates.path(file)] }
        if let host = scenario.host {
            arguments += [Self.isIPAddress(host) ? "-verify_ip" : "-verify_hostname", host]
        }
        switch scenario.purpose {
        case .server: arguments += ["-purpose", "sslserver"]
        case .client: arguments += ["-purpose", "sslclient"]
        case .none: break
        }
        return arguments + scenario.opensslOptions + [leafFile]
    }

    func opensslVerdict(_ scenario: Scenario, index: Int) throws -> Verdict {
        guard let openssl = Self.opensslPath else { throw XCTSkip("openssl is not installed") }
        let arguments = try opensslArguments(scenario, index: index)
        let (status, output) = try Self.run(openssl, arguments)
        let trusted = status == 0 && output.contains(": OK")
        let detail = output.split(separator: "\n").filter { $0.contains("error") || $0.contains("OK") }.joined(separator: " | ")
        return Verdict(trusted: trusted, detail: detail.isEmpty ? output : detail)
    }

    func swiftTrustVerdict(_ scenario: Scenario) throws -> Verdict {
        let presented = [try leafCertificate(scenario)] + (try scenario.untrusted.flatMap { try TestCertificates.certificates($0) })
        let policy: TrustPolicy
        switch scenario.purpose {
        case .server: policy = .ssl(server: true, hostname: scenario.host)
        case .client: policy = .ssl(server: false, hostname: scenario.host)
        case .none: policy = .basicX509
        }
        let trust = ServerTrust(certificates: presented, policies: [policy])
        trust.setAnchorCertificates(try scenario.anchors.flatMap { try TestCertificates.certificates($0) })
        trust.verifyDate = TestCertificates.verifyDate
        scenario.configure?(trust)
        let evaluation = trust.evaluate()
        return Verdict(trusted: evaluation.isTrusted, detail: evaluation.failures.map(\.description).joined(separator: " | "))
    }

    // MARK: - Tests

    func testScenarioNamesAreUniqueAndEveryDocumentedDisagreementIsAScenario() {
        let names = Self.scenarios.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "duplicate scenario names")
        for name in Self.deliberateDisagreements.keys {
            XCTAssertTrue(names.contains(name), "documented disagreement \"\(name)\" is not a scenario")
        }
    }

    func testVerdictsAgreeWithOpenSSLExceptForDocumentedDisagreements() throws {
        var undocumented: [String] = []
        var stale: [String] = []
        for (index, scenario) in Self.scenarios.enumerated() {
            let openssl = try opensslVerdict(scenario, index: index)
            let ours = try swiftTrustVerdict(scenario)
            let documented = Self.deliberateDisagreements[scenario.name] != nil
            if openssl.trusted != ours.trusted && !documented {
                undocumented.append(
                    "\(scenario.name): openssl \(openssl.trusted ? "trusts" : "rejects") (\(openssl.detail)), "
                        + "SwiftTrust \(ours.trusted ? "trusts" : "rejects") (\(ours.detail))")
            }
            if openssl.trusted == ours.trusted && documented {
                stale.append("\(scenario.name): both \(ours.trusted ? "trust" : "reject") now; remove it from the table")
            }
        }
        XCTAssertEqual(undocumented, [], "undocumented disagreements with openssl verify")
        XCTAssertEqual(stale, [], "documented disagreements that no longer disagree")
    }

    /// The sanity of the harness itself: a few verdicts that must hold on both sides.
    func testHarnessSanity() throws {
        let good = try XCTUnwrap(Self.scenarios.first { $0.name == "ecdsa chain" })
        XCTAssertTrue(try opensslVerdict(good, index: 1000).trusted)
        XCTAssertTrue(try swiftTrustVerdict(good).trusted)
        let expired = try XCTUnwrap(Self.scenarios.first { $0.name == "leaf-expired" })
        let opensslExpired = try opensslVerdict(expired, index: 1001)
        XCTAssertFalse(opensslExpired.trusted)
        XCTAssertTrue(opensslExpired.detail.contains("expired"), opensslExpired.detail)
        XCTAssertFalse(try swiftTrustVerdict(expired).trusted)
        // The tampered leaf really is written out and rejected by openssl on its signature.
        let tampered = try XCTUnwrap(Self.scenarios.first { $0.name == "tampered leaf signature" })
        let opensslTampered = try opensslVerdict(tampered, index: 1002)
        XCTAssertFalse(opensslTampered.trusted)
        XCTAssertTrue(opensslTampered.detail.contains("signature"), opensslTampered.detail)
    }

    func testEveryDisagreementIsInTheDocument() throws {
        let url = TestCertificates.repositoryRoot.appendingPathComponent("docs/openssl-differences.md")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return XCTFail("docs/openssl-differences.md is missing")
        }
        let text = String(decoding: data, as: UTF8.self)
        for name in Self.deliberateDisagreements.keys.sorted() {
            XCTAssertTrue(text.contains("| \(name) |"), "docs/openssl-differences.md lacks a row for \"\(name)\"")
        }
    }
}
