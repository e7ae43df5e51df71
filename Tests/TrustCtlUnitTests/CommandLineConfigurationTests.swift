import Foundation
import SwiftTrust
import TrustTestSupport
import XCTest
@testable import trustctl

/// Issue 42: every command builds its trusts' configuration with one pure function of its flags and
/// the files they name (`TrustConfiguration.commandLine`), and each flag lands in that one value.
final class CommandLineConfigurationTests: XCTestCase {
    private static let certificates = TestCertificates.directory
    private static func path(_ name: String) -> String { certificates.appendingPathComponent(name).path }

    private func configuration(_ arguments: [String]) throws -> TrustConfiguration {
        let verify = try Verify.parse([Self.path("ecdsa/chain.pem")] + arguments)
        return TrustConfiguration.commandLine(
            trust: verify.input.trust, loaded: try verify.input.trust.load(), certificatePolicies: verify.certificatePolicies,
            evaluation: verify.evaluation, revocationDocuments: try verify.evaluation.loadRevocationDocuments(),
            fetchesMissingIssuers: verify.network.fetchIssuers)
    }

    /// The base64 of 32 zero bytes and of 32 0xFF bytes.
    private static let zeroPin = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
    private static let onesPin = "//////////////////////////////////////////8="

    func testEveryFlagLandsInTheConfiguration() throws {
        let configuration = try configuration([
            "--anchors", Self.path("ecdsa/root.pem"), "--system-anchors", "--intermediates", Self.path("ecdsa/intermediate.pem"),
            "--at", "2026-06-01T00:00:00Z", "--profile", "webpki", "--enforce-anchor-constraints", "--max-depth", "3",
            "--allow-legacy-algorithms", "--policy-oid", "1.2.3.4", "--require-explicit-policy", "--inhibit-policy-mapping",
            "--inhibit-any-policy", "--revocation", "crl,no-network", "--crl", Self.path("revocation/intermediate-idp-other-dp.crl.pem"),
            "--ocsp-response", Self.path("revocation/good-leaf-good.ocsp"), "--fetch-issuers",
            "--key-usage", "digitalSignature,keyAgreement+keyEncipherment",
            "--leaf-spki-sha256", Self.zeroPin, "--leaf-spki-sha256", "sha256/" + Self.onesPin, "--ca-spki-sha256", Self.onesPin,
        ])
        let root = try Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: Self.path("ecdsa/root.pem")))))
        let intermediate = try Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: Self.path("ecdsa/intermediate.pem")))))
        XCTAssertEqual(configuration.anchors, root)
        XCTAssertFalse(configuration.anchorsOnly)
        XCTAssertEqual(configuration.additionalIntermediates, intermediate)
        XCTAssertEqual(configuration.verifyDate, ISO8601.parse("2026-06-01T00:00:00Z"))
        XCTAssertEqual(configuration.crls.count, 1)
        XCTAssertEqual(configuration.ocspResponses.count, 1)
        var expected = TrustOptions(profile: .webPKI, revocation: [.crl, .networkAccessDisabled])
        expected.enforcesAnchorConstraints = true
        expected.maximumDepth = 3
        expected.signaturePolicy = .legacy
        expected.initialPolicySet = [ASN1ObjectIdentifier(stringLiteral: "1.2.3.4")]
        expected.initialExplicitPolicy = true
        expected.initialPolicyMappingInhibit = true
        expected.initialAnyPolicyInhibit = true
        expected.fetchesMissingIssuers = true
        expected.requiredLeafKeyUsage = LeafKeyUsageRequirement(anyOf: [.digitalSignature, [.keyAgreement, .keyEncipherment]])
        expected.leafSPKISHA256 = [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xFF, count: 32)]
        expected.caSPKISHA256 = [[UInt8](repeating: 0xFF, count: 32)]
        XCTAssertEqual(configuration.options, expected)
    }

    func testNoFlagsIsTheDefaultConfiguration() throws {
        let configuration = try configuration([])
        XCTAssertNil(configuration.anchors)
        XCTAssertTrue(configuration.anchorsOnly)
        XCTAssertEqual(configuration.additionalIntermediates, [])
        XCTAssertNil(configuration.verifyDate)
        XCTAssertEqual(configuration.crls.count + configuration.ocspResponses.count, 0)
        // Apple's SSL policy is the role's policy, not an added profile; missing issuers only with --fetch-issuers.
        var expected = TrustOptions()
        expected.fetchesMissingIssuers = false
        XCTAssertEqual(configuration.options, expected)
    }

    /// `probe` and `serve` verify with settings that embed the same value `verify` builds.
    func testTransportSettingsEmbedTheCommandLineConfiguration() throws {
        let arguments = ["--anchors", Self.path("ecdsa/root.pem"), "--profile", "rfc5280", "--at", "2026-06-01T00:00:00Z"]
        let probe = try Probe.parse(["127.0.0.1:1"] + arguments)
        let settings = try probe.settings(inputs: try probe.trust.load(), fetcher: probe.network.fetcher)
        let expected = try configuration(arguments)
        XCTAssertEqual(settings.configuration.anchors, expected.anchors)
        XCTAssertEqual(settings.configuration.anchorsOnly, expected.anchorsOnly)
        XCTAssertEqual(settings.configuration.verifyDate, expected.verifyDate)
        XCTAssertEqual(settings.configuration.options, expected.options)
        XCTAssertNil(settings.configure, "nothing is applied to a trust outside the configuration")
    }

    /// One constructor maps profile × purpose × name to a policy: the command line's choice.
    func testThePolicyOfTheFlags() throws {
        let cases: [([String], TrustPolicy)] = [
            ([], .ssl(server: true, hostname: nil)),
            (["--host", "a.example", "--purpose", "client"], .ssl(server: false, hostname: "a.example")),
            (["--profile", "webpki", "--ip", "127.0.0.1"], .webPKI(server: true, hostname: "127.0.0.1")),
            (["--profile", "basic"], .basicX509),
            (["--profile", "basic", "--host", "a.example"], .profile(.basicX509, purpose: nil, hostname: "a.example")),
            (["--profile", "rfc5280"], .profile(.rfc5280, purpose: nil, hostname: nil)),
            (["--profile", "rfc5280-strict", "--purpose", "server"], .profile(.rfc5280Strict, purpose: .serverAuth, hostname: nil)),
        ]
        for (arguments, policy) in cases {
            let verify = try Verify.parse([Self.path("ecdsa/chain.pem")] + arguments)
            XCTAssertEqual(verify.input.policy, policy, "\(arguments)")
        }
    }
}
