import Foundation
import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// Every profile rule on generated certificates (TestCertificates/scenarios, section (p)): what the
/// RFC 5280 profiles (plain and strict), Apple's SSL policy and the web-PKI profile each accept and
/// reject, and why.
final class ProfileTests: XCTestCase {
    private let host = TestCertificates.host

    /// The verdict of `presented` under `policy` (anchored at `anchors`): nil when trusted, else the
    /// violated profile rules and the failure cases.
    private func verdict(_ presented: [String], anchors: [String] = ["ecdsa/root.pem"], _ policy: TrustPolicy) throws
        -> (rules: [ProfileRule], failures: [String])?
    {
        let evaluation = try TestCertificates.trust(presented, anchors: anchors, policies: [policy]).evaluate()
        return evaluation.isTrusted ? nil : (evaluation.violatedRules, failureSummary(evaluation))
    }

    private func assertProfiles(
        _ presented: [String], anchors: [String] = ["ecdsa/root.pem"], hostname: String? = TestCertificates.host,
        rfc5280: [ProfileRule]? = nil, rfc5280Strict: [ProfileRule]?, ssl: [ProfileRule]?, webPKI: [ProfileRule]?,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let cases: [(String, TrustPolicy, [ProfileRule]?)] = [
            ("rfc5280", .profile(.rfc5280, purpose: .serverAuth, hostname: hostname), rfc5280),
            ("rfc5280Strict", .profile(.rfc5280Strict, purpose: .serverAuth, hostname: hostname), rfc5280Strict),
            ("ssl", .ssl(server: true, hostname: hostname), ssl),
            ("webPKI", .webPKI(server: true, hostname: hostname), webPKI),
        ]
        for (name, policy, expected) in cases {
            let result = try verdict(presented, anchors: anchors, policy)
            if let expected {
                XCTAssertNotNil(result, "\(name): expected rejection for \(expected)", file: file, line: line)
                XCTAssertEqual(result?.rules, expected, "\(name): \(result?.failures ?? [])", file: file, line: line)
            } else {
                XCTAssertNil(result, "\(name): expected trust, got \(result?.failures ?? []) \(result?.rules ?? [])", file: file, line: line)
            }
        }
    }

    // MARK: - Private-PKI chains: Apple's SSL policy accepts, the web PKI rejects

    func testLeafWithoutAuthorityKeyIdentifier() throws {
        try assertProfiles(
            ["scenarios/leaf-no-aki.pem", "ecdsa/intermediate.pem"],
            rfc5280Strict: [.authorityKeyIdentifier], ssl: nil, webPKI: [.authorityKeyIdentifier])
    }

    func testCAWithNonCriticalBasicConstraints() throws {
        try assertProfiles(
            ["scenarios/leaf-under-noncritical-bc.pem", "scenarios/noncritical-bc-intermediate.pem"],
            rfc5280Strict: [.basicConstraintsCritical], ssl: nil, webPKI: [.basicConstraintsCritical])
    }

    func testNonCriticalPolicyConstraints() throws {
        try assertProfiles(
            ["scenarios/leaf-under-noncritical-pc.pem", "scenarios/noncritical-pc-intermediate.pem"],
            rfc5280Strict: [.policyConstraintsCritical], ssl: nil, webPKI: [.policyConstraintsCritical])
    }

    func testLeafWithoutSubjectAltNameWhenNoHostIsChecked() throws {
        try assertProfiles(
            ["scenarios/leaf-no-san.pem", "ecdsa/intermediate.pem"], hostname: nil,
            rfc5280Strict: nil, ssl: nil, webPKI: [.leafSubjectAltNameRequired])
    }

    func testCACertificateAsLeaf() throws {
        try assertProfiles(
            ["scenarios/leaf-is-ca.pem", "ecdsa/intermediate2.pem"], rfc5280Strict: nil, ssl: nil,
            webPKI: [.caCertificateAsLeaf])
    }

