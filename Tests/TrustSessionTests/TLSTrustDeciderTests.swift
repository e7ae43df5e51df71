import Foundation
import TrustCore
import TrustDER
import TrustPinning
import TrustSession
import TrustX509
import TrustTestSupport
import XCTest

/// The decision layer on its own, with no transport (this target does not link NIO): what a
/// future transport adapter gets from `TLSTrustDecider`. Certificates from TestCertificates/
/// (scripts/make-test-certificates), verify date 2026-06-01.
final class TLSTrustDeciderTests: XCTestCase {
    private static let root = TestCertificates.directory
    private static let host = "www.swifttrust.test"

    private func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: Array(Data(contentsOf: Self.root.appendingPathComponent(relative))))
    }

    private func crl(_ name: String) throws -> CertificateRevocationList {
        try CertificateRevocationList(derEncoded: Array(Data(contentsOf: Self.root.appendingPathComponent("revocation/\(name).crl"))))
    }

    /// Settings that trust the test root only, at the verify date, with `revocation` checked
    /// against the named CRLs (supplied through `configure`, never fetched).
    private func settings(revocation: RevocationOptions? = nil, crls: [String] = []) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try certificates("ecdsa/root.pem"))
        settings.verifyDate = Date(timeIntervalSince1970: 1_780_272_000)
        settings.revocation = revocation
        let supplied = try crls.map(crl)
        if !supplied.isEmpty { settings.configure = { trust in trust.setCRLs(supplied) } }
        return settings
    }

    /// Judges, and the path builds each makes for a trusted peer: one, except AFNetworking's
    /// certificate pinning, which evaluates again with the pinned certificates as the only anchors
    /// (AFSecurityPolicy's `evaluateServerTrust:forDomain:` does the same).
    /// The intermediate's CRL distribution point, named by the revocation test leaves.
    private static let crlURL = "http://crl.swifttrust.test/ecdsa-intermediate.crl"

    /// Settings that check `revocation` and may fetch: the root's CRL is supplied, the intermediate's
    /// (which covers the leaf) is served at ``crlURL`` by the returned fetcher.
    private func fetchingSettings(revocation: RevocationOptions) throws -> (TLSTrustSettings, StaticFetcher) {
        let fetcher = StaticFetcher(crls: [
            Self.crlURL:
                try Array(Data(contentsOf: Self.root.appendingPathComponent("revocation/intermediate-current.crl")))
        ])
        var settings = try settings(revocation: revocation, crls: ["root-empty"])
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        return (settings, fetcher)
    }

    private func judges() throws -> [(name: String, judge: TLSTrustJudge, pathBuilds: Int)] {
        let root = try certificates("ecdsa/root.pem")
        return [
            ("evaluate", .evaluate, 1),
            ("DefaultTrustEvaluator", .evaluator(DefaultTrustEvaluator()), 1),
            ("PinnedCertificatesTrustEvaluator", .evaluator(PinnedCertificatesTrustEvaluator(certificates: root)), 1),
            ("SecurityPolicy(.certificate)", .securityPolicy(SecurityPolicy(pinningMode: .certificate, pinnedCertificates: root)), 2),
            ("challenges(default handling)", .challenges(ServerTrustChallengeSession()), 1),
        ]
    }

    func testEveryJudgeTrustsAValidPeerBuildingPathsOnce() throws {
        let presented = try certificates("ecdsa/chain.pem")
        for (name, judge, pathBuilds) in try judges() {
            let decider = try TLSTrustDecider(settings: try settings(), judge: judge)
            guard case let .trusted(peer) = decider.decideOffline(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name): \(decider.decideOffline(presented, role: .server(host: Self.host)))")
                continue
            }
            XCTAssertEqual(peer.validatedChain?.count, 3, name)
            XCTAssertEqual(peer.pathBuilds, pathBuilds, name)
        }
    }

    func testEveryJudgeRejectsARevokedLeafWhenRevocationIsConfigured() throws {
        let presented = try certificates("revocation/revoked-leaf.pem") + certificates("ecdsa/intermediate.pem")
        // Control: without revocation checking every judge accepts the same chain.
        for (name, judge, _) in try judges() {
            let decider = try TLSTrustDecider(settings: try settings(), judge: judge)
            guard case .trusted = decider.decideOffline(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name) rejects the chain without revocation checking")
                continue
            }
        }
        let revocation: RevocationOptions = [.crl, .networkAccessDisabled]
        for (name, judge, _) in try judges() {
            let decider = try TLSTrustDecider(
                settings: try settings(revocation: revocation, crls: ["intermediate-current", "root-empty"]),
                judge: judge)
            guard case let .rejected(failure) = decider.decideOffline(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name) accepts a revoked leaf")
                continue
            }
            XCTAssertTrue(
                failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } },
                "\(name): \(failure)")
        }
    }

    func testAJudgeThatAcceptsWithoutEvaluatingIsRefusedWhenTheSettingsNeedAnEvaluation() throws {
        XCTAssertNoThrow(try TLSTrustDecider(settings: try settings(), judge: .evaluator(DisabledTrustEvaluator())))
        XCTAssertThrowsError(try TLSTrustDecider(settings: try settings(revocation: [.crl]), judge: .evaluator(DisabledTrustEvaluator()))) {
            guard case let .judgeSkipsEvaluation(judge, options)? = $0 as? TLSTrustConfigurationError else {
                return XCTFail("\($0)")
            }
            XCTAssertEqual(judge, "DisabledTrustEvaluator")
            XCTAssertEqual(options.revocation, [.crl])
        }
    }

    /// Issue 40 item 6: every option that changes a verdict needs an evaluation, not only the profile
    /// and revocation; beside a judge that skips evaluation it is refused when configured.
    func testEveryOptionThatNeedsAnEvaluationIsRefusedBesideASkippingJudge() throws {
        let policy = try XCTUnwrap(ASN1ObjectIdentifier(dotted: "1.2.3.4"))
        let keys = try certificates("ecdsa/intermediate.pem").publicKeys
        let skipping: [(String, TLSTrustJudge)] = [
            ("DisabledTrustEvaluator", .evaluator(DisabledTrustEvaluator())),
            ("PublicKeysTrustEvaluator", .evaluator(PublicKeysTrustEvaluator(keys: keys, performDefaultValidation: false, validateHost: false))),
        ]
        let changes: [(String, (inout TrustOptions) -> Void)] = [
            ("maximum depth 0", { $0.maximumDepth = 0 }),
            (
                "policy 1.2.3.4, explicit",
                {
                    $0.initialPolicySet = [policy]; $0.initialExplicitPolicy = true
                }
            ),
            ("any-policy inhibit", { $0.initialAnyPolicyInhibit = true }),
        ]
        for (name, judge) in skipping {
            for (label, change) in changes {
                var settings = try settings()
                change(&settings.options)
                XCTAssertThrowsError(try TLSTrustDecider(settings: settings, judge: judge), "\(name), \(label)") {
                    guard case let .judgeSkipsEvaluation(refused, options)? = $0 as? TLSTrustConfigurationError else {
                        return XCTFail("\($0)")
                    }
                    XCTAssertEqual(refused, name)
                    XCTAssertEqual(options, settings.trustOptions)
                }
                XCTAssertNoThrow(try TLSTrustDecider(settings: settings, judge: .evaluate), label)
            }
        }
    }

    /// The decision that may use the network fetches through the settings' fetcher first, so every
    /// judge's evaluation sees what was fetched: the revoked leaf's CRL from its distribution point.
    func testTheNetworkDecisionFetchesRevocationInformationBeforeTheJudgeDecides() async throws {
        let presented = try certificates("revocation/revoked-leaf.pem") + certificates("ecdsa/intermediate.pem")
        let (settings, fetcher) = try fetchingSettings(revocation: [.crl])
        for (name, judge, _) in try judges() {
            let decider = try TLSTrustDecider(settings: settings, judge: judge)
            XCTAssertTrue(decider.mayUseNetwork)
            guard case .trusted = decider.decideOffline(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name): soft fail without the CRL should accept offline")
                continue
            }
            guard case let .rejected(failure) = await decider.decide(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name) accepts a revoked leaf whose CRL it could fetch")
                continue
            }
            XCTAssertTrue(
                failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } },
                "\(name): \(failure)")
        }
        XCTAssertEqual(fetcher.requests, Array(repeating: Self.crlURL, count: 5))
    }

    /// A handshake that fetches revocation information builds paths once when it is trusted: the
    /// chain the first pass found is decided again with what was fetched, without a new search.
    /// Twice: AFNetworking's certificate mode (by design, as without fetching), and the challenge
    /// flow's default handling, which judges a fresh trust so that nothing a handler did to the
    /// challenge's trust counts (the fetch ran on the challenge's trust).
    func testATrustedFetchingDecisionBuildsPathsOnce() async throws {
        let presented = try certificates("revocation/good-leaf.pem") + certificates("ecdsa/intermediate.pem")
        let (settings, _) = try fetchingSettings(revocation: [.crl, .requirePositiveResponse])
        for (name, judge, pathBuilds) in try judges() {
            let decider = try TLSTrustDecider(settings: settings, judge: judge)
            guard case .rejected = decider.decideOffline(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name): hard fail without the leaf's CRL must reject offline")
                continue
            }
            guard case let .trusted(peer) = await decider.decide(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name) rejects a good leaf whose CRL it fetched")
                continue
            }
            XCTAssertEqual(peer.pathBuilds, name.hasPrefix("challenges") ? 2 : pathBuilds, name)
            let leafStatus = peer.evaluation?.revocationStatuses.first { $0.index == 0 }?.status
            XCTAssertEqual(leafStatus, .good(source: .fetchedCRL(url: Self.crlURL)), name)
        }
    }

    /// Alamofire's RevocationTrustEvaluator fetches as Apple's SecPolicyCreateRevocation lets trustd
    /// fetch (NoNetworkAccess cleared unless kSecRevocationNetworkAccessDisabled), with no revocation
    /// in the settings: alone, in a composite, or chosen per host by a ServerTrustManager (as a judge
    /// or as the challenge flow's authority).
    func testARevocationEvaluatorFetchesWhenTheDecisionMayUseTheNetwork() async throws {
        let presented = try certificates("revocation/revoked-leaf.pem") + certificates("ecdsa/intermediate.pem")
        let fetcher = StaticFetcher(crls: [
            Self.crlURL:
                try Array(Data(contentsOf: Self.root.appendingPathComponent("revocation/intermediate-current.crl")))
        ])
        var settings = try settings()
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        let revocation = RevocationTrustEvaluator()
        let manager = try ServerTrustManager(evaluators: [Self.host: revocation])
        let judges: [(String, TLSTrustJudge)] = [
            ("RevocationTrustEvaluator", .evaluator(revocation)),
            ("CompositeTrustEvaluator", .evaluator(CompositeTrustEvaluator(evaluators: [DefaultTrustEvaluator(), revocation]))),
            ("ServerTrustManager", .evaluator(manager)),
            ("challenges(ServerTrustManager)", .challenges(ServerTrustChallengeSession(authority: .serverTrustManager(manager)))),
        ]
        for (name, judge) in judges {
            let decider = try TLSTrustDecider(settings: settings, judge: judge)
            XCTAssertTrue(decider.mayUseNetwork, name)
            guard case .trusted = decider.decideOffline(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name): soft fail without the CRL should accept offline")
                continue
            }
            guard case let .rejected(failure) = await decider.decide(presented, role: .server(host: Self.host)) else {
                XCTFail("\(name) accepts a revoked leaf whose CRL it could fetch")
                continue
            }
            XCTAssertTrue(failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } }, "\(name): \(failure)")
        }
        XCTAssertEqual(fetcher.requests, Array(repeating: Self.crlURL, count: judges.count))

        // With network access disabled, or under a host the manager has no fetching evaluator for, nothing is fetched.
        let offline = try TLSTrustDecider(settings: settings, judge: .evaluator(RevocationTrustEvaluator(options: [.crl, .networkAccessDisabled])))
        XCTAssertFalse(offline.mayUseNetwork)
        guard case .trusted = await offline.decide(presented, role: .server(host: Self.host)) else {
            return XCTFail("an offline revocation evaluator has no CRL, and soft-fails")
        }
        XCTAssertFalse(try TLSTrustDecider(settings: settings, judge: .evaluator(DefaultTrustEvaluator())).mayUseNetwork)
        XCTAssertEqual(fetcher.requests.count, judges.count)
    }

    /// Alamofire's `SessionDelegate.attemptServerTrustAuthentication` wraps an evaluator's error
    /// that is not an `AFError` as `.customEvaluationFailed(error:)`; the failure's
    /// `serverTrustFailureReason` does the same, and passes a `ServerTrustFailureReason` through.
    func testAForeignEvaluatorErrorIsACustomEvaluationFailureAsAlamofiresSessionDelegate() throws {
        struct Refusal: Error, Equatable {}
        struct Refusing: ServerTrustEvaluating {
            func evaluate(_ trust: ServerTrust, forHost host: String) throws { throw Refusal() }
        }
        let decider = try TLSTrustDecider(settings: try settings(), judge: .evaluator(Refusing()))
        guard case let .rejected(failure) = decider.decideOffline(try certificates("ecdsa/chain.pem"), role: .server(host: Self.host)) else {
            return XCTFail("the refusing evaluator accepted")
        }
        XCTAssertEqual(failure.serverTrustFailureReason, .customEvaluationFailed(host: Self.host, error: ComparableError(Refusal())))
        let wrongKey = PublicKeysTrustEvaluator(keys: try certificates("rsa/leaf.pem").map(\.publicKeyInfo))
        guard
            case let .rejected(pinned) = try TLSTrustDecider(settings: try settings(), judge: .evaluator(wrongKey))
                .decideOffline(try certificates("ecdsa/chain.pem"), role: .server(host: Self.host))
        else { return XCTFail("accepted") }
        guard case .publicKeyPinningFailed? = pinned.serverTrustFailureReason else { return XCTFail("\(pinned)") }
    }

    /// Issue 34 item 2: every client-role decision (the callback, `verify(_:role:)`, a framework's
    /// hook) checks the role: explicit anchors, a plain evaluation. Misconfigured, it rejects every
    /// client, naming why, instead of verifying against the system store or under serverAuth rules.
    func testClientRoleDecisionsNeedExplicitAnchorsAndAPlainEvaluation() async throws {
        let client = try certificates("ecdsa/leaf-client.pem") + certificates("ecdsa/intermediate.pem")
        let systemStore = try TLSTrustDecider()
        for outcome in [systemStore.decideOffline(client, role: .client), await systemStore.decide(client, role: .client)] {
            guard case .rejected(.verifierMisconfigured(.clientAnchorsNotExplicit)) = outcome else { return XCTFail("\(outcome)") }
        }
        let serverJudge = try TLSTrustDecider(settings: try settings(), judge: .evaluator(DefaultTrustEvaluator(validateHost: false)))
        guard case .rejected(.verifierMisconfigured(.clientCertificatesNeedPlainEvaluation)) = serverJudge.decideOffline(client, role: .client) else {
            return XCTFail("a server-style judge evaluated a client")
        }
        // The same deciders still verify servers.
        guard case .trusted = serverJudge.decideOffline(try certificates("ecdsa/chain.pem"), role: .server(host: Self.host)) else {
            return XCTFail("server role refused")
        }
        guard case .trusted = try TLSTrustDecider(settings: try settings()).decideOffline(client, role: .client) else {
            return XCTFail("explicit anchors refused")
        }
        var named = TLSTrustSettings()
        named.systemStoreTrustsClients = true
        guard case .rejected(.evaluationFailed) = try TLSTrustDecider(settings: named).decideOffline(client, role: .client) else {
            return XCTFail("the system store, named, is used (and does not hold the test root)")
        }
    }

    func testNoCertificatesIsARejection() throws {
        let decider = try TLSTrustDecider(settings: try settings())
        guard case .rejected(.noPeerCertificates) = decider.decideOffline([], role: .server(host: Self.host)) else {
            return XCTFail("an empty list was not rejected as such")
        }
    }
}

/// Serves fixed CRLs by URL, and remembers what was asked.
private final class StaticFetcher: RevocationFetcher, @unchecked Sendable {
    private let crls: [String: [UInt8]]
    private let lock = NSLock()
    private var asked: [String] = []

    init(crls: [String: [UInt8]]) { self.crls = crls }

    var requests: [String] { lock.withLock { asked } }

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        guard request.method == .crl else { throw URLError(.fileDoesNotExist) }
        lock.withLock { asked.append(request.url) }
        guard let bytes = crls[request.url] else { throw URLError(.fileDoesNotExist) }
        return bytes
    }
}
