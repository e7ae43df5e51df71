import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import TrustCore
import TrustNIO
import TrustPinning
import TrustSession
import TrustTestSupport
import XCTest

/// The one-call TLS routes: the configurations they make, what they refuse, and both ends on loopback.
final class TLSTrustRouteTests: LoopbackTestCase {
    private let serverChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]
    private let clientChain = ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"]

    func testClientRouteReplacesAVerificationModeUnderWhichBoringSSLIgnoresTheVerifier() throws {
        var unsafe = TLSConfiguration.makeClientConfiguration()
        unsafe.certificateVerification = .none
        let route = try TLSClientTrustRoute(
            host: TestCertificates.host, verifier: TLSTrustVerifier(settings: TestCertificates.settings()),
            configuration: unsafe)
        XCTAssertEqual(route.tlsConfiguration.certificateVerification, .noHostnameVerification)
        XCTAssertEqual(route.serverName, TestCertificates.host)
        XCTAssertEqual(route.role, .server(host: TestCertificates.host))
        let byAddress = try TLSClientTrustRoute(host: "127.0.0.1", verifier: TLSTrustVerifier(settings: TestCertificates.settings()))
        XCTAssertNil(byAddress.serverName, "SNI carries no IP address")
    }

    func testServerRouteAsksForClientCertificates() throws {
        let identity = try TestCertificates.identity(presenting: serverChain)
        let verifier = try TLSTrustVerifier(settings: TestCertificates.settings())
        let required = try TLSServerTrustRoute(certificateChain: identity.chain, privateKey: identity.key, clientVerifier: verifier)
        XCTAssertEqual(required.tlsConfiguration.certificateVerification, .noHostnameVerification)
        let optional = try TLSServerTrustRoute(
            certificateChain: identity.chain, privateKey: identity.key, clientVerifier: verifier,
            clientCertificates: .optional)
        XCTAssertEqual(optional.tlsConfiguration.certificateVerification, .optionalVerification)
    }

    func testServerRouteRefusesAVerifierThatCannotJudgeClients() throws {
        let identity = try TestCertificates.identity(presenting: serverChain)
        XCTAssertThrowsError(
            try TLSServerTrustRoute(
                certificateChain: identity.chain, privateKey: identity.key,
                clientVerifier: TLSTrustVerifier())
        ) { error in
            XCTAssertEqual(error as? TLSTrustConfigurationError, .clientAnchorsNotExplicit)
        }
        let pinned = try TLSTrustVerifier(evaluator: DefaultTrustEvaluator(), settings: TestCertificates.settings())
        XCTAssertThrowsError(
            try TLSServerTrustRoute(
                certificateChain: identity.chain, privateKey: identity.key,
                clientVerifier: pinned)
        ) { error in
            XCTAssertEqual(error as? TLSTrustConfigurationError, .clientCertificatesNeedPlainEvaluation)
        }
    }

    func testHandlersRefuseAContextNotMadeFromTheRoute() throws {
        let route = try TLSClientTrustRoute(host: TestCertificates.host, verifier: TLSTrustVerifier(settings: TestCertificates.settings()))
        var other = TLSConfiguration.makeClientConfiguration()
        other.certificateVerification = .optionalVerification
        XCTAssertThrowsError(try route.makeHandlers(context: NIOSSLContext(configuration: other))) { error in
            XCTAssertEqual(error as? TLSTrustRouteError, .contextNotFromRoute)
        }
    }

    func testRoutesVerifyBothPeersAndGiveEachConnectionItsRecord() throws {
        let server = try startRouteServer()
        let client = try connectThroughRoute(port: server.port, presenting: clientChain)
        XCTAssertNil(client.error)
        XCTAssertEqual(client.record.trustedPeer?.leaf, try TestCertificates.certificates("ecdsa/leaf.pem").first)
        let accepted = try next(server.records)
        XCTAssertEqual(try accepted.handshake.wait()?.leaf, try TestCertificates.certificates("ecdsa/leaf-client.pem").first)
        XCTAssertEqual(accepted.record.trustedPeer?.subjectAlternativeNames, [.rfc822Name("user@swifttrust.test")])

        // A second client, presenting the server's certificate (serverAuth only): its own record holds its rejection.
        _ = try connectThroughRoute(port: server.port, presenting: serverChain)
        let refused = try next(server.records)
        XCTAssertThrowsError(try refused.handshake.wait()) { error in
            guard let rejection = error as? TLSTrustError else { return XCTFail("\(error)") }
            XCTAssertTrue(
                contains(rejection.failure.trustFailures, index: 0) {
                    if case .extendedKeyUsageIncompatible = $0 { true } else { false }
                }, "\(rejection)")
        }
        XCTAssertNotNil(refused.record.failure)
        XCTAssertNotNil(accepted.record.trustedPeer, "the first connection's record is its own")
    }

    func testClientRouteRejectsAWrongPinWithTheTypedReason() throws {
        let server = try startRouteServer()
        let pins = ["sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "sha256/AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="]
        let manager = try ServerTrustManager(evaluators: [TestCertificates.host: PinnedSPKIHashesTrustEvaluator(pins: pins)])
        let result = try connectThroughRoute(
            port: server.port, presenting: clientChain,
            verifier: TLSTrustVerifier(evaluator: manager, settings: TestCertificates.settings()))
        guard let failure = rejection(result) else { return }
        guard case .judgeRejected = failure, failure.serverTrustFailureReason != nil else { return XCTFail("\(failure)") }
    }

    // MARK: - Support

    private struct RouteConnection: Sendable {
        let record: TLSPeerTrustRecord
        let handshake: EventLoopFuture<TrustedPeer?>
    }

    /// The connections a route server accepted, in order, signalled one by one.
    private final class RouteConnections: Sendable {
        let connections = Mutex<[RouteConnection]>([])
        let arrived = DispatchSemaphore(value: 0)
    }

    private func startRouteServer() throws -> (port: Int, records: RouteConnections) {
        let identity = try TestCertificates.identity(presenting: serverChain)
        let route = try TLSServerTrustRoute(
            certificateChain: identity.chain, privateKey: identity.key,
            clientVerifier: TLSTrustVerifier(settings: TestCertificates.settings()))
        let context = try route.makeContext()
        let accepted = RouteConnections()
        let server = try ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let record = try channel.pipeline.syncOperations.addHandlers(of: route, context: context)
                    let handshake = channel.eventLoop.makePromise(of: Void.self)
                    try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                    handshake.failAfterTimeout(on: channel.eventLoop)
                    let connection = RouteConnection(record: record, handshake: handshake.futureResult.map { record.trustedPeer })
                    accepted.connections.withLock { $0.append(connection) }
                    accepted.arrived.signal()
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        addCleanup { try server.close().wait() }
        return (try XCTUnwrap(server.localAddress?.port), accepted)
    }

    private func connectThroughRoute(
        port: Int, presenting files: [String],
        verifier: TLSTrustVerifier? = nil
    ) throws -> ClientResult {
        var configuration = TLSConfiguration.makeClientConfiguration()
        let identity = try TestCertificates.identity(presenting: files)
        configuration.certificateChain = identity.chain
        configuration.privateKey = identity.key
        let route = try TLSClientTrustRoute(
            host: TestCertificates.host, verifier: verifier ?? TLSTrustVerifier(settings: TestCertificates.settings()),
            port: port, configuration: configuration)
        let context = try route.makeContext()
        return try connect(port: port) { pipeline in try pipeline.addHandlers(of: route, context: context) }
    }

    private func next(_ records: RouteConnections) throws -> RouteConnection {
        guard records.arrived.wait(timeout: .now() + 10) == .success else { throw LoopbackTimeout() }
        return try XCTUnwrap(records.connections.withLock { $0.isEmpty ? nil : $0.removeFirst() })
    }

}