    // MARK: - Apple's SSL rules, which the RFC 5280 profile does not apply

    func testLeafValidFor900DaysBreaksApples825DayLimit() throws {
        try assertProfiles(
            ["scenarios/leaf-900-days.pem", "ecdsa/intermediate.pem"],
            rfc5280Strict: nil, ssl: [.leafValidityPeriod], webPKI: [.leafValidityPeriod])
    }

    func testLeafWithoutExtendedKeyUsageNeedsServerAuthForServersOnly() throws {
        try assertProfiles(
            ["scenarios/leaf-no-eku.pem", "ecdsa/intermediate.pem"],
            rfc5280Strict: nil, ssl: [.serverAuthExtendedKeyUsageRequired],
            webPKI: [.serverAuthExtendedKeyUsageRequired, .leafExtendedKeyUsage])
        // A TLS client certificate without extendedKeyUsage is fine (Apple: "eku extension is optional").
        XCTAssertNil(try verdict(["scenarios/leaf-no-eku.pem", "ecdsa/intermediate.pem"], .ssl(server: false, hostname: nil)))
    }

    func testAuthorityKeyIdentifierMustNameTheIssuersKey() throws {
        try assertProfiles(
            ["scenarios/leaf-aki-mismatch.pem", "ecdsa/intermediate.pem"],
            rfc5280Strict: nil, ssl: [.keyIdentifierLinkage], webPKI: [.keyIdentifierLinkage])
    }

    // MARK: - Anchors

    func testSelfSignedServerCertificateTrustedAsAnAnchorIsStillHeldToApplesServerRules() throws {
        // `openssl req -x509 -days 3650`: cA=TRUE, no EKU, ten years. Passed to setAnchorCertificates it
        // is an app anchor, which Apple exempts from nothing: SecPolicyCheckServerAuthEKU and
        // SecPolicyCheckOtherTrustValidityPeriod exempt only user/admin anchors (why iOS 13 refused such
        // certificates). RFC 5280 accepts it.
        let presented = ["scenarios/self-signed-server.pem"]
        try assertProfiles(
            presented, anchors: presented, rfc5280: nil, rfc5280Strict: nil,
            ssl: [.serverAuthExtendedKeyUsageRequired, .leafValidityPeriod],
            webPKI: [.serverAuthExtendedKeyUsageRequired, .leafValidityPeriod])
        // Not trusted when it is not an anchor, and then Apple's limits apply to it as to any leaf.
        let untrusted = try verdict(presented, .ssl(server: true, hostname: host))
        XCTAssertEqual(untrusted?.failures.last, "0:untrustedRoot")
        XCTAssertEqual(untrusted?.rules, [.serverAuthExtendedKeyUsageRequired, .leafValidityPeriod])
    }

    func testRootWithoutBasicConstraints() throws {
        // RFC 5280 §6.1.1 (d): an anchor is a name and a key; Apple checks every issuer's basicConstraints.
        let presented = ["scenarios/leaf-under-root-no-bc.pem"]
        let anchors = ["scenarios/root-no-bc.pem"]
        try assertProfiles(presented, anchors: anchors, rfc5280Strict: [.keyUsageConsistency], ssl: [], webPKI: [.keyUsageConsistency])
        XCTAssertEqual(try verdict(presented, anchors: anchors, .ssl(server: true, hostname: host))?.failures, ["1:notCA"])
    }

    func testExpiredRoot() throws {
        let presented = ["scenarios/leaf-under-expired-root.pem"]
        let anchors = ["scenarios/expired-root.pem"]
        try assertProfiles(presented, anchors: anchors, rfc5280Strict: [], ssl: [], webPKI: [])
        XCTAssertEqual(try verdict(presented, anchors: anchors, .ssl(server: true, hostname: host))?.failures, ["1:expired"])
        // Apple's BasicX509 checks the anchor's validity too (SecPolicyCheckTemporalValidity).
        XCTAssertEqual(failureSummary(try TestCertificates.trust(presented, anchors: anchors, policies: [.basicX509]).evaluate()), ["1:expired"])
        // RFC 5937: the caller may ask for the anchor's own constraints under RFC 5280 too.
        let trust = try TestCertificates.trust(presented, anchors: anchors, policies: [.profile(.rfc5280, purpose: nil, hostname: nil)])
        XCTAssertTrue(trust.evaluate().isTrusted)
        trust.options.enforcesAnchorConstraints = true
        XCTAssertEqual(failureSummary(trust.evaluate()), ["1:expired"])
    }

