import Foundation
import TrustCore
import TrustSession
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 42: TrustSession decides with judges other modules supply (`TLSTrustJudging`,
/// `ServerTrustChallengeAuthority`) and knows no pinning itself; this file does not import
/// TrustPinning. The judge is the one `TLSTrustJudging`'s documentation shows.
final class CustomJudgeTests: XCTestCase {
    private static let host = "www.swifttrust.test"

    /// Trusts only chains of at most `maximum` certificates (the documentation's `ShortChains`).
    private struct ShortChains: TLSTrustJudging {
        struct Refusal: TLSTrustJudgeFailure {
            let trustFailures: [TrustFailure]
            let length: Int
            var description: String { trustFailures.isEmpty ? "the chain has \(length) certificates" : "not trusted" }
        }

        var maximum = 3

        func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? {
            let evaluation = trust.evaluate()
            guard evaluation.isTrusted else { return Refusal(trustFailures: evaluation.failures, length: 0) }
            return evaluation.chain.count > maximum ? Refusal(trustFailures: [], length: evaluation.chain.count) : nil
        }
    }

    /// Accepts every peer without looking at it, and says so.
    private struct Skipping: TLSTrustJudging {
        var acceptsWithoutEvaluating: Bool { true }
        func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? { nil }
    }

    /// Would fetch CRLs before it evaluates.
    private struct Fetching: TLSTrustJudging {
        var fetchesRevocation: Bool { true }
        func revocationToFetch(forHost host: String) -> RevocationOptions? { [.crl] }
        func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? { nil }
    }

    /// A challenge authority: evaluates and accepts, hands the challenge to default handling, or
    /// cancels it with a typed failure.
    private struct Authority: ServerTrustChallengeAuthority {
        let disposition: ServerTrustChallengeDisposition?
        func answer(_ challenge: ServerTrustChallenge) throws -> ServerTrustChallengeDisposition {
            guard let disposition else {
                throw ShortChains.Refusal(trustFailures: challenge.trust.evaluate().failures, length: 0)
            }
            return disposition
        }
    }

    private func certificates(_ relative: String) throws -> [Certificate] {
        try TestCertificates.certificates(relative)
    }

    private func settings(anchors: String = "ecdsa/root.pem", revocation: RevocationOptions? = nil) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try certificates(anchors))
        settings.verifyDate = Date(timeIntervalSince1970: 1_780_272_000)
        settings.revocation = revocation
        return settings
    }

    func testACustomJudgesFailureReachesTheCallerTypedAndItsAcceptanceStands() throws {
        let chain = try certificates("ecdsa/chain.pem")
        guard
            case .trusted = try TLSTrustDecider(settings: try settings(), judge: .custom(ShortChains()))
                .decideOffline(chain, role: .server(host: Self.host))
        else { return XCTFail("a three-certificate chain was refused") }

        let strict = try TLSTrustDecider(settings: try settings(), judge: .custom(ShortChains(maximum: 2)))
        guard case let .rejected(failure) = strict.decideOffline(chain, role: .server(host: Self.host)),
            case let .judgeRejected(host, rejection) = failure
        else { return XCTFail("a three-certificate chain was accepted") }
        XCTAssertEqual(host, Self.host)
        XCTAssertEqual(rejection.base as? ShortChains.Refusal, ShortChains.Refusal(trustFailures: [], length: 3))
        XCTAssertEqual(rejection, AnyTLSTrustJudgeFailure(ShortChains.Refusal(trustFailures: [], length: 3)))
        XCTAssertNotEqual(rejection, AnyTLSTrustJudgeFailure(ShortChains.Refusal(trustFailures: [], length: 4)))
        XCTAssertEqual(failure.description, "\(Self.host): the chain has 3 certificates")
        XCTAssertEqual(failure.summary, failure.description)
        XCTAssertTrue(failure.trustFailures.isEmpty)
        XCTAssertNil(failure.recoverySuggestion)

        // Under other anchors the judge's own evaluation fails: its failures are the rejection's.
        let untrusted = try TLSTrustDecider(settings: try settings(anchors: "rsa/root.pem"), judge: .custom(ShortChains()))
        guard case let .rejected(other) = untrusted.decideOffline(chain, role: .server(host: Self.host)),
            case .judgeRejected = other
        else { return XCTFail("a chain to another root was accepted") }
        XCTAssertFalse(other.trustFailures.isEmpty, "\(other)")
    }

    func testAJudgeThatSkipsEvaluationIsRefusedByNameAndNoCustomJudgeJudgesClients() throws {
        XCTAssertNoThrow(try TLSTrustDecider(settings: try settings(), judge: .custom(Skipping())))
        XCTAssertThrowsError(try TLSTrustDecider(settings: try settings(revocation: [.crl]), judge: .custom(Skipping()))) {
            guard case let .judgeSkipsEvaluation(judge, options)? = $0 as? TLSTrustConfigurationError else { return XCTFail("\($0)") }
            XCTAssertEqual(judge, "Skipping")
            XCTAssertEqual(options.revocation, [.crl])
        }
        XCTAssertThrowsError(try TLSTrustDecider(settings: try settings(), judge: .custom(ShortChains())).checkRole(.client)) {
            guard case .clientCertificatesNeedPlainEvaluation? = $0 as? TLSTrustConfigurationError else { return XCTFail("\($0)") }
        }
    }

    func testACustomJudgesRevocationFetchingMakesTheDecisionUseTheNetwork() throws {
        XCTAssertTrue(try TLSTrustDecider(settings: try settings(), judge: .custom(Fetching())).mayUseNetwork)
        XCTAssertFalse(
            try TLSTrustDecider(settings: try settings(revocation: [.crl, .networkAccessDisabled]), judge: .custom(Fetching())).mayUseNetwork)
        XCTAssertFalse(try TLSTrustDecider(settings: try settings(), judge: .custom(ShortChains())).mayUseNetwork)
        let session = ServerTrustChallengeSession(authority: .custom(Authority(disposition: .useCredential)))
        XCTAssertFalse(try TLSTrustDecider(settings: try settings(), judge: .challenges(session)).mayUseNetwork)
    }

    func testACustomChallengeAuthorityAnswersWhatNoHandlerDid() throws {
        let chain = try certificates("ecdsa/chain.pem")
        func outcome(_ authority: Authority, anchors: String = "ecdsa/root.pem") throws -> TLSTrustOutcome {
            let session = ServerTrustChallengeSession(authority: .custom(authority))
            return try TLSTrustDecider(settings: try settings(anchors: anchors), judge: .challenges(session))
                .decideOffline(chain, role: .server(host: Self.host))
        }
        guard case .trusted = try outcome(Authority(disposition: .useCredential)) else { return XCTFail("useCredential refused") }
        guard case .trusted = try outcome(Authority(disposition: .performDefaultHandling)) else { return XCTFail("default handling refused") }
        guard case .rejected(.protectionSpaceRejected(Self.host)) = try outcome(Authority(disposition: .rejectProtectionSpace)) else {
            return XCTFail("rejectProtectionSpace accepted")
        }
        guard case let .rejected(failure) = try outcome(Authority(disposition: nil), anchors: "rsa/root.pem"),
            case let .challengeCancelled(host, error?) = failure
        else { return XCTFail("a cancelled challenge accepted") }
        XCTAssertEqual(host, Self.host)
        let refusal = try XCTUnwrap(error.error as? ShortChains.Refusal)
        XCTAssertFalse(refusal.trustFailures.isEmpty)
        XCTAssertEqual(failure.trustFailures, refusal.trustFailures)
        XCTAssertEqual(failure.summary, "the server trust challenge for \(Self.host) was cancelled: \(Self.host): not trusted")
    }
}
