#if GRPC
import GRPCCore
import GRPCNIOTransportHTTP2
import NIOSSL
import OpenSSLServerSupport
import SwiftTrust
import SwiftTrustGRPC
import TrustNIO
import XCTest

/// SwiftTrustGRPC's mutual-TLS server on loopback: a SwiftTrust-verified gRPC client's identity
/// in the handler, a revoked client refused through its CRL with the typed reason (the call fails,
/// the handler never runs), and a resumed session (`openssl s_client`) of a client revoked since refused.
final class GRPCServerIntegrationTests: XCTestCase {
    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
    }

    func testAVerifiedClientsIdentityReachesTheHandler() async throws {
        let fixture = try MutualTLSFixture()
        try await withServer(fixture) { port, _, calls in
            let answer = try await Self.whoAmI(port: port, identity: fixture.clientIdentity(revoked: false))
            XCTAssertTrue(answer.contains(ClientRevocationPKI.goodClientEmail), answer)
            XCTAssertEqual(calls.all.count, 1)
        }
    }

    func testARevokedClientIsRefusedThroughItsCRLAndItsCallNeverRuns() async throws {
        let fixture = try MutualTLSFixture()
        try await withServer(fixture) { port, rejections, calls in
            do {
                _ = try await Self.whoAmI(port: port, identity: fixture.clientIdentity(revoked: true))
                XCTFail("a revoked client's call was answered")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .unavailable, "\(error)")
            }
            let rejection = try await rejections.first()
            XCTAssertTrue(rejection.failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } }, "\(rejection)")
            XCTAssertEqual(calls.all.count, 0, "the handler ran for a refused client")
        }
    }

    /// Issue 41: a client with the required identity is answered; one without is refused in the
    /// handshake with the rule named, and its call never runs.
    func testOnlyClientsWithTheRequiredIdentityAreAnswered() async throws {
        let allowed = try MutualTLSFixture(requiredIdentity: .subject(.commonName, equals: "Good Client"))
        try await withServer(allowed) { port, _, calls in
            let answer = try await Self.whoAmI(port: port, identity: allowed.clientIdentity(revoked: false))
            XCTAssertTrue(answer.contains(ClientRevocationPKI.goodClientEmail), answer)
            XCTAssertEqual(calls.all.count, 1)
        }
        let rule = try IdentityRule.spiffeID(trustDomain: "swifttrust.test")
        let refusing = try MutualTLSFixture(requiredIdentity: rule)
        try await withServer(refusing) { port, rejections, calls in
            do {
                _ = try await Self.whoAmI(port: port, identity: refusing.clientIdentity(revoked: false))
                XCTFail("a client without the required identity was answered")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .unavailable, "\(error)")
            }
            let rejection = try await rejections.first()
            XCTAssertEqual(rejection.failure, .identityNotAllowed(rule))
            XCTAssertEqual(calls.all.count, 0, "the handler ran for a refused client")
        }
    }

    /// Issue 41: a gRPC client's X.509-SVID is answered under its trust domain's bundle, with the
    /// SPIFFE ID in the handler, and refused under another trust domain's authorities.
    func testAnSVIDIsVerifiedAgainstTheBundleOfItsTrustDomain() async throws {
        let pki = try SPIFFEIntegration.pki()
        let own = try MutualTLSFixture(
            requiredIdentity: nil,
            clientSettings: SPIFFEIntegration.settings([SPIFFEIntegration.exampleBundle()]))
        try await withServer(own) { port, _, _ in
            let answer = try await Self.whoAmI(port: port, identity: SPIFFEIntegration.identity(pki.client))
            XCTAssertTrue(answer.contains(SPIFFEPKI.clientID), answer)
        }
        let foreign = try MutualTLSFixture(clientSettings: SPIFFEIntegration.settings([SPIFFEIntegration.otherAuthoritiesForExample()]))
        try await withServer(foreign) { port, rejections, calls in
            do {
                _ = try await Self.whoAmI(port: port, identity: SPIFFEIntegration.identity(pki.client))
                XCTFail("an SVID was answered under another trust domain's authorities")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .unavailable, "\(error)")
            }
            let rejection = try await rejections.first()
            guard case .evaluationFailed = rejection.failure else { return XCTFail("\(rejection.failure)") }
            XCTAssertEqual(calls.all.count, 0)
        }
    }

    func testAResumedSessionOfAClientRevokedSinceIsRefused() async throws {
        let fixture = try MutualTLSFixture()
        try await withServer(fixture) { port, rejections, _ in
            // TLS 1.2: s_client ends after the handshake (a gRPC server waits for its HTTP/2 preface).
            let first = try fixture.sClient(port: port, session: "grpc.pem", resume: false, tls13: false)
            XCTAssertTrue(first.contains("SSL-Session:"), "no handshake:\n\(first)")
            XCTAssertTrue(rejections.all.isEmpty, "the good client was refused: \(rejections.all)")
            try fixture.revokeTheGoodClient()
            let resumed = try fixture.sClient(port: port, session: "grpc.pem", resume: true, tls13: false)
            XCTAssertTrue(resumed.contains("Reused,"), "the session was not resumed:\n\(resumed)")
            let rejection = try await rejections.first()
            XCTAssertTrue(rejection.sessionResumed)
            XCTAssertTrue(rejection.failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } }, "\(rejection)")
        }
    }

    func testOptionalClientCertificatesAreRefused() throws {
        let fixture = try MutualTLSFixture()
        let identity = try IntegrationPKI.identity(IntegrationPKI.serverChain)
        let route = try TLSServerTrustRoute(
            certificateChain: identity.chain, privateKey: identity.key,
            clientVerifier: TLSTrustVerifier(settings: fixture.clientSettings()), clientCertificates: .optional)
        XCTAssertThrowsError(try GRPCServerTrust(route: route)) { error in
            XCTAssertEqual(error as? TLSTrustRouteError, .optionalClientCertificatesUnsupported)
        }
    }

    /// Calls `WhoAmI/Get` on 127.0.0.1:`port` presenting `identity`, the server verified by SwiftTrust.
    private static func whoAmI(port: Int, identity: (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource)) async throws -> String {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateChain = identity.chain
        tls.privateKey = identity.key
        var settings = TLSTrustSettings(anchors: try IntegrationPKI.certificates("ecdsa/root.pem"))
        settings.additionalIntermediates = try IntegrationPKI.certificates("ecdsa/intermediate.pem")
        let route = try TLSClientTrustRoute(host: IntegrationPKI.host, verifier: TLSTrustVerifier(settings: settings), configuration: tls)
        let transport = try HTTP2ClientTransport.Posix.swiftTrust(target: .ipv4(address: "127.0.0.1", port: port), route: route)
        return try await withGRPCClient(transport: transport) { client in
            var options = CallOptions.defaults
            options.waitForReady = false
            options.timeout = .seconds(10)
            return try await client.unary(
                request: ClientRequest(message: ""), descriptor: WhoAmIService.get,
                serializer: TextCoder(), deserializer: TextCoder(), options: options
            ) { try $0.message }
        }
    }

    /// A gRPC server on 127.0.0.1 behind `GRPCServerTrust`, for `body`.
    private func withServer(
        _ fixture: MutualTLSFixture,
        _ body: @escaping @Sendable (Int, Reports<TLSTrustRejection>, Reports<String>) async throws -> Void
    ) async throws {
        let route = try fixture.serverRoute()
        try await withDeadline {
            let rejections = Reports<TLSTrustRejection>(), calls = Reports<String>()
            let trust = try GRPCServerTrust(route: route, onRejection: { rejections.add($0) })
            let transport = trust.makeTransport(address: .ipv4(host: "127.0.0.1", port: 0))
            let server = GRPCServer(transport: transport, services: [WhoAmIService(trust: trust, calls: calls)])
            let serving = Task { try await server.serve() }
            defer {
                server.beginGracefulShutdown()
                serving.cancel()
            }
            guard let port = try await transport.listeningAddress.ipv4?.port else { throw LoopbackTimeout() }
            try await Task.detached { try await body(port, rejections, calls) }.value
        }
    }
}

/// `swifttrust.test.WhoAmI/Get`: answers the verified client's subjectAltNames.
private struct WhoAmIService: RegistrableRPCService {
    static let get = MethodDescriptor(fullyQualifiedService: "swifttrust.test.WhoAmI", method: "Get")
    let trust: GRPCServerTrust
    let calls: Reports<String>

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(forMethod: Self.get, deserializer: TextCoder(), serializer: TextCoder()) { [trust, calls] request, context in
            for try await _ in request.messages {}
            let peer = try trust.requireTrustedPeer(of: context)
            let names = peer.subjectAlternativeNames.map { "\($0)" }.joined(separator: ", ")
            calls.add(names)
            return StreamingServerResponse(single: ServerResponse(message: names))
        }
    }
}

/// Text messages as their UTF-8 bytes.
private struct TextCoder: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: String) throws -> Bytes { Bytes(Array(message.utf8)) }

    func deserialize<Bytes: GRPCContiguousBytes>(_ bytes: Bytes) throws -> String {
        bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
#endif // GRPC
