import NIOCore
import NIOPosix
import Synchronization
import NIOSSL
import OpenSSLServerSupport
import TrustCore
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// A client verifying real TLS servers on loopback: our NIO server and `openssl s_server`.
final class ClientVerificationLoopbackTests: LoopbackTestCase {
    func testGoodChainIsTrustedAndTheValidatedChainIsTheMetadata() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        XCTAssertNil(result.error)
        let peer = try XCTUnwrap(result.record.trustedPeer)
        let expected = try ["ecdsa/leaf.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem"].flatMap(TestCertificates.certificates)
        XCTAssertEqual(peer.validatedChain, expected)
        // swift-nio-ssl hands the same chain to the application, the anchor included.
        XCTAssertEqual(result.validatedChainDER, expected.map(\.derEncoded))
    }

    func testWrongHostIsRejectedWithTheHostnameMismatch() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let result = try connect(
            port: server.port, host: "api.swifttrust.test", verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        let failure = try XCTUnwrap(rejection(result))
        XCTAssertTrue(contains(failure.trustFailures, index: 0) { if case .hostnameMismatch = $0 { true } else { false } }, "\(failure)")
        XCTAssertNil(result.validatedChainDER)
    }

    func testExpiredLeafIsRejectedNamingTheLeaf() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        let failure = try XCTUnwrap(rejection(result))
        XCTAssertTrue(contains(failure.trustFailures, index: 0) { if case .expired = $0 { true } else { false } }, "\(failure)")
    }

    func testMissingIntermediateIsRejected() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem"])
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        let failure = try XCTUnwrap(rejection(result))
        XCTAssertTrue(contains(failure.trustFailures) { if case .issuerNotFound = $0 { true } else { false } }, "\(failure)")
    }

    func testMissingIntermediateSuppliedBySettingsIsTrusted() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem"])
        var settings = try TestCertificates.settings()
        settings.additionalIntermediates = try TestCertificates.certificates("ecdsa/intermediate.pem")
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: settings))
        XCTAssertNil(result.error)
        XCTAssertEqual(result.record.trustedPeer?.validatedChain?.count, 3)
    }

    func testUntrustedRootIsRejected() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings(anchors: ["rsa/root.pem"])))
        let failure = try XCTUnwrap(rejection(result))
        guard case .evaluationFailed = failure else { return XCTFail("\(failure)") }
        XCTAssertTrue(contains(failure.trustFailures) { if case .issuerNotFound = $0 { true } else { false } }, "\(failure)")
    }

    func testSPKIPinMatchIsAcceptedAndMismatchIsRejected() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let leafPin = try XCTUnwrap(TestCertificates.certificates("ecdsa/leaf.pem").first).spkiPin
        let rsaPin = try XCTUnwrap(TestCertificates.certificates("rsa/leaf.pem").first).spkiPin
        let rsaRootPin = try XCTUnwrap(TestCertificates.certificates("rsa/root.pem").first).spkiPin

        let matching = try PinnedSPKIHashesTrustEvaluator(pins: [leafPin, rsaPin])
        let accepted = try connect(port: server.port, verifier: TLSTrustVerifier(evaluator: matching, settings: try TestCertificates.settings()))
        XCTAssertNil(accepted.error)
        XCTAssertEqual(accepted.record.trustedPeer?.validatedChain?.count, 3)

        let mismatching = try PinnedSPKIHashesTrustEvaluator(pins: [rsaPin, rsaRootPin])
        let rejected = try connect(port: server.port, verifier: TLSTrustVerifier(evaluator: mismatching, settings: try TestCertificates.settings()))
        let failure = try XCTUnwrap(rejection(rejected))
        guard case .publicKeyPinningFailed? = failure.serverTrustFailureReason else { return XCTFail("\(failure)") }
    }

    func testPinnedSelfSignedCertificateNeedsAcceptSelfSignedCertificates() throws {
        let server = try startNIOServer(presenting: ["ecdsa/self-signed-leaf.pem"])
        let pinned = try TestCertificates.certificates("ecdsa/self-signed-leaf.pem")

        let accepting = PinnedCertificatesTrustEvaluator(certificates: pinned, acceptSelfSignedCertificates: true)
        let accepted = try connect(port: server.port, verifier: TLSTrustVerifier(evaluator: accepting, settings: try TestCertificates.settings()))
        XCTAssertNil(accepted.error)
        XCTAssertEqual(accepted.record.trustedPeer?.validatedChain, pinned)

        let strict = PinnedCertificatesTrustEvaluator(certificates: pinned)
        let rejected = try connect(port: server.port, verifier: TLSTrustVerifier(evaluator: strict, settings: try TestCertificates.settings()))
        let failure = try XCTUnwrap(rejection(rejected))
        guard case .trustEvaluationFailed(_, .defaultValidation, _)? = failure.serverTrustFailureReason else { return XCTFail("\(failure)") }
    }

    func testServerTrustManagerWithAllHostsMustBeEvaluatedRejectsAnUnlistedHost() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let manager = try ServerTrustManager(evaluators: ["api.swifttrust.test": DefaultTrustEvaluator()])
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(evaluator: manager, settings: try TestCertificates.settings()))
        let failure = try XCTUnwrap(rejection(result))
        guard case .noRequiredEvaluator(host: TestCertificates.host)? = failure.serverTrustFailureReason else { return XCTFail("\(failure)") }
    }

    func testSecurityPolicyCertificatePinning() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let pinnedRoot = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try TestCertificates.certificates("ecdsa/root.pem"))
        let accepted = try connect(
            port: server.port, verifier: TLSTrustVerifier(securityPolicy: pinnedRoot, settings: try TestCertificates.settings()))
        XCTAssertNil(accepted.error)

        let pinnedOther = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try TestCertificates.certificates("rsa/root.pem"))
        let rejected = try connect(
            port: server.port, verifier: TLSTrustVerifier(securityPolicy: pinnedOther, settings: try TestCertificates.settings()))
        let failure = try XCTUnwrap(rejection(rejected))
        guard case .judgeRejected = failure, case .pinnedAnchorEvaluationFailed? = failure.securityPolicyFailure else { return XCTFail("\(failure)") }
    }

    func testSNINameIsTheIdentityAndAnIPAddressIsCheckedAsOne() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf-ip.pem", "ecdsa/intermediate.pem"])
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings())
        // The leaf names 192.0.2.10 only: checked as an IP address (no SNI is sent for it).
        XCTAssertNil(try connect(port: server.port, host: "192.0.2.10", verifier: verifier).error)
        XCTAssertNotNil(rejection(try connect(port: server.port, host: "192.0.2.11", verifier: verifier)))
    }

    func testVerificationOffTheEventLoopGivesTheSameDecisions() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings(), execution: .offEventLoop)
        let failure = try XCTUnwrap(rejection(try connect(port: server.port, verifier: verifier)))
        XCTAssertTrue(contains(failure.trustFailures, index: 0) { if case .expired = $0 { true } else { false } }, "\(failure)")
        let good = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        XCTAssertNil(try connect(port: good.port, verifier: verifier).error)
    }

    // MARK: - openssl s_server, a TLS peer we did not write

    func testOpenSSLServerGoodChainIsTrusted() throws {
        let server = try OpenSSLServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        defer { server.stop() }
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        XCTAssertNil(result.error)
        XCTAssertEqual(result.record.trustedPeer?.validatedChain?.count, 3)
    }

    func testOpenSSLServerRSAChainUnderTheWrongAnchorIsRejected() throws {
        let server = try OpenSSLServer(presenting: ["rsa/leaf.pem", "rsa/intermediate.pem"])
        defer { server.stop() }
        XCTAssertNil(
            try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings(anchors: ["rsa/root.pem"]))).error)
        let failure = try XCTUnwrap(rejection(try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))))
        XCTAssertTrue(contains(failure.trustFailures) { if case .issuerNotFound = $0 { true } else { false } }, "\(failure)")
    }

    func testOpenSSLServerExpiredLeafIsRejected() throws {
        let server = try OpenSSLServer(presenting: ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        defer { server.stop() }
        let failure = try XCTUnwrap(rejection(try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))))
        XCTAssertTrue(contains(failure.trustFailures, index: 0) { if case .expired = $0 { true } else { false } }, "\(failure)")
    }
}

