import Foundation
import OpenSSLServerSupport
import Synchronization
import TrustCore
import TrustPinning
import TrustSession
import TrustX509
import XCTest

/// Issue 41 items 1 and 3 in the decision: an identity rule refuses a validated client with the rule
/// named, is never checked on an unvalidated chain, cannot sit beside a judge that skips evaluation;
/// an anchor provider is read once per handshake, and a provider without anchors rejects with its reason.
final class IdentityDecisionTests: XCTestCase {
    private var directory: URL!
    private var pki: ClientRevocationPKI!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-identity-decision-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pki = try ClientRevocationPKI(in: directory)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func load(_ path: String) throws -> [Certificate] {
        try Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: path))))
    }

    private func settings(_ rule: IdentityRule?) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try load(pki.rootPath))
        settings.requiredIdentity = rule
        return settings
    }

    func testAValidatedClientOutsideTheRuleIsRefusedNamingTheRule() throws {
        let client = try load(pki.goodClientPath)
        let allowed = try TLSTrustDecider(settings: settings(.email(ClientRevocationPKI.goodClientEmail)))
        guard case let .trusted(peer) = allowed.decideOffline(client, role: .client) else {
            return XCTFail("\(allowed.decideOffline(client, role: .client))")
        }
        XCTAssertNotNil(peer.validatedChain)

        let other = try IdentityRule.email("someone-else@swifttrust.test")
        let refusing = try TLSTrustDecider(settings: settings(.all([.subject(.commonName, equals: "Good Client"), other])))
        guard case let .rejected(failure) = refusing.decideOffline(client, role: .client) else { return XCTFail("accepted") }
        XCTAssertEqual(failure, .identityNotAllowed(other))
        XCTAssertTrue(TLSTrustFailure.identityNotAllowed(other).description.contains("email someone-else@swifttrust.test"))
    }

    func testAChainThatDoesNotValidateFailsOnItsChainNotOnItsNames() throws {
        let client = try load(pki.goodClientPath)
        var settings = try settings(.email(ClientRevocationPKI.goodClientEmail))
        settings.anchors = try load(pki.revokedClientPath) // not the issuer: nothing validates
        guard case let .rejected(failure) = try TLSTrustDecider(settings: settings).decideOffline(client, role: .client),
            case .evaluationFailed = failure
        else { return XCTFail("the unvalidated chain was not refused for its chain") }
    }

    func testConfigurationsThatCannotBeHonouredAreRefused() throws {
        XCTAssertThrowsError(try TLSTrustDecider(settings: settings(.email("a@b.test")), judge: .evaluator(DisabledTrustEvaluator()))) {
            guard case .identityRuleNeedsEvaluation = $0 as? TLSTrustConfigurationError else { return XCTFail("\($0)") }
        }
        var both = try settings(nil)
        both.anchorProvider = CountingProvider(anchors: try load(pki.rootPath))
        XCTAssertThrowsError(try TLSTrustDecider(settings: both)) {
            XCTAssertEqual($0 as? TLSTrustConfigurationError, .anchorsAndAnchorProvider)
        }
    }

    func testAnAnchorProviderIsReadOncePerHandshakeAndCountsAsExplicitClientAnchors() async throws {
        let provider = CountingProvider(anchors: try load(pki.rootPath))
        var settings = TLSTrustSettings()
        settings.anchorProvider = provider
        let handshakes = TLSHandshakeDecider(decider: try TLSTrustDecider(settings: settings))
        let outcome = await handshakes.outcome(for: .presented(try load(pki.goodClientPath)), role: .client)
        guard case .trusted = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(provider.reads, 1)
        // Decided off the event loop (revocation may be fetched): still one read for the handshake.
        settings.revocation = .useAnyAvailableMethod
        let fetching = TLSHandshakeDecider(decider: try TLSTrustDecider(settings: settings))
        guard case .pending = fetching.decision(for: .presented(try load(pki.goodClientPath)), role: .client) else {
            return XCTFail("a decision that may fetch was made inline")
        }
        _ = await fetching.outcome(for: .presented(try load(pki.goodClientPath)), role: .client)
        XCTAssertEqual(provider.reads, 3)
    }

    func testAProviderWithoutAnchorsRejectsWithItsReason() async throws {
        var settings = TLSTrustSettings()
        settings.anchorProvider = CountingProvider(anchors: nil)
        let handshakes = TLSHandshakeDecider(decider: try TLSTrustDecider(settings: settings))
        guard case let .rejected(failure) = await handshakes.outcome(for: .presented(try load(pki.goodClientPath)), role: .client) else {
            return XCTFail("accepted without anchors")
        }
        XCTAssertEqual(failure, .anchorsUnavailable(.notLoaded(source: "test")))
    }
}

/// A provider that counts its reads; nil anchors: none loaded.
private final class CountingProvider: TrustAnchorProvider {
    private let anchors: [Certificate]?
    private let count = Mutex(0)

    init(anchors: [Certificate]?) { self.anchors = anchors }

    var reads: Int { count.withLock { $0 } }

    func anchors(forLeaf leaf: Certificate) throws(TrustAnchorUnavailable) -> [Certificate] {
        count.withLock { $0 += 1 }
        guard let anchors else { throw .notLoaded(source: "test") }
        return anchors
    }
}
