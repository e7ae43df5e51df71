import Foundation
import NIOSSL
import OpenSSLServerSupport
import TrustCore
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 30, part 1: what the user configured (revocation, a profile) is enforced by every judge,
/// in process and over real TLS against `openssl s_server`. Each judge is asked about a revoked leaf
/// and a leaf without authorityKeyIdentifier under hard-fail revocation, soft-fail revocation,
/// `webPKI` and `rfc5280`; its verdict must be the plain evaluation's, and the verdicts the fixtures
/// are made for (revoked is rejected whenever revocation is checked; no AKI is rejected under the
/// web PKI) must hold. Before the fix, every judge but `.evaluate` accepted both.
final class ConfiguredOptionsEnforcementTests: LoopbackTestCase {
    /// The revoked leaf (revoked by `revocation/intermediate-current.crl`) and its intermediate.
    static let revokedChain = ["revocation/revoked-leaf.pem", "ecdsa/intermediate.pem"]
    /// A leaf without authorityKeyIdentifier (web PKI rejects, SSL and RFC 5280 accept) and its intermediate.
    static let noAKIChain = ["scenarios/leaf-no-aki.pem", "ecdsa/intermediate.pem"]

    enum Fixture: CaseIterable {
        case revoked, noAKI
        var files: [String] { self == .revoked ? ConfiguredOptionsEnforcementTests.revokedChain : ConfiguredOptionsEnforcementTests.noAKIChain }
        var key: String {
            self == .revoked
                ? TestCertificates.path("revocation/keys/revoked-leaf.key.pem") : TestCertificates.keyPath(of: "scenarios/leaf-no-aki.pem")
        }
    }

    enum Setting: String, CaseIterable {
        case hardFail, softFail, webPKI, rfc5280
    }

    /// Settings trusting the ECDSA test root at the pinned date, with the CRLs of the intermediate
    /// and the root supplied, plus `setting`.
    static func settings(_ setting: Setting) throws -> TLSTrustSettings {
        var settings = try TestCertificates.settings()
        let crls = try ["revocation/intermediate-current.crl", "revocation/root-empty.crl"].flatMap {
            try CertificateRevocationList.loadAll(from: Array(Data(contentsOf: TestCertificates.directory.appendingPathComponent($0))))
        }
        switch setting {
        case .hardFail: settings.revocation = [.useAnyAvailableMethod, .requirePositiveResponse, .networkAccessDisabled]
        case .softFail: settings.revocation = [.useAnyAvailableMethod, .networkAccessDisabled]
        case .webPKI: settings.options.profile = .webPKI
        case .rfc5280: settings.options.profile = .rfc5280
        }
        settings.configure = { trust in trust.setCRLs(crls) }
        return settings
    }

    /// What the fixtures are made for: nil where only "same as the plain evaluation" is asserted.
    static func expectedAcceptance(_ fixture: Fixture, _ setting: Setting) -> Bool? {
        switch (fixture, setting) {
        case (.revoked, .hardFail), (.revoked, .softFail), (.noAKI, .webPKI): return false
        case (.noAKI, .hardFail), (.noAKI, .softFail), (.noAKI, .rfc5280), (.revoked, .rfc5280): return true
        case (.revoked, .webPKI): return nil
        }
    }

