import TrustCore
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 30, part 5: a trusted handshake builds certification paths once, whichever judge decides;
/// a rejected one at most once more, for its explanation.
final class PathBuildCountTests: LoopbackTestCase {
    private let goodChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]

    private func trustedPeer(_ judge: TLSTrustJudge) async throws -> TrustedPeer {
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings(), judge: judge)
        let outcome = await verifier.verify(try goodChain.flatMap(TestCertificates.certificates), role: .server(host: TestCertificates.host))
        guard case let .trusted(peer) = outcome else { throw XCTSkip("not trusted: \(outcome)") }
        return peer
    }

    func testATrustedHandshakeBuildsPathsOnceForEveryJudgeThatEvaluatesOnce() async throws {
        let intermediate = try TestCertificates.certificates("ecdsa/intermediate.pem")
        let backup = try TestCertificates.certificates("rsa/root.pem")
        let spki = try PinnedSPKIHashesTrustEvaluator(pins: (intermediate + backup).map(\.spkiPin))
        let judges: [(String, TLSTrustJudge)] = [
            ("evaluate", .evaluate),
            ("DefaultTrustEvaluator", .evaluator(DefaultTrustEvaluator())),
            ("PinnedSPKIHashesTrustEvaluator", .evaluator(spki)),
            ("PublicKeysTrustEvaluator", .evaluator(PublicKeysTrustEvaluator(keys: intermediate.map(\.publicKeyInfo)))),
            ("PinnedCertificatesTrustEvaluator", .evaluator(PinnedCertificatesTrustEvaluator(certificates: intermediate))),
            ("CompositeTrustEvaluator", .evaluator(CompositeTrustEvaluator(evaluators: [DefaultTrustEvaluator(), spki]))),
            ("ServerTrustManager", .evaluator(try ServerTrustManager(evaluators: [TestCertificates.host: spki]))),
            ("RevocationTrustEvaluator", .evaluator(RevocationTrustEvaluator())),
            ("SecurityPolicy(.none)", .securityPolicy(.default)),
            ("SecurityPolicy(.publicKey)", .securityPolicy(SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: intermediate))),
            ("challenges: performDefaultHandling", .challenges(ServerTrustChallengeSession())),
        ]
        for (name, judge) in judges {
            let peer = try await trustedPeer(judge)
            // RevocationTrustEvaluator fetches first (Apple's SecPolicyCreateRevocation lets trustd fetch),
            // then adds a revocation policy after validating: Alamofire's second evaluation
            // (evaluate(afterApplying: revocation)), which changes what is checked.
            XCTAssertEqual(peer.pathBuilds, name == "RevocationTrustEvaluator" ? 3 : 1, name)
            XCTAssertNotNil(peer.validatedChain, name)
        }
        // AFNetworking's certificate mode evaluates once with the system's anchors and once with
        // the pinned certificates as the only anchors (-evaluateServerTrust:forDomain:): two.
        let certificateMode = try await trustedPeer(.securityPolicy(SecurityPolicy(pinningMode: .certificate, pinnedCertificates: intermediate)))
        XCTAssertEqual(certificateMode.pathBuilds, 2)
    }

    func testAHandshakeOverLoopbackReportsOneBuild() throws {
        let server = try startNIOServer(presenting: goodChain)
        let verifier = try TLSTrustVerifier(evaluator: DefaultTrustEvaluator(), settings: try TestCertificates.settings())
        let result = try connect(port: server.port, verifier: verifier)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.record.trustedPeer?.pathBuilds, 1)
    }

    func testEvaluatingTheSamePoliciesAgainReusesTheCurrentEvaluation() throws {
        let trust = ServerTrust(
            certificates: try goodChain.flatMap(TestCertificates.certificates), policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = TestCertificates.verifyDate
        let first = trust.evaluate(policies: [.ssl(server: true, hostname: TestCertificates.host)])
        XCTAssertTrue(first.isTrusted)
        XCTAssertEqual(trust.pathBuildCount, 1)
        trust.policies = [.ssl(server: true, hostname: TestCertificates.host)] // the same policies: still current
        XCTAssertEqual(trust.evaluate(policies: [.ssl(server: true, hostname: TestCertificates.host)]), first)
        XCTAssertEqual(trust.certificateChain(), first.chain)
        XCTAssertEqual(trust.pathBuildCount, 1, "nothing changed: no second build")
        trust.verifyDate = TestCertificates.verifyDate.addingTimeInterval(1) // a change: evaluated again
        XCTAssertTrue(trust.evaluate(policies: [.ssl(server: true, hostname: TestCertificates.host)]).isTrusted)
        XCTAssertEqual(trust.pathBuildCount, 2)
        XCTAssertTrue(trust.evaluate().isTrusted, "evaluate() always evaluates")
        XCTAssertEqual(trust.pathBuildCount, 3)
    }

    func testARejectionBuildsAtMostOnceMoreForItsExplanation() throws {
        let trust = ServerTrust(certificates: try goodChain.flatMap(TestCertificates.certificates))
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = TestCertificates.verifyDate
        XCTAssertThrowsError(try DefaultTrustEvaluator().evaluate(trust, forHost: "other.swifttrust.test"))
        XCTAssertEqual(trust.pathBuildCount, 2, "with the host, then without it to tell which failed")
    }
}