/// The hooks for frameworks that build the TLS pipeline themselves (gRPC Swift 2, Hummingbird).
final class FrameworkHookTests: LoopbackTestCase {
    func testSendableCallbackReportsEachOutcomeWithoutARecord() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        let outcomes = OutcomeLog()
        let callback = try TLSTrustVerifier(settings: try TestCertificates.settings())
            .verificationCallback(for: .server(host: TestCertificates.host), onOutcome: { outcomes.append($0) })
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: configuration)
        let handshake = group.next().makePromise(of: Void.self)
        handshake.failAfterTimeout(on: group.next())
        let channel = try ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        NIOSSLClientHandler(context: context, serverHostname: TestCertificates.host, customVerificationCallbackWithMetadata: callback)
                    )
                    try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                }
            }
            .connect(host: "127.0.0.1", port: server.port).wait()
        XCTAssertThrowsError(try handshake.futureResult.wait())
        try? channel.close().wait()
        guard case let .rejected(failure)? = outcomes.all.first else { return XCTFail("no rejection reported") }
        XCTAssertTrue(contains(failure.trustFailures, index: 0) { if case .expired = $0 { true } else { false } }, "\(failure)")
        XCTAssertEqual(outcomes.all.count, 1)
    }

    func testAsyncVerificationOfSwiftNIOSSLCertificates() async throws {
        let presented = try ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"].flatMap {
            try NIOSSLCertificate.fromPEMFile(TestCertificates.path($0))
        }
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings())
        guard case let .trusted(peer) = await verifier.verify(presented, role: .client) else { return XCTFail("client rejected") }
        XCTAssertEqual(peer.validatedChain?.count, 3)
        guard case .rejected = await verifier.verify(presented, role: .server(host: TestCertificates.host)) else {
            return XCTFail("a client certificate was accepted as a server's")
        }
        guard case .rejected(.noPeerCertificates) = await verifier.verify([NIOSSLCertificate](), role: .client) else {
            return XCTFail("no certificates accepted")
        }
    }
}

/// Outcomes reported from the event loop, read by the test.
final class OutcomeLog: Sendable {
    private let outcomes = Mutex<[TLSTrustOutcome]>([])
    func append(_ outcome: TLSTrustOutcome) { outcomes.withLock { $0.append(outcome) } }
    var all: [TLSTrustOutcome] { outcomes.withLock { $0 } }
}
