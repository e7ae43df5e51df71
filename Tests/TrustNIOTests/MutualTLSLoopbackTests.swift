import NIOCore
import NIOSSL
import TrustCore
import TrustNIO
import TrustX509
import TrustTestSupport
import XCTest

/// A NIO server verifying client certificates (mutual TLS) with `.ssl(server: false)` against its anchors.
final class MutualTLSLoopbackTests: LoopbackTestCase {
    private let serverChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]

    func testClientCertificateIsAcceptedAndItsIdentityIsReadableFromTheChannel() throws {
        let server = try startNIOServer(presenting: serverChain, clientVerifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        let client = try connect(
            port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()),
            clientIdentity: ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"])
        XCTAssertNil(client.error)
        let connection = try firstConnection(server.connections)
        let peer = try XCTUnwrap(try connection.peerAtHandshake.wait())
        let leaf = try XCTUnwrap(TestCertificates.certificates("ecdsa/leaf-client.pem").first)
        XCTAssertEqual(peer.role, .client)
        XCTAssertEqual(peer.leaf, leaf)
        XCTAssertEqual(peer.subject, leaf.subject)
        XCTAssertEqual(peer.subjectAlternativeNames, [.rfc822Name("user@swifttrust.test")])
        XCTAssertEqual(peer.validatedChain?.count, 3)
        XCTAssertEqual(connection.record?.trustedPeer?.leaf, leaf)
    }

    func testServerCertificateAsClientCertificateIsRejectedForItsExtendedKeyUsage() throws {
        let server = try startNIOServer(presenting: serverChain, clientVerifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        // Under TLS 1.3 the client's handshake completes before the server judges its certificate.
        _ = try connect(
            port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()),
            clientIdentity: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let connection = try firstConnection(server.connections)
        XCTAssertThrowsError(try connection.handshake.wait()) { error in
            guard let rejection = error as? TLSTrustError else { return XCTFail("\(error)") }
            XCTAssertTrue(
                contains(rejection.failure.trustFailures, index: 0) {
                    if case .extendedKeyUsageIncompatible = $0 { true } else { false }
                }, "\(rejection)")
        }
        XCTAssertNil(connection.record?.trustedPeer)
    }

    func testClientCertificateFromAnotherRootIsRejected() throws {
        let server = try startNIOServer(
            presenting: serverChain,
            clientVerifier: TLSTrustVerifier(settings: try TestCertificates.settings(anchors: ["rsa/root.pem"])))
        _ = try connect(
            port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()),
            clientIdentity: ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"])
        let connection = try firstConnection(server.connections)
        XCTAssertThrowsError(try connection.handshake.wait()) { error in
            guard let rejection = error as? TLSTrustError else { return XCTFail("\(error)") }
            XCTAssertTrue(contains(rejection.failure.trustFailures) { if case .issuerNotFound = $0 { true } else { false } }, "\(rejection)")
        }
        guard case .rejected? = connection.record?.outcome else { return XCTFail("no rejection recorded") }
    }

    func testClientWithoutCertificateIsRefused() throws {
        let server = try startNIOServer(presenting: serverChain, clientVerifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        _ = try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()))
        let connection = try firstConnection(server.connections)
        XCTAssertThrowsError(try connection.handshake.wait())
        XCTAssertNil(connection.record?.outcome, "no certificate, no verification")
    }

    func testServerHandlersRefuseAJudgeOtherThanPlainEvaluation() throws {
        let identity = try TestCertificates.identity(presenting: serverChain)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: identity.chain, privateKey: identity.key)
        configuration.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: configuration)
        let verifier = try TLSTrustVerifier(securityPolicy: .default, settings: try TestCertificates.settings())
        XCTAssertThrowsError(try verifier.makeServerHandlers(context: context)) { error in
            XCTAssertEqual(error as? TLSTrustConfigurationError, .clientCertificatesNeedPlainEvaluation)
        }
    }

    /// Issue 34 item 2: a server verifying client certificates needs explicit anchors, as rustls'
    /// client verifier needs roots; the system store only when the settings name it.
    func testServerHandlersRefuseClientVerificationAgainstTheSystemStore() throws {
        let identity = try TestCertificates.identity(presenting: serverChain)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: identity.chain, privateKey: identity.key)
        configuration.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: configuration)
        XCTAssertThrowsError(try TLSTrustVerifier().makeServerHandlers(context: context)) { error in
            XCTAssertEqual(error as? TLSTrustConfigurationError, .clientAnchorsNotExplicit)
        }
        var alongside = try TestCertificates.settings()
        alongside.anchorsOnly = false
        XCTAssertThrowsError(try TLSTrustVerifier(settings: alongside).makeServerHandlers(context: context)) { error in
            XCTAssertEqual(error as? TLSTrustConfigurationError, .clientAnchorsNotExplicit)
        }
        var named = TLSTrustSettings()
        named.systemStoreTrustsClients = true
        XCTAssertNoThrow(try TLSTrustVerifier(settings: named).makeServerHandlers(context: context))
        XCTAssertNoThrow(try TLSTrustVerifier(settings: try TestCertificates.settings()).makeServerHandlers(context: context))
    }

    func testHandlersRefuseAContextThatVerifiesNothing() throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        let context = try NIOSSLContext(configuration: configuration)
        XCTAssertThrowsError(try TLSTrustVerifier().makeClientHandlers(context: context, host: TestCertificates.host)) { error in
            XCTAssertEqual(error as? TLSTrustConfigurationError, .certificateVerificationDisabled)
        }
    }
}
