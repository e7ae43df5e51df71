import Foundation
@testable import TrustCore
import TrustCrypto
import TrustX509
import OpenSSLServerSupport
import TrustTestSupport
import XCTest

/// The default profiles decide as Apple's trustd does (issue 32), rule by rule, on certificates the
/// openssl CLI issues in the test: signature hashes, key sizes, BasicX509, and which roots exempt what.
/// Each test names the Apple function it follows (docs/research/apple-trustd-rules.md has the lines).
final class AppleVerdictsTests: XCTestCase {
    let host = "www.swifttrust.test"

    func serverLeafLines() -> [String] { OpenSSLIssuer.leafExtensions(subjectAltNames: ["DNS:\(host)"]) }

    func clientLeafLines() -> [String] {
        OpenSSLIssuer.leafExtensions(subjectAltNames: ["DNS:client.swifttrust.test"], eku: "clientAuth")
    }

    /// A CA's extensions (for a CA issued by the committed ECDSA root).
    let caLines = [
        "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
        "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
    ]

    /// `leaf` under the committed ECDSA intermediate and root (or the given ones), evaluated now.
    func evaluate(
        _ leaf: Certificate, intermediates: [Certificate]? = nil, anchors: [Certificate]? = nil, _ policy: TrustPolicy,
        signaturePolicy: SignaturePolicy = .default, at date: Date? = nil
    ) throws -> TrustEvaluation {
        let trust = try OpenSSLIssuer.trust(leaf, intermediates: intermediates, anchors: anchors, policies: [policy])
        trust.options.signaturePolicy = signaturePolicy
        if let date { trust.verifyDate = date }
        return trust.evaluate()
    }

    /// `chain` evaluated against `system` as the system trust store (no caller anchors unless given).
    func evaluate(
        _ chain: [Certificate], system: SystemTrustStore, anchors: [Certificate]? = nil,
        _ policy: TrustPolicy
    ) -> TrustEvaluation {
        let trust = ServerTrust(certificates: chain, policies: [policy])
        if let anchors { trust.setAnchorCertificates(anchors) }
        return TrustEngine.evaluate(EvaluationSnapshot(trust.snapshot)) { system }
    }

    /// A system store of the certificates in `files`, of which those also in `administratorFiles` were
    /// installed by an administrator (copied into a nested directory, as `update-ca-certificates` reads them).
    func systemStore(
        _ files: [String], administratorFiles: [String] = [], distributionFiles: [String] = [],
        in issuer: OpenSSLIssuer
    ) throws -> SystemTrustStore {
        let bundle = issuer.directory.appendingPathComponent("bundle-\(UUID().uuidString).pem")
        let text = try files.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        try text.write(to: bundle, atomically: true, encoding: .utf8)
        let administrator = issuer.directory.appendingPathComponent("local-\(UUID().uuidString)")
        let nested = administrator.appendingPathComponent("example-corp")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        for (index, file) in administratorFiles.enumerated() {
            try FileManager.default.copyItem(atPath: file, toPath: nested.appendingPathComponent("root\(index).crt").path)
        }
        let distribution = issuer.directory.appendingPathComponent("share-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: distribution, withIntermediateDirectories: true)
        for (index, file) in distributionFiles.enumerated() {
            try FileManager.default.copyItem(atPath: file, toPath: distribution.appendingPathComponent("root\(index).crt").path)
        }
        return try SystemTrustStore.load(
            environment: ["SSL_CERT_FILE": bundle.path], administratorDirectories: [administrator.path],
            distributionDirectories: [distribution.path])
    }

    // MARK: SHA-1: SecPolicyRemoveWeakHashOptions (SSL server only), SecPolicyCheckSignatureHashAlgorithms

    func testSHA1IsRefusedInTLSServerChainsOnly() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let server = try issuer.issue(commonName: host, extensions: serverLeafLines(), digest: "sha1").certificate
        let client = try issuer.issue(commonName: "client", extensions: clientLeafLines(), digest: "sha1").certificate

        let refused = try evaluate(server, .ssl(server: true, hostname: host))
        XCTAssertEqual(failureSummary(refused), ["0:profileViolation"], "\(refused)")
        XCTAssertEqual(refused.violatedRules, [.signatureHashAlgorithm])
        XCTAssertEqual(try evaluate(server, .webPKI(server: true, hostname: host)).violatedRules, [.signatureHashAlgorithm])
        // SSL client and BasicX509 keep SHA-1 (only the server policy removes it).
        assertTrusted(try evaluate(client, .ssl(server: false, hostname: nil)))
        assertTrusted(try evaluate(server, .basicX509))
        // The caller's opt-in waives the rule; the modern policy refuses the signature in every profile.
        assertTrusted(try evaluate(server, .ssl(server: true, hostname: host), signaturePolicy: .legacy))
        let modern = try evaluate(server, .basicX509, signaturePolicy: .modern)
        XCTAssertEqual(modern.failures.map(\.reason), [.signatureUnverifiable(.legacyAlgorithm("ecdsa-with-SHA1"))])
    }

