import Dispatch
import Foundation
import TrustCore
import TrustCrypto
import TrustX509
import TrustTestSupport
import XCTest

/// One test per trust rule, each over the TestCertificates scenarios at the pinned verify date
/// (2026-06-01T00:00:00Z). Every negative test asserts the result, the exact failure cases and the
/// index of the certificate each one names. Every evaluation runs with the caches as earlier tests
/// left them, with caches off and with caches emptied, and must come out identical each time
/// (``ServerTrust/evaluateInEveryCacheMode(file:line:)``).
final class ScenarioTests: XCTestCase {
    private let host = TestCertificates.host
    private func cert(_ path: String) throws -> Certificate { try TestCertificates.certificate(path) }

    // MARK: - Good chains

    func testGoodECDSAChainIsTrustedLeafIntermediateRoot() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        assertTrusted(
            trust.evaluateInEveryCacheMode(), chain: [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")])
    }

    func testGoodRSAChainIsTrusted() throws {
        let trust = try TestCertificates.trust(["rsa/leaf.pem", "rsa/intermediate.pem"], anchors: ["rsa/root.pem"])
        assertTrusted(
            trust.evaluateInEveryCacheMode(), chain: [try cert("rsa/leaf.pem"), try cert("rsa/intermediate.pem"), try cert("rsa/root.pem")])
    }

    func testGoodEd25519ChainIsTrustedWhereApplesKeySizeTableDoesNotApply() throws {
        let chain = [try cert("ed25519/leaf.pem"), try cert("ed25519/intermediate.pem"), try cert("ed25519/root.pem")]
        let trust = try TestCertificates.trust(["ed25519/leaf.pem", "ed25519/intermediate.pem"], anchors: ["ed25519/root.pem"])
        // SecPolicyCheckKeySize: Apple's TLS server table lists RSA and EC only, so every EdDSA key fails it.
        let server = trust.evaluateInEveryCacheMode()
        assertNotTrusted(server, .recoverableTrustFailure, failures: ["0:profileViolation", "1:profileViolation", "2:profileViolation"])
        XCTAssertEqual(Set(server.violatedRules), [.strongKeySize])
        for policy in [TrustPolicy.basicX509, .profile(.rfc5280, purpose: .serverAuth, hostname: TestCertificates.host)] {
            trust.policies = [policy]
            assertTrusted(trust.evaluateInEveryCacheMode(), chain: chain)
        }
    }

    func testChainFromTheWrongRootIsUntrusted() throws {
        // The anchor set matters: the ECDSA chain does not reach the RSA root.
        let evaluation = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"], anchors: ["rsa/root.pem"])
            .evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:issuerNotFound"])
    }

    // MARK: - Host names and IP addresses

    func testMultiDNSLeafMatchesEverySANAndNothingElse() throws {
        for name in ["api.swifttrust.test", "www.swifttrust.test", "swifttrust.test", "API.SwiftTrust.Test"] {
            let trust = try TestCertificates.trust(
                ["ecdsa/leaf-multi-dns.pem", "ecdsa/intermediate.pem"],
                policies: [.ssl(server: true, hostname: name)])
            assertTrusted(trust.evaluateInEveryCacheMode())
        }
        let trust = try TestCertificates.trust(
            ["ecdsa/leaf-multi-dns.pem", "ecdsa/intermediate.pem"],
            policies: [.ssl(server: true, hostname: "mail.swifttrust.test")])
        let evaluation = trust.evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
        XCTAssertEqual(
            evaluation.failures.first?.reason,
            .hostnameMismatch(
                expected: "mail.swifttrust.test",
                presented: ["DNS:api.swifttrust.test", "DNS:www.swifttrust.test", "DNS:swifttrust.test"]))
    }

    func testWildcardMatchesExactlyOneLabel() throws {
        func evaluate(_ name: String) throws -> TrustEvaluation {
            try TestCertificates.trust(
                ["ecdsa/leaf-wildcard.pem", "ecdsa/intermediate.pem"],
                policies: [.ssl(server: true, hostname: name)]
            ).evaluateInEveryCacheMode()
        }
        assertTrusted(try evaluate("a.swifttrust.test"))
        assertTrusted(try evaluate("www.swifttrust.test"))
        assertNotTrusted(try evaluate("swifttrust.test"), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
        assertNotTrusted(try evaluate("a.b.swifttrust.test"), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
    }

    func testIPAddressLeafMatchesIPv4AndIPv6SANs() throws {
        func evaluate(_ name: String) throws -> TrustEvaluation {
            try TestCertificates.trust(
                ["ecdsa/leaf-ip.pem", "ecdsa/intermediate.pem"],
                policies: [.ssl(server: true, hostname: name)]
            ).evaluateInEveryCacheMode()
        }
        assertTrusted(try evaluate("192.0.2.10"))
        assertTrusted(try evaluate("2001:db8::10"))
        assertTrusted(try evaluate("2001:DB8:0:0:0:0:0:10")) // same address, other spelling
        assertNotTrusted(try evaluate("192.0.2.11"), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
        assertNotTrusted(try evaluate("2001:db8::11"), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
        // The IP leaf has no DNS names; its CN (an IP) is never consulted for a DNS identity.
        assertNotTrusted(try evaluate(host), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
    }

    func testHostnameIsCheckedOnlyWhenGiven() throws {
        // The same leaf, with a host name it does not carry, passes when no host name is asked for.
        assertTrusted(
            try TestCertificates.trust(
                ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
                policies: [.ssl(server: true, hostname: nil)]
            ).evaluateInEveryCacheMode())
        assertNotTrusted(
            try TestCertificates.trust(
                ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
                policies: [.ssl(server: true, hostname: "api.swifttrust.test")]
            ).evaluateInEveryCacheMode(),
            .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
    }

    func testInvalidReferenceIdentityIsReported() throws {
        let evaluation = try TestCertificates.trust(
            ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
            policies: [.ssl(server: true, hostname: "not a host name")]
        ).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:invalidReferenceIdentity"])
        XCTAssertEqual(evaluation.failures.first?.reason, .invalidReferenceIdentity("not a host name"))
    }

    func testLeafWithoutSANFailsHostnameAndCommonNameIsNotUsed() throws {
        // Apple's SSL policy matches SAN only (no common-name fallback); the missing SAN itself is a
        // web-PKI rule (CABF 7.1.2.7.12).
        let trust = try TestCertificates.trust(["ecdsa/leaf-no-san.pem", "ecdsa/intermediate.pem"])
        let evaluation = trust.evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
        XCTAssertEqual(evaluation.failures.first?.reason, .hostnameMismatch(expected: host, presented: []))
        trust.policies = [.webPKI(server: true, hostname: host)]
        let strict = trust.evaluateInEveryCacheMode()
        assertNotTrusted(strict, .recoverableTrustFailure, failures: ["0:profileViolation", "0:hostnameMismatch"])
        XCTAssertEqual(strict.violatedRules, [.leafSubjectAltNameRequired])
        // The full chain was built; only the leaf's names are at fault.
        XCTAssertEqual(evaluation.chain.count, 3)
    }

    func testCommonNameFallbackMatchesTheHostAndWaivesTheSANRequirement() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf-no-san.pem", "ecdsa/intermediate.pem"])
        trust.options.allowsCommonNameFallback = true
        // Opting into legacy CN matching is a decision about SAN-less leaves: the CABF "leaf has no
        // SAN" rule is waived and the CN satisfies the host-name check.
        XCTAssertTrue(trust.evaluateInEveryCacheMode().isTrusted, "\(trust.evaluateInEveryCacheMode())")

        // The fallback never lets a CN match a different host.
        trust.policies = [.ssl(server: true, hostname: "api.swifttrust.test")]
        assertNotTrusted(trust.evaluateInEveryCacheMode(), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])

        // Without the TLS policy (RFC 5280 only) the no-SAN leaf is a valid certificate.
        trust.policies = [.basicX509]
        assertTrusted(trust.evaluateInEveryCacheMode())
    }

    // MARK: - Validity

    func testExpiredLeafIsRecoverableOnIndex0() throws {
        let leaf = try cert("ecdsa/leaf-expired.pem")
        let evaluation = try TestCertificates.trust(["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:expired"])
        XCTAssertEqual(evaluation.failures.first?.reason, .expired(notAfter: leaf.notAfter))
        XCTAssertEqual(evaluation.failures.first?.subject, leaf.subject.description)
    }

    func testVerifyDateMovesTheValidityWindow() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        trust.verifyDate = Date(timeIntervalSince1970: 1_593_561_600) // 2020-07-01: inside 2020–2021 but before the CA's 2024 notBefore
        let evaluation = trust.evaluateInEveryCacheMode()
        // The leaf is fine then; the intermediate and root were not yet valid.
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:notYetValid", "2:notYetValid"])
    }

    func testNotYetValidLeaf() throws {
        let leaf = try cert("ecdsa/leaf-not-yet-valid.pem")
        let evaluation = try TestCertificates.trust(
            ["ecdsa/leaf-not-yet-valid.pem", "ecdsa/intermediate.pem"],
            policies: [.basicX509]
        ).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:notYetValid"])
        XCTAssertEqual(evaluation.failures.first?.reason, .notYetValid(notBefore: leaf.notBefore))
        // (Under the SSL policy its 2090-2099 lifetime also breaks Apple's 825-day limit.)
        let ssl = try TestCertificates.trust(["ecdsa/leaf-not-yet-valid.pem", "ecdsa/intermediate.pem"]).evaluate()
        XCTAssertEqual(ssl.violatedRules, [.leafValidityPeriod])
    }

    func testExpiredIntermediateIsNamedAtIndex1() throws {
        let intermediate = try cert("scenarios/expired-intermediate.pem")
        let evaluation = try TestCertificates.trust(["scenarios/leaf-under-expired-intermediate.pem", "scenarios/expired-intermediate.pem"])
            .evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:expired"])
        XCTAssertEqual(evaluation.failures.first?.reason, .expired(notAfter: intermediate.notAfter))
        XCTAssertEqual(evaluation.failures.first?.subject, intermediate.subject.description)
    }

    // MARK: - Self-signed leaves, other issuers

    func testSelfSignedLeafIsUntrustedUnlessItIsTheAnchor() throws {
        let leaf = try cert("ecdsa/self-signed-leaf.pem")
        let untrusted = try TestCertificates.trust(["ecdsa/self-signed-leaf.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(untrusted, .recoverableTrustFailure, failures: ["0:untrustedRoot"])

        let trusted = try TestCertificates.trust(["ecdsa/self-signed-leaf.pem"], anchors: ["ecdsa/self-signed-leaf.pem"]).evaluateInEveryCacheMode()
        assertTrusted(trusted, chain: [leaf])
    }

    func testLeafUnderIntermediate2() throws {
        let evaluation = try TestCertificates.trust(["ecdsa/leaf-intermediate2.pem", "ecdsa/intermediate2.pem"]).evaluateInEveryCacheMode()
        assertTrusted(evaluation, chain: [try cert("ecdsa/leaf-intermediate2.pem"), try cert("ecdsa/intermediate2.pem"), try cert("ecdsa/root.pem")])
        // The intermediate of another hierarchy branch does not stand in for intermediate 2.
        let wrong = try TestCertificates.trust(["ecdsa/leaf-intermediate2.pem", "ecdsa/intermediate.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(wrong, .recoverableTrustFailure, failures: ["0:issuerNotFound"])
    }

    // MARK: - CA rules (RFC 5280 §6.1.4)

    func testPathLengthConstraintViolationNamesThePathLen0CA() throws {
        let evaluation = try TestCertificates.trust([
            "scenarios/pathlen-violation-leaf.pem", "scenarios/pathlen-sub-ca.pem",
            "scenarios/pathlen0-ca.pem",
        ]).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["2:pathLengthExceeded"])
        XCTAssertEqual(evaluation.failures.first?.reason, .pathLengthExceeded(limit: 0))
        XCTAssertEqual(evaluation.failures.first?.subject, try cert("scenarios/pathlen0-ca.pem").subject.description)
        XCTAssertEqual(evaluation.chain.count, 4)
    }

    func testIssuerThatIsNotACA() throws {
        let trust = try TestCertificates.trust(["scenarios/leaf-under-not-ca.pem", "scenarios/not-ca-intermediate.pem"])
        // RFC 5280 (k) under every profile ...
        assertNotTrusted(trust.evaluateInEveryCacheMode(), .recoverableTrustFailure, failures: ["1:notCA"])
        // ... plus, under the web PKI, the RFC 5280 §4.2.1.9 rule that keyCertSign needs cA.
        trust.policies = [.webPKI(server: true, hostname: host)]
        let strict = trust.evaluateInEveryCacheMode()
        assertNotTrusted(strict, .recoverableTrustFailure, failures: ["1:notCA", "1:profileViolation"])
        XCTAssertEqual(strict.violatedRules, [.keyUsageConsistency])
    }

    func testIssuerWithoutKeyCertSign() throws {
        let evaluation = try TestCertificates.trust(["scenarios/leaf-under-no-keycertsign.pem", "scenarios/no-keycertsign-intermediate.pem"])
            .evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:missingKeyCertSign"])
    }

    func testV1IntermediateIsNotAllowed() throws {
        let evaluation = try TestCertificates.trust(["scenarios/leaf-under-v1.pem", "scenarios/v1-intermediate.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:versionNotAllowed"])
        XCTAssertEqual(evaluation.failures.first?.reason, .versionNotAllowed(version: 1))
        // Also without the web-PKI profile: RFC 5280 alone rejects a v1 intermediate.
        let basic = try TestCertificates.trust(["scenarios/leaf-under-v1.pem", "scenarios/v1-intermediate.pem"], policies: [.basicX509])
            .evaluateInEveryCacheMode()
        assertNotTrusted(basic, .recoverableTrustFailure, failures: ["1:versionNotAllowed"])
    }

    func testUnknownCriticalExtensionOnTheLeaf() throws {
        let evaluation = try TestCertificates.trust(["scenarios/unknown-critical-ext-leaf.pem", "ecdsa/intermediate.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:unhandledCriticalExtension"])
        XCTAssertEqual(evaluation.failures.first?.reason, .unhandledCriticalExtension(name: "1.3.6.1.4.1.55555.1"))
    }

    func testLeafClaimingCAIsAcceptedAsRFC5280Allows() throws {
        // Policy decision (RFC 5280 and OpenSSL allow a CA certificate as the end entity).
        let evaluation = try TestCertificates.trust(["scenarios/leaf-is-ca.pem", "ecdsa/intermediate2.pem"]).evaluateInEveryCacheMode()
        assertTrusted(evaluation, chain: [try cert("scenarios/leaf-is-ca.pem"), try cert("ecdsa/intermediate2.pem"), try cert("ecdsa/root.pem")])
    }

    // MARK: - Name constraints

    func testNameConstraintsPermittedLeafIsTrusted() throws {
        assertTrusted(try TestCertificates.trust(["scenarios/nc-leaf-ok.pem", "scenarios/nc-intermediate.pem"]).evaluateInEveryCacheMode())
    }

    func testNameConstraintsExcludedSubtree() throws {
        let evaluation = try TestCertificates.trust(
            ["scenarios/nc-leaf-excluded.pem", "scenarios/nc-intermediate.pem"],
            policies: [.ssl(server: true, hostname: "x.bad.swifttrust.test")]
        ).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:nameConstraintViolation"])
        guard case let .nameConstraintViolation(name, breach, constrainingCertificate) = evaluation.failures.first?.reason else {
            return XCTFail("\(evaluation)")
        }
        XCTAssertEqual(name, "DNS:x.bad.swifttrust.test")
        XCTAssertEqual(breach, .insideExcludedSubtree(.dnsName("bad.swifttrust.test")))
        XCTAssertEqual(constrainingCertificate, 1)
    }

    func testNameConstraintsOutsidePermittedDNSSubtree() throws {
        let evaluation = try TestCertificates.trust(
            ["scenarios/nc-leaf-outside.pem", "scenarios/nc-intermediate.pem"],
            policies: [.ssl(server: true, hostname: "www.example.org")]
        ).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:nameConstraintViolation"])
        guard case let .nameConstraintViolation(name, .outsidePermittedSubtrees(permitted), _) = evaluation.failures.first?.reason else {
            return XCTFail("\(evaluation)")
        }
        XCTAssertEqual(name, "DNS:www.example.org")
        XCTAssertTrue(permitted.contains(.dnsName("swifttrust.test")), "\(permitted)")
    }

    func testNameConstraintsIPOutsidePermittedSubtree() throws {
        let evaluation = try TestCertificates.trust(["scenarios/nc-leaf-ip-outside.pem", "scenarios/nc-intermediate.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:nameConstraintViolation"])
        guard case let .nameConstraintViolation(name, _, _) = evaluation.failures.first?.reason else { return XCTFail("\(evaluation)") }
        XCTAssertEqual(name, "IP:198.51.100.1")
    }

    func testNameConstraintsApplyWithoutTheTLSPolicyToo() throws {
        // RFC 5280 path validation alone enforces name constraints.
        let evaluation = try TestCertificates.trust(["scenarios/nc-leaf-excluded.pem", "scenarios/nc-intermediate.pem"], policies: [.basicX509])
            .evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:nameConstraintViolation"])
    }

    // MARK: - Cross-signing and backtracking

    func testCrossSignedLeafWithBothIntermediatesIsTrustedViaRoot() throws {
        let trust = try TestCertificates.trust([
            "scenarios/cross-leaf.pem", "scenarios/cross-intermediate-by-root.pem",
            "scenarios/cross-intermediate-by-root2.pem",
        ])
        assertTrusted(
            trust.evaluateInEveryCacheMode(),
            chain: [
                try cert("scenarios/cross-leaf.pem"), try cert("scenarios/cross-intermediate-by-root.pem"),
                try cert("ecdsa/root.pem"),
            ])
    }

    func testCrossSignedLeafWithOnlyRoot2AsAnchorIsTrustedViaRoot2() throws {
        let trust = try TestCertificates.trust(
            [
                "scenarios/cross-leaf.pem", "scenarios/cross-intermediate-by-root.pem",
                "scenarios/cross-intermediate-by-root2.pem",
            ], anchors: ["scenarios/root2.pem"])
        assertTrusted(
            trust.evaluateInEveryCacheMode(),
            chain: [
                try cert("scenarios/cross-leaf.pem"), try cert("scenarios/cross-intermediate-by-root2.pem"),
                try cert("scenarios/root2.pem"),
            ])
    }

    func testExpiredCrossCertificateFirstWithOnlyRoot2FailsNamingExpiry() throws {
        // The only path to root2 goes through the expired twin; the valid twin leads to root, which is not trusted.
        let expired = try cert("scenarios/cross-intermediate-expired-by-root2.pem")
        let trust = try TestCertificates.trust(
            [
                "scenarios/cross-leaf.pem", "scenarios/cross-intermediate-expired-by-root2.pem",
                "scenarios/cross-intermediate-by-root.pem",
            ], anchors: ["scenarios/root2.pem"])
        let evaluation = trust.evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:expired"])
        XCTAssertEqual(evaluation.failures.first?.reason, .expired(notAfter: expired.notAfter))
        XCTAssertEqual(evaluation.chain, [try cert("scenarios/cross-leaf.pem"), expired, try cert("scenarios/root2.pem")])
        // Both paths were explored.
        XCTAssertEqual(Set(evaluation.attempts.map(\.outcome)), [.invalid, .deadEnd])
    }

    func testExpiredCrossCertificateFirstWithBothRootsIsPassedOverForTheValidTwin() throws {
        let trust = try TestCertificates.trust(
            [
                "scenarios/cross-leaf.pem", "scenarios/cross-intermediate-expired-by-root2.pem",
                "scenarios/cross-intermediate-by-root.pem",
            ], anchors: ["scenarios/root2.pem", "ecdsa/root.pem"])
        let evaluation = trust.evaluateInEveryCacheMode()
        assertTrusted(
            evaluation,
            chain: [
                try cert("scenarios/cross-leaf.pem"), try cert("scenarios/cross-intermediate-by-root.pem"),
                try cert("ecdsa/root.pem"),
            ])
        // Sent first, but expired at the verify date: the valid twin is tried before any signature is
        // spent on it, and the first path tried is the valid one.
        XCTAssertEqual(evaluation.attempts.map(\.outcome), [.valid])
        XCTAssertEqual(evaluation.signatureChecks, 2)
    }

    func testExpiredCrossCertificateFirstSkippedForTheValidTwinToRoot2() throws {
        let trust = try TestCertificates.trust(
            [
                "scenarios/cross-leaf.pem", "scenarios/cross-intermediate-expired-by-root2.pem",
                "scenarios/cross-intermediate-by-root2.pem",
            ], anchors: ["scenarios/root2.pem"])
        assertTrusted(
            trust.evaluateInEveryCacheMode(),
            chain: [
                try cert("scenarios/cross-leaf.pem"), try cert("scenarios/cross-intermediate-by-root2.pem"),
                try cert("scenarios/root2.pem"),
            ])
    }

    // MARK: - Extended key usage

    func testLeafWithoutServerAuthFailsTheServerPolicy() throws {
        let evaluation = try TestCertificates.trust(["ecdsa/leaf-no-serverauth.pem", "ecdsa/intermediate.pem"]).evaluateInEveryCacheMode()
        // RFC 5280 §4.2.1.12, and Apple's explicit-serverAuth rule for leaves issued since 2019-07-01.
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:profileViolation", "0:extendedKeyUsageIncompatible"])
        XCTAssertEqual(evaluation.violatedRules, [.serverAuthExtendedKeyUsageRequired])
        XCTAssertEqual(evaluation.failures.last?.reason, .extendedKeyUsageIncompatible(purpose: "serverAuth"))
        // It is a clientAuth leaf: fine for the client policy.
        assertTrusted(
            try TestCertificates.trust(
                ["ecdsa/leaf-no-serverauth.pem", "ecdsa/intermediate.pem"],
                policies: [.ssl(server: false, hostname: nil)]
            ).evaluateInEveryCacheMode())
    }

    func testClientLeafIsTrustedForTheClientPolicyOnly() throws {
        assertTrusted(
            try TestCertificates.trust(
                ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"],
                policies: [.ssl(server: false, hostname: nil)]
            ).evaluateInEveryCacheMode())
        let server = try TestCertificates.trust(
            ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"],
            policies: [.ssl(server: true, hostname: nil)]
        ).evaluateInEveryCacheMode()
        assertNotTrusted(server, .recoverableTrustFailure, failures: ["0:profileViolation", "0:extendedKeyUsageIncompatible"])
        // A server leaf is not a client certificate.
        let serverLeafAsClient = try TestCertificates.trust(
            ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
            policies: [.ssl(server: false, hostname: nil)]
        ).evaluateInEveryCacheMode()
        assertNotTrusted(serverLeafAsClient, .recoverableTrustFailure, failures: ["0:extendedKeyUsageIncompatible"])
        XCTAssertEqual(serverLeafAsClient.failures.first?.reason, .extendedKeyUsageIncompatible(purpose: "clientAuth"))
    }

    func testCodeSigningCAMayNotIssueServerCertificates() throws {
        // EKU chaining: the intermediate's EKU (codeSigning only) does not allow serverAuth.
        let evaluation = try TestCertificates.trust(["scenarios/leaf-under-codesigning-ca.pem", "scenarios/eku-codesigning-intermediate.pem"])
            .evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:extendedKeyUsageIncompatible"])
        XCTAssertEqual(evaluation.failures.first?.reason, .extendedKeyUsageIncompatible(purpose: "serverAuth"))
        XCTAssertEqual(evaluation.failures.first?.subject, try cert("scenarios/eku-codesigning-intermediate.pem").subject.description)
        // Nor client certificates.
        let client = try TestCertificates.trust(
            ["scenarios/leaf-under-codesigning-ca.pem", "scenarios/eku-codesigning-intermediate.pem"],
            policies: [.ssl(server: false, hostname: nil)]
        ).evaluateInEveryCacheMode()
        XCTAssertTrue(failureSummary(client).contains("1:extendedKeyUsageIncompatible"), "\(client)")
        // Without a purpose (RFC 5280 path validation only) the CA's EKU restricts nothing.
        assertTrusted(
            try TestCertificates.trust(
                ["scenarios/leaf-under-codesigning-ca.pem", "scenarios/eku-codesigning-intermediate.pem"],
                policies: [.basicX509]
            ).evaluateInEveryCacheMode())
    }

    // MARK: - Algorithms and keys

    func testSHA1LeafIsRejectedByDefaultAndAcceptedWithTheLegacyPolicy() throws {
        let trust = try TestCertificates.trust(["scenarios/leaf-sha1.pem", "ecdsa/intermediate.pem"])
        let evaluation = trust.evaluateInEveryCacheMode()
        // Apple's SSL server policy refuses it (SecPolicyCheckSignatureHashAlgorithms, recoverable).
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:profileViolation"])
        XCTAssertEqual(
            evaluation.failures.first?.reason,
            .profileViolation(ProfileViolation(.signatureHashAlgorithm, .weakSignatureHash(algorithm: "ecdsa-with-SHA1"))))
        // Refused in every signature under the modern policy (and still by the server rule).
        trust.options.signaturePolicy = .modern
        XCTAssertEqual(trust.evaluateInEveryCacheMode().failures.first?.reason, .signatureUnverifiable(.legacyAlgorithm("ecdsa-with-SHA1")))
        trust.policies = [.basicX509]
        XCTAssertEqual(trust.evaluateInEveryCacheMode().failures.map(\.reason), [.signatureUnverifiable(.legacyAlgorithm("ecdsa-with-SHA1"))])
        trust.options.signaturePolicy = .default
        assertTrusted(trust.evaluateInEveryCacheMode())
        trust.policies = [.ssl(server: true, hostname: TestCertificates.host)]

        trust.options.signaturePolicy = .legacy
        assertTrusted(
            trust.evaluateInEveryCacheMode(),
            chain: [try cert("scenarios/leaf-sha1.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")])
    }

    func testRSA1024LeafIsRejectedByTheWebPKIProfileUnlessLegacyIsAllowed() throws {
        let trust = try TestCertificates.trust(["scenarios/leaf-rsa1024.pem", "ecdsa/intermediate.pem"])
        let evaluation = trust.evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:profileViolation"])
        guard case let .profileViolation(violation) = evaluation.failures.first?.reason else { return XCTFail("\(evaluation)") }
        XCTAssertEqual(violation, ProfileViolation(.strongKeySize, .rsaKeyTooSmall(bits: 1024, minimumBits: 2048)))
        // The explicit legacy option (SHA-1, RSA under 2048) also relaxes the profile's key-size rule, down to 1024.
        trust.options.signaturePolicy = .legacy
        XCTAssertTrue(trust.evaluateInEveryCacheMode().isTrusted, "\(trust.evaluateInEveryCacheMode())")
    }

    func testRSAPSSLeafUnderTheRSAIntermediate() throws {
        let evaluation = try TestCertificates.trust(["scenarios/leaf-pss.pem", "rsa/intermediate.pem"], anchors: ["rsa/root.pem"])
            .evaluateInEveryCacheMode()
        assertTrusted(evaluation, chain: [try cert("scenarios/leaf-pss.pem"), try cert("rsa/intermediate.pem"), try cert("rsa/root.pem")])
    }

    func testTamperedLeafSignatureIsFatal() throws {
        let leaf = try tamperedSignature(try cert("ecdsa/leaf.pem"))
        XCTAssertNotEqual(leaf, try cert("ecdsa/leaf.pem"))
        let trust = ServerTrust(certificates: [leaf, try cert("ecdsa/intermediate.pem")], policies: [.ssl(server: true, hostname: host)])
        trust.setAnchorCertificates([try cert("ecdsa/root.pem")])
        trust.verifyDate = TestCertificates.verifyDate
        let evaluation = trust.evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:signatureInvalid"])
        XCTAssertEqual(evaluation.failures.first?.reason, .signatureInvalid)
    }

    // MARK: - Other extensions

    func testMustStapleLeafIsTrusted() throws {
        assertTrusted(try TestCertificates.trust(["scenarios/leaf-must-staple.pem", "ecdsa/intermediate.pem"]).evaluateInEveryCacheMode())
    }

    func testLeafWithCertificatePoliciesIsTrusted() throws {
        assertTrusted(try TestCertificates.trust(["scenarios/leaf-policies.pem", "ecdsa/intermediate.pem"]).evaluateInEveryCacheMode())
    }

    // MARK: - Presented bundles

    func testWrongOrderBundleAfterTheLeafIsTrusted() throws {
        let chain = [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")]
        // The bundle is intermediate, leaf: after the leaf it only supplies the intermediate.
        assertTrusted(try TestCertificates.trust(["ecdsa/leaf.pem", "scenarios/chain-wrong-order.pem"]).evaluateInEveryCacheMode(), chain: chain)
        // Extras in any order: the builder picks the right issuer.
        assertTrusted(
            try TestCertificates.trust([
                "ecdsa/leaf.pem", "ecdsa/root.pem", "ecdsa/intermediate2.pem", "rsa/intermediate.pem",
                "ecdsa/intermediate.pem",
            ]).evaluateInEveryCacheMode(), chain: chain)
    }

    func testBundleWhoseFirstCertificateIsNotTheLeafEvaluatesThatCertificate() throws {
        // As with SecTrust, the first certificate is the one evaluated: here the intermediate, which
        // has no SAN and is not a server certificate for the host (no serverAuth, a CA's lifetime).
        let evaluation = try TestCertificates.trust(["scenarios/chain-wrong-order.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:profileViolation", "0:profileViolation", "0:hostnameMismatch"])
        XCTAssertEqual(evaluation.violatedRules, [.serverAuthExtendedKeyUsageRequired, .leafValidityPeriod])
        XCTAssertEqual(evaluation.chain.first, try cert("ecdsa/intermediate.pem"))
    }

    func testBundleWithRootIsTrustedAndTheRootAppearsOnce() throws {
        let evaluation = try TestCertificates.trust(["scenarios/chain-with-root.pem"]).evaluateInEveryCacheMode()
        assertTrusted(evaluation, chain: [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")])
    }

    func testBundleWithDuplicateIntermediateIsTrusted() throws {
        let evaluation = try TestCertificates.trust(["scenarios/chain-with-duplicate.pem"]).evaluateInEveryCacheMode()
        assertTrusted(evaluation, chain: [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")])
    }

    func testLeafOnlyWithoutIntermediateIsIssuerNotFound() throws {
        let evaluation = try TestCertificates.trust(["scenarios/chain-leaf-only.pem"]).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:issuerNotFound"])
        XCTAssertEqual(evaluation.chain, [try cert("ecdsa/leaf.pem")])
        // The missing intermediate can be supplied out of band.
        let trust = try TestCertificates.trust(["scenarios/chain-leaf-only.pem"])
        trust.additionalIntermediates = [try cert("ecdsa/intermediate.pem")]
        assertTrusted(trust.evaluateInEveryCacheMode())
    }

    // MARK: - Anchors

    func testAnchorsOnlyFalseKeepsCustomAnchorsAndAddsTheSystemStore() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        XCTAssertTrue(trust.anchorsOnly, "custom anchors replace the system store by default")
        trust.anchorsOnly = false
        assertTrusted(trust.evaluateInEveryCacheMode())

        // A system root, evaluated as itself, is trusted only once the system store is added.
        let verifyTime = Int64(TestCertificates.verifyTime)
        let systemStore = try SystemTrustStore.shared
        guard
            let systemRoot = systemStore.store.certificates.first(where: {
                $0.isSelfIssued && $0.notBefore.secondsSince1970 < verifyTime && verifyTime < $0.notAfter.secondsSince1970
            })
        else {
            throw XCTSkip("no system trust store on this machine (\(systemStore.source ?? "none found"))")
        }
        let system = ServerTrust(certificates: [systemRoot], policies: [.basicX509])
        system.setAnchorCertificates([try cert("ecdsa/root.pem")])
        system.verifyDate = TestCertificates.verifyDate
        assertNotTrusted(system.evaluateInEveryCacheMode(), .recoverableTrustFailure, failures: ["0:untrustedRoot"])
        system.anchorsOnly = false
        assertTrusted(system.evaluateInEveryCacheMode(), chain: [systemRoot])
    }

    func testWithoutCustomAnchorsTheTestRootIsNotTrusted() throws {
        // Only the system store is consulted, and it does not hold the test root.
        let trust = ServerTrust(
            certificates: [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem")],
            policies: [.ssl(server: true, hostname: host)])
        trust.verifyDate = TestCertificates.verifyDate
        XCTAssertNil(trust.anchorCertificates)
        assertNotTrusted(trust.evaluateInEveryCacheMode(), .recoverableTrustFailure, failures: ["1:issuerNotFound"])
    }

    // MARK: - Evaluation API

    func testNoCertificatesIsFatal() {
        let evaluation = ServerTrust(certificates: []).evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["-:noCertificates"])
        XCTAssertEqual(evaluation.chain, [])
    }

    func testMaximumDepthZeroRejectsAChainWithAnIntermediate() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        trust.options.maximumDepth = 0
        let evaluation = trust.evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:maximumDepthExceeded"])
        XCTAssertEqual(evaluation.failures.first?.reason, .maximumDepthExceeded(limit: 0))
        trust.options.maximumDepth = 1
        assertTrusted(trust.evaluateInEveryCacheMode())
        // Depth 0 still allows a leaf issued directly by an anchor.
        let direct = try TestCertificates.trust(["ecdsa/leaf.pem"], anchors: ["ecdsa/intermediate.pem"])
        direct.options.maximumDepth = 0
        assertTrusted(direct.evaluateInEveryCacheMode(), chain: [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem")])
    }

    func testEvaluateWithErrorThrowsTheSameFailures() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        let evaluation = trust.evaluateInEveryCacheMode()
        do {
            try trust.evaluateWithError()
            XCTFail("an expired leaf must throw")
        } catch {
            XCTAssertEqual(error.evaluation.failures, evaluation.failures)
            XCTAssertEqual(error.evaluation.result, .recoverableTrustFailure)
            XCTAssertEqual(failureSummary(error.evaluation), ["0:expired"])
            XCTAssertTrue(error.description.contains("expired"), error.description)
        }
        let good = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let trusted = try good.evaluateWithError()
        assertTrusted(trusted)
    }

    func testRevocationPolicyRequiringAPositiveResponseFailsClosedWithoutInformation() throws {
        // No CRL or OCSP response is supplied and evaluate() never uses the network: the status of the
        // leaf is unknown, which a hard-fail policy must not accept (Apple asks proof of the leaf,
        // SecPVCPathCheckRevocationResponsesReceived; the intermediate's unknown status is no failure).
        let trust = try TestCertificates.trust(
            ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
            policies: [
                .ssl(server: true, hostname: host),
                .revocation([.useAnyAvailableMethod, .requirePositiveResponse]),
            ])
        let evaluation = trust.evaluateInEveryCacheMode()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        // Everything else about the chain was fine.
        XCTAssertEqual(evaluation.chain.count, 3)
        trust.policies = [.ssl(server: true, hostname: host)]
        assertTrusted(trust.evaluateInEveryCacheMode())
    }

    func testRevocationPolicyWithoutPositiveResponseIsBestEffort() throws {
        // Apple's default revocation semantics: unknown status is accepted (soft fail) unless
        // requirePositiveResponse is set.
        let trust = try TestCertificates.trust(
            ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
            policies: [.ssl(server: true, hostname: host), .revocation(.useAnyAvailableMethod)])
        assertTrusted(trust.evaluateInEveryCacheMode())
    }

    func testLastEvaluationIsClearedByConfigurationChanges() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        XCTAssertNil(trust.lastEvaluation)
        let evaluation = trust.evaluateInEveryCacheMode()
        XCTAssertEqual(trust.lastEvaluation?.failures, evaluation.failures)
        XCTAssertEqual(trust.lastEvaluation?.result, .unspecified)
        trust.verifyDate = Date(timeIntervalSince1970: 4_102_444_800) // 2100-01-01: everything expired
        XCTAssertNil(trust.lastEvaluation)
        assertNotTrusted(trust.evaluateInEveryCacheMode(), .recoverableTrustFailure, failures: ["0:expired", "1:expired", "2:expired"])
    }

    func testConcurrentEvaluationOfOneTrustObject() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let expected = [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")]
        let results = ResultCollector()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5 {
                let evaluation = trust.evaluate()
                results.append(evaluation.result == .unspecified && evaluation.chain == expected && evaluation.failures.isEmpty)
            }
        }
        XCTAssertEqual(results.values.count, 40)
        XCTAssertTrue(results.values.allSatisfy { $0 })
        XCTAssertEqual(trust.lastEvaluation?.result, .unspecified)
    }
}

/// A lock-protected list, appended to from concurrent closures.
private final class ResultCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Bool] = []
    func append(_ value: Bool) { lock.lock(); storage.append(value); lock.unlock() }
    var values: [Bool] { lock.lock(); defer { lock.unlock() }; return storage }
}
