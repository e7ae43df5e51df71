import NIOCore
import Synchronization
import TrustCore
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// The URLSession challenge flow on real handshakes: every disposition, every level, and the
/// Alamofire and AFNetworking authorities (docs/transport.md).
final class ChallengeFlowLoopbackTests: LoopbackTestCase {
    private let goodChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]
    private let expiredChain = ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"]

    /// A verifier answering challenges with `session`, under the test anchors.
    private func verifier(_ session: ServerTrustChallengeSession) throws -> TLSTrustVerifier {
        try TLSTrustVerifier(settings: try TestCertificates.settings(), judge: .challenges(session))
    }

    /// A handler answering `disposition` and counting its calls.
    private func handler(_ disposition: ServerTrustChallengeDisposition, calls: CallCounter? = nil) -> ServerTrustChallengeHandler {
        { _ in
            calls?.increment()
            return disposition
        }
    }

    // MARK: - Dispositions (task level)

    func testUseCredentialAcceptsEvenAnExpiredLeafWithoutAValidatedChain() throws {
        let server = try startNIOServer(presenting: expiredChain)
        let result = try connect(port: server.port, verifier: try verifier(ServerTrustChallengeSession()), taskHandler: handler(.useCredential))
        XCTAssertNil(result.error)
        let peer = try XCTUnwrap(result.record.trustedPeer)
        XCTAssertNil(peer.validatedChain, "nothing validated the chain")
        XCTAssertNil(result.validatedChainDER)
    }

    func testPerformDefaultHandlingEvaluatesWithTheSettingsAnchors() throws {
        let good = try startNIOServer(presenting: goodChain)
        let accepted = try connect(
            port: good.port, verifier: try verifier(ServerTrustChallengeSession()),
            taskHandler: handler(.performDefaultHandling))
        XCTAssertNil(accepted.error)
        XCTAssertEqual(accepted.record.trustedPeer?.validatedChain?.count, 3)

        let expired = try startNIOServer(presenting: expiredChain)
        let rejected = try connect(
            port: expired.port, verifier: try verifier(ServerTrustChallengeSession()),
            taskHandler: handler(.performDefaultHandling))
        let failure = try XCTUnwrap(rejection(rejected))
        XCTAssertTrue(contains(failure.trustFailures, index: 0) { if case .expired = $0 { true } else { false } }, "\(failure)")
    }

    func testCancelAuthenticationChallengeRejectsAGoodChain() throws {
        let server = try startNIOServer(presenting: goodChain)
        let result = try connect(
            port: server.port, verifier: try verifier(ServerTrustChallengeSession()),
            taskHandler: handler(.cancelAuthenticationChallenge))
        guard case .challengeCancelled(TestCertificates.host, nil)? = rejection(result) else { return XCTFail("\(String(describing: result.error))") }
    }

    func testRejectProtectionSpaceFailsTheHandshake() throws {
        let server = try startNIOServer(presenting: goodChain)
        let result = try connect(
            port: server.port, verifier: try verifier(ServerTrustChallengeSession()),
            taskHandler: handler(.rejectProtectionSpace))
        guard case .protectionSpaceRejected(TestCertificates.host)? = rejection(result) else { return XCTFail("\(String(describing: result.error))") }
    }

    // MARK: - Levels

    func testTaskHandlerDecidesBeforeTheSessionHandlerAndTheAuthority() throws {
        let server = try startNIOServer(presenting: expiredChain)
        let sessionCalls = CallCounter()
        let managerCalls = CallCounter()
        let manager = try ServerTrustManager(evaluators: [TestCertificates.host: CustomTrustEvaluator { _, _ in managerCalls.increment() }])
        let session = ServerTrustChallengeSession(
            authority: .serverTrustManager(manager),
            sessionHandler: handler(.cancelAuthenticationChallenge, calls: sessionCalls))
        let result = try connect(port: server.port, verifier: try verifier(session), taskHandler: handler(.useCredential))
        XCTAssertNil(result.error)
        XCTAssertEqual(sessionCalls.count, 0)
        XCTAssertEqual(managerCalls.count, 0)
    }

    func testSessionHandlerDecidesWhenThereIsNoTaskHandler() throws {
        let server = try startNIOServer(presenting: goodChain)
        let afnCalls = CallCounter()
        let session = ServerTrustChallengeSession(
            authority: .securityPolicy(.default), sessionHandler: handler(.rejectProtectionSpace),
            authenticationChallengeHandler: { _ in
                afnCalls.increment(); return .credential
            })
        let result = try connect(port: server.port, verifier: try verifier(session))
        guard case .protectionSpaceRejected? = rejection(result) else { return XCTFail("\(String(describing: result.error))") }
        XCTAssertEqual(afnCalls.count, 0)
    }

    // MARK: - AFNetworking 4's authenticationChallengeHandler

    func testAuthenticationChallengeHandlerCredentialAcceptsAndErrorCancelsWithIt() throws {
        struct Refused: Error, Equatable {}
        let server = try startNIOServer(presenting: goodChain)
        let credential = ServerTrustChallengeSession(authority: .securityPolicy(.default), authenticationChallengeHandler: { _ in .credential })
        XCTAssertNil(try connect(port: server.port, verifier: try verifier(credential)).error)

        let error = ServerTrustChallengeSession(authority: .securityPolicy(.default), authenticationChallengeHandler: { _ in .error(Refused()) })
        guard case let .challengeCancelled(_, carried)? = rejection(try connect(port: server.port, verifier: try verifier(error))) else {
            return XCTFail("not cancelled")
        }
        XCTAssertEqual(carried?.error as? Refused, Refused())
    }

    func testAuthenticationChallengeHandlerNilAndDefaultHandlingHandTheChallengeToTheSecurityPolicy() throws {
        let server = try startNIOServer(presenting: goodChain)
        let rsaRoot = try TestCertificates.certificates("rsa/root.pem")
        let ecdsaRoot = try TestCertificates.certificates("ecdsa/root.pem")
        for answer: AuthenticationChallengeResult in [.none, .disposition(.performDefaultHandling)] {
            let matching = ServerTrustChallengeSession(
                authority: .securityPolicy(SecurityPolicy(pinningMode: .certificate, pinnedCertificates: ecdsaRoot)),
                authenticationChallengeHandler: { _ in answer })
            XCTAssertNil(try connect(port: server.port, verifier: try verifier(matching)).error)

            let mismatching = ServerTrustChallengeSession(
                authority: .securityPolicy(SecurityPolicy(pinningMode: .certificate, pinnedCertificates: rsaRoot)),
                authenticationChallengeHandler: { _ in answer })
            guard case let .challengeCancelled(_, error)? = rejection(try connect(port: server.port, verifier: try verifier(mismatching))),
                case .pinnedAnchorEvaluationFailed? = error?.error as? SecurityPolicyFailure
            else {
                return XCTFail("the security policy did not reject the unpinned chain")
            }
        }
    }

    func testAuthenticationChallengeHandlerDispositions() throws {
        let server = try startNIOServer(presenting: goodChain)
        let cases: [(ServerTrustChallengeDisposition, (TLSTrustFailure) -> Bool)] = [
            (.cancelAuthenticationChallenge, { if case .challengeCancelled(_, nil) = $0 { true } else { false } }),
            (.rejectProtectionSpace, { if case .protectionSpaceRejected = $0 { true } else { false } }),
            // AFNetworking asserts that a disposition is not useCredential (there is no credential): fail closed.
            (.useCredential, { if case .challengeCancelled(_, nil) = $0 { true } else { false } }),
        ]
        for (disposition, expected) in cases {
            let session = ServerTrustChallengeSession(
                authority: .securityPolicy(.default),
                authenticationChallengeHandler: { _ in .disposition(disposition) })
            let failure = try XCTUnwrap(rejection(try connect(port: server.port, verifier: try verifier(session))))
            XCTAssertTrue(expected(failure), "\(disposition): \(failure)")
        }
    }

    // MARK: - Alamofire's ServerTrustManager as the authority

    func testManagerEvaluatorAcceptsOrCancelsWithItsReason() throws {
        let server = try startNIOServer(presenting: expiredChain)
        let manager = try ServerTrustManager(evaluators: [TestCertificates.host: DefaultTrustEvaluator()])
        let failure = try XCTUnwrap(rejection(try connect(port: server.port, verifier: try verifier(.init(authority: .serverTrustManager(manager))))))
        guard case .trustEvaluationFailed(_, .defaultValidation, _)? = failure.serverTrustFailureReason else { return XCTFail("\(failure)") }

        let disabled = try ServerTrustManager(evaluators: [TestCertificates.host: DisabledTrustEvaluator()])
        XCTAssertNil(try connect(port: server.port, verifier: try verifier(.init(authority: .serverTrustManager(disabled)))).error)
    }

    func testAllHostsMustBeEvaluatedRejectsAHostWithoutEvaluatorOtherwiseDefaultHandling() throws {
        let good = try startNIOServer(presenting: goodChain)
        let strict = try ServerTrustManager(evaluators: ["api.swifttrust.test": DisabledTrustEvaluator()])
        let failure = try XCTUnwrap(rejection(try connect(port: good.port, verifier: try verifier(.init(authority: .serverTrustManager(strict))))))
        guard case .noRequiredEvaluator(TestCertificates.host)? = failure.serverTrustFailureReason else { return XCTFail("\(failure)") }

        // Not all hosts must be evaluated: the unlisted host gets default handling, which accepts
        // the good chain and rejects the expired one.
        let lenient = try ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: ["api.swifttrust.test": DisabledTrustEvaluator()])
        XCTAssertNil(try connect(port: good.port, verifier: try verifier(.init(authority: .serverTrustManager(lenient)))).error)
        let expired = try startNIOServer(presenting: expiredChain)
        let defaultFailure = try XCTUnwrap(
            rejection(try connect(port: expired.port, verifier: try verifier(.init(authority: .serverTrustManager(lenient))))))
        guard case .evaluationFailed = defaultFailure else { return XCTFail("\(defaultFailure)") }
    }

    func testNoAuthorityMeansDefaultHandling() throws {
        let expired = try startNIOServer(presenting: expiredChain)
        let failure = try XCTUnwrap(rejection(try connect(port: expired.port, verifier: try verifier(ServerTrustChallengeSession()))))
        guard case .evaluationFailed = failure else { return XCTFail("\(failure)") }
    }
}