    /// Every judge the transport offers, each configured so that its pins match the fixtures (the
    /// intermediate, which both chains share, is pinned).
    static func judges() throws -> [(name: String, judge: TLSTrustJudge)] {
        let intermediate = try TestCertificates.certificates("ecdsa/intermediate.pem")
        // The RSA root's key is the backup pin (not in these chains) that SPKI pinning requires.
        let backup = try TestCertificates.certificates("rsa/root.pem")
        let spki = try PinnedSPKIHashesTrustEvaluator(pins: (intermediate + backup).map(\.spkiPin))
        let domain = try DomainPinningPolicy(
            domain: TestCertificates.host,
            requirements: [
                PinRequirement(scope: .certificateAuthority, pins: (intermediate + backup).map { SPKIPin(certificate: $0) })
            ])
        var certificatePolicy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: intermediate)
        certificatePolicy.validatesDomainName = true
        let keyPolicy = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: intermediate)
        let manager = try ServerTrustManager(evaluators: [TestCertificates.host: spki])
        return [
            ("evaluate", .evaluate),
            ("DefaultTrustEvaluator", .evaluator(DefaultTrustEvaluator())),
            ("DefaultTrustEvaluator(validateHost: false)", .evaluator(DefaultTrustEvaluator(validateHost: false))),
            ("RevocationTrustEvaluator", .evaluator(RevocationTrustEvaluator())),
            ("PinnedCertificatesTrustEvaluator", .evaluator(PinnedCertificatesTrustEvaluator(certificates: intermediate))),
            (
                "PinnedCertificatesTrustEvaluator(no default validation)",
                .evaluator(PinnedCertificatesTrustEvaluator(certificates: intermediate, performDefaultValidation: false))
            ),
            ("PublicKeysTrustEvaluator", .evaluator(PublicKeysTrustEvaluator(keys: intermediate.map(\.publicKeyInfo)))),
            ("PinnedSPKIHashesTrustEvaluator", .evaluator(spki)),
            ("CompositeTrustEvaluator", .evaluator(CompositeTrustEvaluator(evaluators: [DefaultTrustEvaluator(), spki]))),
            ("ServerTrustManager", .evaluator(manager)),
            ("ConfiguredPinningTrustEvaluator", .evaluator(ConfiguredPinningTrustEvaluator(policy: domain))),
            ("SecurityPolicy(.none)", .securityPolicy(.default)),
            ("SecurityPolicy(.certificate)", .securityPolicy(certificatePolicy)),
            ("SecurityPolicy(.publicKey)", .securityPolicy(keyPolicy)),
            ("challenges: performDefaultHandling", .challenges(ServerTrustChallengeSession())),
            ("challenges: ServerTrustManager", .challenges(ServerTrustChallengeSession(authority: .serverTrustManager(manager)))),
            ("challenges: SecurityPolicy", .challenges(ServerTrustChallengeSession(authority: .securityPolicy(keyPolicy)))),
            (
                "challenges: useCredential without evaluating",
                .challenges(ServerTrustChallengeSession(sessionHandler: { _ in .useCredential }))
            ),
            ("CustomTrustEvaluator accepting without evaluating", .evaluator(CustomTrustEvaluator { _, _ in })),
        ]
    }

    /// A judge's expected verdict given the plain evaluation's: the same, except that the revocation
    /// evaluator checks revocation (with the supplied CRLs) even where the settings do not.
    static func expected(_ plainAccepts: Bool, _ judge: String, _ fixture: Fixture) -> Bool {
        judge == "RevocationTrustEvaluator" && fixture == .revoked ? false : plainAccepts
    }

    // MARK: - In process

    func testEveryJudgeEnforcesTheConfiguredRevocationAndProfileInProcess() async throws {
        for fixture in Fixture.allCases {
            let presented = try fixture.files.flatMap(TestCertificates.certificates)
            for setting in Setting.allCases {
                let settings = try Self.settings(setting)
                let plain = try await TLSTrustVerifier(settings: settings).verify(presented, role: .server(host: TestCertificates.host))
                if let expected = Self.expectedAcceptance(fixture, setting) {
                    XCTAssertEqual(plain.isTrusted, expected, "plain evaluation, \(fixture) under \(setting): \(plain)")
                }
                for (name, judge) in try Self.judges() {
                    let verifier = try TLSTrustVerifier(settings: settings, judge: judge)
                    let outcome = await verifier.verify(presented, role: .server(host: TestCertificates.host))
                    XCTAssertEqual(
                        outcome.isTrusted, Self.expected(plain.isTrusted, name, fixture),
                        "\(name), \(fixture) under \(setting): \(outcome)")
                    if fixture == .revoked, setting == .hardFail || setting == .softFail, case let .rejected(failure) = outcome {
                        XCTAssertTrue(
                            contains(failure.trustFailures, index: 0) { if case .revoked = $0 { true } else { false } },
                            "\(name) names the revoked leaf: \(failure)")
                    }
                    if fixture == .noAKI, setting == .webPKI, case let .rejected(failure) = outcome {
                        XCTAssertTrue(
                            contains(failure.trustFailures, index: 0) {
                                if case let .profileViolation(violation) = $0 { violation.rule == .authorityKeyIdentifier } else { false }
                            }, "\(name) names the missing authorityKeyIdentifier: \(failure)")
                    }
                }
            }
        }
    }

    // MARK: - Refused when configured

    func testJudgesThatAcceptWithoutEvaluatingAreRefusedWithOptions() throws {
        let intermediate = try TestCertificates.certificates("ecdsa/intermediate.pem")
        var lenient = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: intermediate)
        lenient.allowInvalidCertificates = true
        let skipping: [TLSTrustJudge] = [
            .evaluator(DisabledTrustEvaluator()),
            .evaluator(PinnedCertificatesTrustEvaluator(certificates: intermediate, performDefaultValidation: false, validateHost: false)),
            .evaluator(PublicKeysTrustEvaluator(keys: intermediate.map(\.publicKeyInfo), performDefaultValidation: false, validateHost: false)),
            .evaluator(
                try PinnedSPKIHashesTrustEvaluator(
                    pins: (intermediate + TestCertificates.certificates("rsa/root.pem")).map(\.spkiPin),
                    performDefaultValidation: false, validateHost: false)),
            .evaluator(try ServerTrustManager(evaluators: ["other.test": DisabledTrustEvaluator()])),
            .securityPolicy(lenient),
        ]
        for setting in Setting.allCases {
            let settings = try Self.settings(setting)
            for judge in skipping {
                XCTAssertThrowsError(try TLSTrustVerifier(settings: settings, judge: judge), "\(judge) under \(setting)") { error in
                    guard case let .judgeSkipsEvaluation(_, options)? = error as? TLSTrustConfigurationError else {
                        return XCTFail("\(error)")
                    }
                    XCTAssertEqual(options, settings.trustOptions)
                }
                // Without options the same judges are accepted: they are Alamofire's and AFNetworking's own.
                XCTAssertNoThrow(try TLSTrustVerifier(settings: try TestCertificates.settings(), judge: judge))
            }
        }
    }

    func testEvaluatorsRefuseToSkipEvaluationOfATrustWithOptions() throws {
        let intermediate = try TestCertificates.certificates("ecdsa/intermediate.pem")
        let trust = ServerTrust(certificates: try Self.revokedChain.flatMap(TestCertificates.certificates))
        trust.options.revocation = [.networkAccessDisabled]
        for evaluator: any ServerTrustEvaluating in [
            DisabledTrustEvaluator(),
            PinnedCertificatesTrustEvaluator(certificates: intermediate, performDefaultValidation: false, validateHost: false),
        ] {
            XCTAssertThrowsError(try evaluator.evaluate(trust, forHost: TestCertificates.host)) { error in
                guard case .optionsNotEnforceable(TestCertificates.host, _, trust.options)? = error as? ServerTrustFailureReason else {
                    return XCTFail("\(error)")
                }
            }
        }
        var lenient = SecurityPolicy(pinningMode: .none)
        lenient.allowInvalidCertificates = true
        lenient.validatesDomainName = false
        XCTAssertThrowsError(try lenient.evaluateWithError(trust, forDomain: nil)) { error in
            XCTAssertEqual(error as? SecurityPolicyFailure, .optionsNotEnforceable(options: trust.options))
        }
    }

    func testAnEvaluatorReplacingThePoliciesKeepsTheTrustOptions() throws {
        let trust = ServerTrust(certificates: try Self.revokedChain.flatMap(TestCertificates.certificates))
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = TestCertificates.verifyDate
        trust.setCRLs(
            try CertificateRevocationList.loadAll(
                from: Array(Data(contentsOf: TestCertificates.directory.appendingPathComponent("revocation/intermediate-current.crl")))))
        XCTAssertNoThrow(try DefaultTrustEvaluator().evaluate(trust, forHost: TestCertificates.host), "no revocation configured: accepted")
        trust.options.revocation = [.networkAccessDisabled]
        XCTAssertThrowsError(try DefaultTrustEvaluator().evaluate(trust, forHost: TestCertificates.host)) { error in
            XCTAssertTrue(
                contains((error as? ServerTrustFailureReason)?.trustFailures ?? [], index: 0) {
                    if case .revoked = $0 { true } else { false }
                }, "\(error)")
        }
        XCTAssertTrue(trust.policies.allSatisfy { if case .ssl = $0 { true } else { false } }, "the evaluator set its policy: \(trust.policies)")
        XCTAssertEqual(trust.options.revocation, [.networkAccessDisabled], "and kept the options")
        XCTAssertEqual(trust.lastEvaluation?.enforced.revocation, [.networkAccessDisabled])
    }

    // MARK: - Over real TLS against openssl s_server

    func testEveryJudgeEnforcesTheConfiguredRevocationAndProfileOverTLS() throws {
        for fixture in Fixture.allCases {
            let server: OpenSSLServer
            do {
                server = try OpenSSLServer(
                    certificate: TestCertificates.path(fixture.files[0]), key: fixture.key,
                    chain: fixture.files.dropFirst().map(TestCertificates.path))
            } catch OpenSSLServer.StartError.opensslMissing {
                throw XCTSkip("openssl is not installed")
            }
            defer { server.stop() }
            for setting in Setting.allCases {
                let settings = try Self.settings(setting)
                let plain = try connect(port: server.port, verifier: try TLSTrustVerifier(settings: settings))
                if let expected = Self.expectedAcceptance(fixture, setting) {
                    XCTAssertEqual(plain.error == nil, expected, "plain evaluation, \(fixture) under \(setting): \(String(describing: plain.error))")
                }
                for (name, judge) in try Self.judges() {
                    let result = try connect(port: server.port, verifier: try TLSTrustVerifier(settings: settings, judge: judge))
                    XCTAssertEqual(
                        result.error == nil, Self.expected(plain.error == nil, name, fixture),
                        "\(name), \(fixture) under \(setting): \(String(describing: result.error))")
                    if result.error != nil {
                        XCTAssertNotNil(rejection(result), "\(name): the rejection carries the reason")
                    }
                }
            }
        }
    }
}

extension TLSTrustOutcome {
    /// Whether the peer was accepted.
    var isTrusted: Bool { if case .trusted = self { true } else { false } }
}