    func testASelfSignedSHA1RootIsExemptAndANonSelfSignedAnchorIsNotUnlessAnAdministratorInstalledIt() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // A self-signed root signed with SHA-1: SecPolicyCheckCertSignatureHashAlgorithms skips it.
        let root = try issuer.issue(
            commonName: "SHA-1 Root", extensions: ProfileRuleCoverageTests.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem", digest: "sha1")
        let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: root.authority).certificate
        assertTrusted(try evaluate(leaf, intermediates: [], anchors: [root.certificate], .ssl(server: true, hostname: host)))

        // A CA the committed root signed with SHA-1, trusted directly: checked, as every caller anchor is…
        let ca = try issuer.issue(
            commonName: "SHA-1 CA", extensions: caLines, by: .root,
            key: "keys/ecdsa/intermediate2.key.pem", digest: "sha1")
        let below = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: ca.authority).certificate
        let asCallerAnchor = try evaluate(below, intermediates: [], anchors: [ca.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(failureSummary(asCallerAnchor), ["1:profileViolation"], "\(asCallerAnchor)")
        XCTAssertEqual(asCallerAnchor.violatedRules, [.signatureHashAlgorithm])
        // …but not when an administrator installed it (Apple skips a user/admin-anchored root).
        let administered = try systemStore([ca.authority.certificatePath], administratorFiles: [ca.authority.certificatePath], in: issuer)
        assertTrusted(evaluate([below], system: administered, .ssl(server: true, hostname: host)))
        let system = try systemStore([ca.authority.certificatePath], in: issuer)
        XCTAssertEqual(evaluate([below], system: system, .ssl(server: true, hostname: host)).violatedRules, [.signatureHashAlgorithm])
    }

    // MARK: Key sizes: SecCertificateIsWeakKey (every policy), SecPolicyAddStrongKeySizeOptions (SSL server)

    func testRSA1024IsWeakForTLSServersOnlyAndUnder1024Everywhere() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // An RSA-1024 CA signs the leaf: BasicX509 and SSL client verify it (Apple's minimum is 1024).
        let ca = try issuer.issue(commonName: "RSA-1024 CA", extensions: caLines, by: .root, key: try issuer.generateRSAKey(bits: 1024))
        let server = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: ca.authority).certificate
        let client = try issuer.issue(commonName: "client", extensions: clientLeafLines(), by: ca.authority).certificate
        assertTrusted(try evaluate(server, intermediates: [ca.certificate], .basicX509))
        assertTrusted(try evaluate(client, intermediates: [ca.certificate], .ssl(server: false, hostname: nil)))
        let refused = try evaluate(server, intermediates: [ca.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(failureSummary(refused), ["1:profileViolation"], "\(refused)")
        XCTAssertEqual(
            refused.failures.first?.reason, .profileViolation(ProfileViolation(.strongKeySize, .rsaKeyTooSmall(bits: 1024, minimumBits: 2048))))

        // An RSA-512 leaf is weak under every Apple policy, BasicX509 included; pure RFC 5280 has no such rule.
        let weak = try issuer.issue(commonName: host, extensions: serverLeafLines(), key: try issuer.generateRSAKey(bits: 512)).certificate
        let basic = try evaluate(weak, .basicX509)
        XCTAssertEqual(basic.failures.map(\.reason), [.profileViolation(ProfileViolation(.weakKeySize, .weakRSAKey(bits: 512)))])
        assertTrusted(try evaluate(weak, .profile(.rfc5280, purpose: nil, hostname: nil)))
    }

    func testEdDSAIsNotInTheServerKeySizeTableAndDSAIsWeak() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let ed25519 = try issuer.issue(commonName: host, extensions: serverLeafLines(), key: "keys/ed25519/leaf.key.pem").certificate
        let server = try evaluate(ed25519, .ssl(server: true, hostname: host))
        XCTAssertEqual(server.failures.map(\.reason), [.profileViolation(ProfileViolation(.strongKeySize, .keyNotInServerKeySizeTable("Ed25519")))])
        let client = try issuer.issue(commonName: "client", extensions: clientLeafLines(), key: "keys/ed25519/leaf.key.pem").certificate
        assertTrusted(try evaluate(client, .ssl(server: false, hostname: nil)))
        assertTrusted(try evaluate(ed25519, .basicX509))

        // SecCertificateIsWeakKey: `default: weak = true` for every key that is not RSA, EC or EdDSA.
        let dsa = try issuer.issue(commonName: host, extensions: serverLeafLines(), key: try issuer.generateDSAKey(bits: 2048)).certificate
        XCTAssertEqual(try evaluate(dsa, .basicX509).violatedRules, [.weakKeySize])
        XCTAssertTrue(try evaluate(dsa, .ssl(server: false, hostname: nil)).violatedRules.contains(.weakKeySize))
        assertTrusted(try evaluate(dsa, .profile(.rfc5280, purpose: nil, hostname: nil)))
    }

    func testP192AndP224MeetApplesEllipticCurveMinimumButNotTheServerTable() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // SecCertificateIsWeakKey: EC keys of at least 20 bytes are not weak; SecPolicyAddStrongKeySizeOptions: 256 bits for TLS servers.
        let p224 = try issuer.generateKey(algorithm: "EC", options: ["ec_paramgen_curve:secp224r1"])
        let ca = try issuer.issue(commonName: "P-224 CA", extensions: caLines, by: .root, key: p224)
        let p192 = try issuer.generateKey(algorithm: "EC", options: ["ec_paramgen_curve:prime192v1"])
        let server = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: ca.authority, key: p192).certificate
        let client = try issuer.issue(commonName: "client", extensions: clientLeafLines(), by: ca.authority, key: p192).certificate
        XCTAssertEqual(server.publicKeyDescription?.kind, .ec(curve: .p192))
        XCTAssertEqual(ca.certificate.publicKeyDescription?.kind, .ec(curve: .p224))
        // The P-224 CA's ECDSA signature verifies; BasicX509 and TLS clients accept both keys.
        assertTrusted(try evaluate(server, intermediates: [ca.certificate], .basicX509))
        assertTrusted(try evaluate(client, intermediates: [ca.certificate], .ssl(server: false, hostname: nil)))
        let refused = try evaluate(server, intermediates: [ca.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(
            refused.failures.map(\.reason),
            [
                .profileViolation(ProfileViolation(.strongKeySize, .ecKeyTooSmall(bits: 192, minimumBits: 256))),
                .profileViolation(ProfileViolation(.strongKeySize, .ecKeyTooSmall(bits: 224, minimumBits: 256))),
            ])
        // The web PKI allows P-256, P-384 and P-521 only (CABF 6.1.5).
        let webPKI = try evaluate(client, intermediates: [ca.certificate], .webPKI(server: false, hostname: nil))
        XCTAssertTrue(
            webPKI.failures.contains { $0.reason == .profileViolation(ProfileViolation(.keyAlgorithm, .curveNotAllowed("P-192"))) },
            "\(webPKI)")
    }

    // MARK: BasicX509: SecPolicyCreateBasicX509, SecPolicyCheckTemporalValidity on the anchor

    func testBasicX509RefusesAnExpiredAnchorWherePureRFC5280DoesNot() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let root = try issuer.issue(
            commonName: "Short Root", extensions: ProfileRuleCoverageTests.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem", days: 1)
        let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: root.authority, days: 30).certificate
        let later = Date().addingTimeInterval(3 * 86_400)
        let basic = try evaluate(leaf, intermediates: [], anchors: [root.certificate], .basicX509, at: later)
        XCTAssertEqual(failureSummary(basic), ["1:expired"], "\(basic)")
        assertTrusted(try evaluate(leaf, intermediates: [], anchors: [root.certificate], .profile(.rfc5280, purpose: nil, hostname: nil), at: later))
        XCTAssertEqual(TrustPolicy.basicX509.profile, .basicX509)
        XCTAssertEqual(TrustProfile(name: "basic"), .basicX509)
    }

    // MARK: Caller anchors get no exemption; administrators' roots do (SecPVCIsAnchorPerConstraints)

    func testATenYearSelfSignedServerCertificateFailsAsACallerAnchorAndPassesAsAnAdministratorsRoot() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // SecPolicyCheckOtherTrustValidityPeriod exempts only a leaf that is a user/admin anchor.
        let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: nil, days: 3650)
        let asCallerAnchor = try evaluate(leaf.certificate, intermediates: [], anchors: [leaf.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(asCallerAnchor.violatedRules, [.leafValidityPeriod], "\(asCallerAnchor)")
        let administered = try systemStore([leaf.authority.certificatePath], administratorFiles: [leaf.authority.certificatePath], in: issuer)
        assertTrusted(evaluate([leaf.certificate], system: administered, .ssl(server: true, hostname: host)))
        // The same certificate from the distribution's store is a system root: every rule applies.
        let system = try systemStore([leaf.authority.certificatePath], in: issuer)
        XCTAssertEqual(
            Set(evaluate([leaf.certificate], system: system, .ssl(server: true, hostname: host)).violatedRules),
            [.leafValidityPeriod, .systemTrustedLeafValidityPeriod])
    }

    func testServerAuthIsRequiredOfACallerAnchoredLeafButNotUnderAnAdministratorsRoot() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // SecPolicyCheckServerAuthEKU: skipped under a user/admin root only.
        let lines = [
            "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "subjectAltName = DNS:\(host)",
            "subjectKeyIdentifier = hash",
        ]
        let leaf = try issuer.issue(commonName: host, extensions: lines, by: nil)
        let asCallerAnchor = try evaluate(leaf.certificate, intermediates: [], anchors: [leaf.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(asCallerAnchor.violatedRules, [.serverAuthExtendedKeyUsageRequired], "\(asCallerAnchor)")
        let administered = try systemStore([leaf.authority.certificatePath], administratorFiles: [leaf.authority.certificatePath], in: issuer)
        assertTrusted(evaluate([leaf.certificate], system: administered, .ssl(server: true, hostname: host)))
    }

    func testAnRSA1024SelfSignedServerCertificateFailsTheKeySizeRuleAsACallerAnchor() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: nil, key: try issuer.generateRSAKey(bits: 1024))
        let asCallerAnchor = try evaluate(leaf.certificate, intermediates: [], anchors: [leaf.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(asCallerAnchor.violatedRules, [.strongKeySize], "\(asCallerAnchor)")
        let administered = try systemStore([leaf.authority.certificatePath], administratorFiles: [leaf.authority.certificatePath], in: issuer)
        assertTrusted(evaluate([leaf.certificate], system: administered, .ssl(server: true, hostname: host)))
    }

    // MARK: System roots by their bytes, however supplied (SecCertificateSourceContains(kSecSystemAnchorSource))

    func testASystemRootIsASystemRootEvenAsTheCallersOnlyAnchor() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let root = try issuer.issue(
            commonName: "Generated Root", extensions: ProfileRuleCoverageTests.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem")
        // 400 days: over Apple's 398 for system-trusted leaves, within the 825 for others.
        let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: root.authority, days: 400).certificate
        let system = try systemStore([root.authority.certificatePath], in: issuer)
        let policy = TrustPolicy.ssl(server: true, hostname: host)
        XCTAssertEqual(evaluate([leaf], system: system, policy).violatedRules, [.systemTrustedLeafValidityPeriod])
        XCTAssertEqual(evaluate([leaf], system: system, anchors: [root.certificate], policy).violatedRules, [.systemTrustedLeafValidityPeriod])
        // Installed by an administrator: a user anchor, outside the system-only limits.
        let administered = try systemStore([root.authority.certificatePath], administratorFiles: [root.authority.certificatePath], in: issuer)
        assertTrusted(evaluate([leaf], system: administered, policy))
        // A root in neither is the caller's: only the 825-day rule applies.
        let other = try systemStore([TestCertificates.path("ecdsa/root.pem")], in: issuer)
        assertTrusted(evaluate([leaf], system: other, anchors: [root.certificate], policy))
    }

    func testTheSystemStoreRecordsWhichRootsAnAdministratorInstalled() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let distribution = TestCertificates.path("ecdsa/root.pem")
        let local = try issuer.issue(
            commonName: "Local Root", extensions: ProfileRuleCoverageTests.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem")
        // Not in the bundle: a file left in the administrators' directory classifies nothing, trusts nothing.
        let stray = try issuer.issue(
            commonName: "Stray Root", extensions: ProfileRuleCoverageTests.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem")
        let store = try systemStore(
            [distribution, local.authority.certificatePath],
            administratorFiles: [local.authority.certificatePath, stray.authority.certificatePath], in: issuer)
        XCTAssertEqual(store.store.certificates.count, 2)
        XCTAssertEqual(store.administratorRoots.certificates, [local.certificate])
        XCTAssertEqual(store.source(of: try TestCertificates.certificate("ecdsa/root.pem")), .system)
        XCTAssertEqual(store.source(of: local.certificate), .administrator)
        XCTAssertEqual(store.source(of: stray.certificate), .caller)
        // A distribution root an administrator also copied into the local directory stays a system root
        // (trustd asks its system source first): copying a public root there exempts nothing.
        let both = try systemStore(
            [distribution, local.authority.certificatePath],
            administratorFiles: [distribution, local.authority.certificatePath],
            distributionFiles: [distribution], in: issuer)
        XCTAssertEqual(both.administratorRoots.certificates, [local.certificate])
        XCTAssertEqual(both.source(of: try TestCertificates.certificate("ecdsa/root.pem")), .system)
    }

    // MARK: Anchors are the exact certificates given (SecCertificateSourceContains: by bytes)

    func testAPresentedLookAlikeOfAnAnchoredLeafIsJudgedOnItsOwnFields() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // `openssl req -x509` style (cA TRUE, no keyUsage): the caller trusts X; the server presents X',
        // the same name and key, re-issued for another name.
        func selfSigned(_ name: String) -> [String] {
            [
                "basicConstraints = critical, CA:TRUE", "extendedKeyUsage = serverAuth", "subjectAltName = DNS:\(name)",
                "subjectKeyIdentifier = hash",
            ]
        }
        let pinned = try issuer.issue(commonName: host, extensions: selfSigned(host), by: nil).certificate
        let lookAlike = try issuer.issue(commonName: host, extensions: selfSigned("other.swifttrust.test"), by: nil).certificate
        XCTAssertNotEqual(pinned, lookAlike)
        // Not the anchor: its own subjectAltName is checked, with the anchor (same key) as its issuer.
        let evaluation = try evaluate(lookAlike, intermediates: [], anchors: [pinned], .ssl(server: true, hostname: host))
        XCTAssertEqual(failureSummary(evaluation), ["0:hostnameMismatch"], "\(evaluation)")
        XCTAssertEqual(evaluation.chain, [lookAlike, pinned])
        // Valid for the host, it is trusted as Apple trusts it: [X', X].
        let renewed = try issuer.issue(commonName: host, extensions: selfSigned(host), by: nil).certificate
        assertTrusted(
            try evaluate(renewed, intermediates: [], anchors: [pinned], .ssl(server: true, hostname: host)),
            chain: [renewed, pinned])
        // A non-CA anchor cannot be anyone's issuer (SecPVCParentCertificateChecks): a look-alike of it fails.
        let leafOnly = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: nil).certificate
        let leafOnlyAgain = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: nil).certificate
        let notAnIssuer = try evaluate(leafOnlyAgain, intermediates: [], anchors: [leafOnly], .ssl(server: true, hostname: host))
        XCTAssertEqual(failureSummary(notAnIssuer), ["1:notCA", "1:missingKeyCertSign"], "\(notAnIssuer)")
        assertTrusted(try evaluate(leafOnly, intermediates: [], anchors: [leafOnly], .ssl(server: true, hostname: host)))
    }

    func testAPresentedLookAlikeOfAnAnchoredIntermediateIsPassedOverForTheAnchor() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let anchor = try issuer.issue(commonName: "Look-alike CA", extensions: caLines, by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let presented = try issuer.issue(commonName: "Look-alike CA", extensions: caLines, by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        XCTAssertNotEqual(anchor.certificate, presented.certificate)
        let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: presented.authority).certificate
        // The leaf's issuer is found among the anchors first (trustd searches anchor sources before
        // parents): the accepted chain ends at the caller's own bytes, not the presented copy.
        let evaluation = try evaluate(
            leaf, intermediates: [presented.certificate], anchors: [anchor.certificate],
            .ssl(server: true, hostname: host))
        assertTrusted(evaluation, chain: [leaf, anchor.certificate])
    }

    // MARK: Chains as Apple builds them (SecPVCParentCertificateChecks, SecCertificateInitializeExtensionParsers)

    func testVersion1IntermediatesBelowAVersion1AnchorUnlessTheProfileAppliesVersion1IssuersOnlyAsAnchors() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // A leaf without authorityKeyIdentifier: its v1 issuer has no subjectKeyIdentifier to name.
        let lines = [
            "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = serverAuth",
            "subjectAltName = DNS:\(host)", "subjectKeyIdentifier = hash",
        ]
        let root = try issuer.issueVersion1(commonName: "Version 1 Root", by: nil, key: "keys/ecdsa/root.key.pem")
        let intermediate = try issuer.issueVersion1(commonName: "Version 1 CA", by: root.authority, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(commonName: host, extensions: lines, by: intermediate.authority).certificate
        for policy in [TrustPolicy.ssl(server: true, hostname: host), .basicX509] {
            assertTrusted(try evaluate(leaf, intermediates: [intermediate.certificate], anchors: [root.certificate], policy))
        }
        for profile in [TrustProfile.rfc5280, .rfc5280Strict] {
            XCTAssertTrue(profile.rules.contains(.version1IssuersOnlyAsAnchors))
            let evaluation = try evaluate(
                leaf, intermediates: [intermediate.certificate], anchors: [root.certificate],
                .profile(profile, purpose: .serverAuth, hostname: host))
            XCTAssertTrue(failureSummary(evaluation).contains("1:versionNotAllowed"), "\(profile): \(evaluation)")
        }
        // Below a v3 anchor, Apple refuses a v1 intermediate too.
        let underVersion3 = try issuer.issueVersion1(commonName: "Version 1 CA", by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf3 = try issuer.issue(commonName: host, extensions: lines, by: underVersion3.authority).certificate
        let refused = try evaluate(leaf3, intermediates: [underVersion3.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(failureSummary(refused), ["1:versionNotAllowed"], "\(refused)")
    }

    func testCriticalExtensionsTrustdParsesAreNotUnknownUnlessTheProfileAppliesCriticalExtensionsProcessed() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        for (name, line) in [
            ("Netscape certificate type", "nsCertType = critical, server"),
            ("QCStatements", "1.3.6.1.5.5.7.1.3 = critical, DER:30:0A:30:08:06:06:04:00:8E:46:01:01"),
            ("privateKeyUsagePeriod", "2.5.29.16 = critical, DER:30:00"),
        ] {
            let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines() + [line]).certificate
            for policy in [TrustPolicy.ssl(server: true, hostname: host), .basicX509] {
                assertTrusted(try evaluate(leaf, policy))
            }
            let strict = try evaluate(leaf, .profile(.rfc5280, purpose: .serverAuth, hostname: host))
            XCTAssertEqual(failureSummary(strict), ["0:unhandledCriticalExtension"], "\(name): \(strict)")
            XCTAssertTrue(TrustProfile.rfc5280.rules.contains(.criticalExtensionsProcessed))
        }
        // One trustd's parser refuses (an empty QCStatements) makes the certificate unusable there too.
        let emptyQC = try issuer.issue(commonName: host, extensions: serverLeafLines() + ["1.3.6.1.5.5.7.1.3 = critical, DER:30:00"]).certificate
        XCTAssertEqual(failureSummary(try evaluate(emptyQC, .ssl(server: true, hostname: host))), ["0:unhandledCriticalExtension"])
        // An extension trustd does not know is unknown everywhere.
        let unknown = try issuer.issue(commonName: host, extensions: serverLeafLines() + ["1.3.6.1.4.1.99999.1 = critical, DER:05:00"]).certificate
        XCTAssertEqual(failureSummary(try evaluate(unknown, .ssl(server: true, hostname: host))), ["0:unhandledCriticalExtension"])
    }

    func testServerGatedCryptographyStandsForServerAuthWhereTheStrictRuleDoesNotApplyUnlessExtendedKeyUsagePurposeListed() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // set_ssl_ekus: Microsoft and Netscape SGC satisfy the SSL server EKU check; SecPolicyCheckServerAuthEKU
        // still wants serverAuth itself, except under a user/admin root.
        let lines = [
            "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = msSGC",
            "subjectAltName = DNS:\(host)", "subjectKeyIdentifier = hash",
        ]
        let leaf = try issuer.issue(commonName: host, extensions: lines, by: nil)
        let asCallerAnchor = try evaluate(leaf.certificate, intermediates: [], anchors: [leaf.certificate], .ssl(server: true, hostname: host))
        XCTAssertEqual(failureSummary(asCallerAnchor), ["0:profileViolation"], "\(asCallerAnchor)")
        XCTAssertEqual(asCallerAnchor.violatedRules, [.serverAuthExtendedKeyUsageRequired])
        let administered = try systemStore([leaf.authority.certificatePath], administratorFiles: [leaf.authority.certificatePath], in: issuer)
        assertTrusted(evaluate([leaf.certificate], system: administered, .ssl(server: true, hostname: host)))
        // RFC 5280 takes only the purpose itself.
        XCTAssertTrue(TrustProfile.rfc5280.rules.contains(.extendedKeyUsagePurposeListed))
        let rfc = try evaluate(
            leaf.certificate, intermediates: [], anchors: [leaf.certificate],
            .profile(.rfc5280, purpose: .serverAuth, hostname: host))
        XCTAssertEqual(failureSummary(rfc), ["0:extendedKeyUsageIncompatible"], "\(rfc)")
    }

    func testNoFixedDepthCapTheBudgetBoundsTheChain() throws {
        // MAX_CHAIN_LENGTH in SecTrustServer.c is never used: nine intermediates are a chain like any other.
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        var authority = OpenSSLIssuer.Authority.root
        var intermediates: [Certificate] = []
        for level in 1...9 {
            let ca = try issuer.issue(commonName: "Level \(level) CA", extensions: caLines, by: authority, key: "keys/ecdsa/intermediate2.key.pem")
            intermediates.insert(ca.certificate, at: 0)
            authority = ca.authority
        }
        let leaf = try issuer.issue(commonName: host, extensions: serverLeafLines(), by: authority).certificate
        let trust = try OpenSSLIssuer.trust(leaf, intermediates: intermediates, policies: [.ssl(server: true, hostname: host)])
        XCTAssertEqual(trust.options.maximumDepth, ServerTrust.defaultMaximumDepth)
        assertTrusted(trust.evaluate())
        // The budget's path length is the bound (leaf + 9 + root = 11 certificates).
        trust.options.budget.maximumPathLength = 10
        XCTAssertEqual(trust.evaluate().failures.map(\.reason), [.maximumDepthExceeded(limit: 8)])
        // A caller's own depth still applies.
        trust.options.budget = VerificationBudget()
        trust.options.maximumDepth = 8
        XCTAssertEqual(trust.evaluate().failures.map(\.reason), [.maximumDepthExceeded(limit: 8)])
    }

    // MARK: Revocation as Apple requires it

    func testRequirePositiveResponseAsksProofOfTheLeafOnlyUnlessTheProfileAppliesRevocationProofForEveryCertificate() throws {
        // SecPVCPathCheckRevocationResponsesReceived requires a response for index 0: the
        // intermediate's status may stay unknown. Only the leaf's CRL is supplied here.
        let flags: RevocationOptions = [.crl, .requirePositiveResponse, .networkAccessDisabled]
        let apple = try RevocationKit.trust("revocation/good-leaf.pem", options: flags, crls: ["intermediate-current"])
        assertTrusted(apple.evaluate())
        XCTAssertTrue(RevocationKit.isUnknown(RevocationKit.status(apple.evaluate(), 1)))
        XCTAssertTrue(TrustProfile.rfc5280.rules.contains(.revocationProofForEveryCertificate))
        let rfc = try RevocationKit.trust("revocation/good-leaf.pem", options: flags, crls: ["intermediate-current"])
        rfc.policies = [.profile(.rfc5280, purpose: .serverAuth, hostname: TestCertificates.host), .revocation(flags)]
        XCTAssertEqual(failureSummary(rfc.evaluate()), ["1:revocationUnavailable"])
        // Without the leaf's CRL, Apple's requirement fails the leaf.
        let none = try RevocationKit.trust("revocation/good-leaf.pem", options: flags, crls: ["root-empty"])
        XCTAssertEqual(failureSummary(none.evaluate()), ["0:revocationUnavailable"])
    }

    func testASHA1SignedOCSPResponseIsAcceptedAsApplesSecOCSPResponseVerifySignatureAcceptsIt() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(
            commonName: host, extensions: serverLeafLines() + ["authorityInfoAccess = OCSP;URI:http://ocsp.swifttrust.test"],
            serial: "0x5A17ED"
        ).certificate
        let directory = issuer.directory.path
        let leafPath = directory + "/ocsp-leaf.pem"
        try leaf.pemEncoded.write(toFile: leafPath, atomically: true, encoding: .utf8)
        // openssl ocsp's index.txt: status, expiry, revocation, serial, file, subject.
        let index = directory + "/index.txt"
        try "V\t351231000000Z\t\t5A17ED\tunknown\t/CN=\(host)\n".write(toFile: index, atomically: true, encoding: .utf8)
        let request = directory + "/request.der", response = directory + "/response.der"
        let intermediate = OpenSSLIssuer.Authority.intermediate
        try issuer.runOpenSSL(["ocsp", "-issuer", intermediate.certificatePath, "-cert", leafPath, "-no_nonce", "-reqout", request])
        try issuer.runOpenSSL([
            "ocsp", "-index", index, "-CA", intermediate.certificatePath, "-rsigner", intermediate.certificatePath,
            "-rkey", intermediate.keyPath, "-reqin", request, "-respout", response, "-rmd", "sha1", "-ndays", "2",
        ])
        let ocsp = try OCSPResponse(derEncoded: Array(try Data(contentsOf: URL(fileURLWithPath: response))))
        let flags: RevocationOptions = [.ocsp, .requirePositiveResponse, .networkAccessDisabled]
        let trust = try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: true, hostname: host), .revocation(flags)])
        trust.setOCSPResponses([ocsp])
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        guard case .good? = RevocationKit.status(evaluation, 0) else { return XCTFail("\(evaluation.revocationStatuses)") }
        // The modern policy refuses SHA-1 in every signature, the response's included: no proof, hard fail.
        trust.options.signaturePolicy = .modern
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:revocationUnavailable"])
    }
}