/// Counts the calls of a handler or evaluator.
final class CallCounter: Sendable {
    private let calls = Mutex(0)
    func increment() { calls.withLock { $0 += 1 } }
    var count: Int { calls.withLock { $0 } }
}

/// Which level answers, without a connection.
final class ChallengeResolutionTests: XCTestCase {
    private func challenge() throws -> ServerTrustChallenge {
        let trust = ServerTrust(certificates: try TestCertificates.certificates("ecdsa/chain.pem"))
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = TestCertificates.verifyDate
        return ServerTrustChallenge(host: TestCertificates.host, port: 443, trust: trust)
    }

    func testLevelsAreAskedTaskSessionHandlerAuthority() throws {
        let all = ServerTrustChallengeSession(
            authority: .securityPolicy(.default), sessionHandler: { _ in .rejectProtectionSpace },
            authenticationChallengeHandler: { _ in .credential })
        XCTAssertEqual(all.resolve(try challenge(), taskHandler: { _ in .cancelAuthenticationChallenge }).level, .task)
        XCTAssertEqual(all.resolve(try challenge()).level, .session)
        var withoutSession = all
        withoutSession.sessionHandler = nil
        XCTAssertEqual(withoutSession.resolve(try challenge()).level, .authenticationChallengeHandler)
        XCTAssertEqual(withoutSession.resolve(try challenge()).disposition, .useCredential)
        var authorityOnly = withoutSession
        authorityOnly.authenticationChallengeHandler = nil
        let resolution = authorityOnly.resolve(try challenge())
        XCTAssertEqual(resolution.level, .authority)
        XCTAssertEqual(resolution.disposition, .useCredential, "the default security policy trusts the good chain")
    }

    func testAuthenticationChallengeHandlerDefaultHandlingIsDecidedByTheAuthority() throws {
        let session = ServerTrustChallengeSession(authority: .none, authenticationChallengeHandler: { _ in .none })
        let resolution = session.resolve(try challenge())
        XCTAssertEqual(resolution.level, .authority)
        XCTAssertEqual(resolution.disposition, .performDefaultHandling)
    }
}