    // MARK: - Several policies: every one must pass (SecTrustSetPolicies)

    func testEveryPolicyMustPass() throws {
        let trust = try TestCertificates.trust(
            ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
            policies: [.ssl(server: true, hostname: host), .ssl(server: true, hostname: "other.example")])
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:hostnameMismatch"])
        trust.policies = [.ssl(server: true, hostname: "other.example"), .ssl(server: true, hostname: host)]
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:hostnameMismatch"])
        // A server-only leaf is not also a client certificate.
        trust.policies = [.ssl(server: true, hostname: host), .ssl(server: false, hostname: nil)]
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:extendedKeyUsageIncompatible"])
        // The strictest profile's rules apply: the web-PKI rule on a SAN-less leaf.
        let noSAN = try TestCertificates.trust(
            ["scenarios/leaf-no-san.pem", "ecdsa/intermediate.pem"],
            policies: [.ssl(server: true, hostname: nil), .webPKI(server: true, hostname: nil)])
        XCTAssertEqual(noSAN.evaluate().violatedRules, [.leafSubjectAltNameRequired])
        trust.policies = [.ssl(server: true, hostname: host), .basicX509]
        XCTAssertTrue(trust.evaluate().isTrusted)
    }

    // MARK: - Rule table

    func testEveryRuleHasASourceAndAProfileAndFitsTheRuleSet() {
        let rfc5280Only = ProfileRuleSet([.version1IssuersOnlyAsAnchors, .criticalExtensionsProcessed, .revocationProofForEveryCertificate])
        let rfc5280Rules = rfc5280Only.union(ProfileRuleSet([.extendedKeyUsagePurposeListed]))
        let svidRules = ProfileRuleSet([
            .svidSingleURI, .svidSPIFFEID, .svidLeafNotCA, .svidLeafDigitalSignature, .svidLeafNotSigner,
            .svidSigningCertificateKeyUsage,
        ])
        // Each rule's bit (its index in the append-only ProfileRule.bitOrder): ProfileRuleBitOrderTests.
        for rule in ProfileRule.allCases {
            XCTAssertFalse(rule.profiles.isEmpty, "\(rule)")
            XCTAssertFalse(rule.source.isEmpty, "\(rule)")
            // The web PKI applies every rule but RFC 5280's critical nameConstraints (CABF 7.1.2.5.2 allows
            // it non-critical), the RFC 5280 strictness where Apple allows more, and the X.509-SVID rules.
            XCTAssertEqual(
                TrustProfile.webPKI.rules.contains(rule),
                !rfc5280Only.contains(rule) && rule != .nameConstraintsCritical && !svidRules.contains(rule), "\(rule)")
        }
        XCTAssertEqual(TrustProfile.rfc5280.rules, rfc5280Rules)
        XCTAssertEqual(Array(ProfileRuleSet(ProfileRule.allCases)), ProfileRule.allCases)
    }

    func testDocsListEveryRuleWithItsProfiles() throws {
        let docs = try String(contentsOf: TestCertificates.repositoryRoot.appendingPathComponent("docs/profiles.md"), encoding: .utf8)
        for rule in ProfileRule.allCases {
            XCTAssertTrue(docs.contains("`\(rule.rawValue)`"), "docs/profiles.md does not list \(rule)")
        }
        XCTAssertTrue(docs.contains(ProfileRulesTable.markdown), "docs/profiles.md's table is stale: run scripts/update-profile-docs")
    }
}
