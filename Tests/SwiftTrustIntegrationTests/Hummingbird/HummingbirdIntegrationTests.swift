#if Hummingbird
import Hummingbird
import OpenSSLServerSupport
import SwiftTrust
import SwiftTrustHummingbird
import TrustNIO
import XCTest

/// SwiftTrustHummingbird on loopback, with `openssl s_client` as the client (a client we did not
/// write, which can resume sessions): the verified client's identity in the handler, a revoked
/// client refused through its CRL with the typed reason, a resumed session re-verified (carrying
/// the identity; refused once the client was revoked).
final class HummingbirdIntegrationTests: XCTestCase {
    private static let request = "GET /whoami HTTP/1.1\r\nHost: \(IntegrationPKI.host)\r\nConnection: close\r\n\r\n"

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
    }

    func testAVerifiedClientsIdentityReachesTheHandlerAlsoOnAResumedSession() async throws {
        let fixture = try MutualTLSFixture()
        try await withServer(fixture) { port, _ in
            let first = try fixture.sClient(port: port, session: "hb.pem", resume: false, input: Self.request)
            XCTAssertTrue(first.contains("HTTP/1.1 200"), first)
            XCTAssertTrue(first.contains(ClientRevocationPKI.goodClientEmail), first)
            let resumed = try fixture.sClient(port: port, session: "hb.pem", resume: true, input: Self.request)
            XCTAssertTrue(resumed.contains("Reused,"), "the session was not resumed:\n\(resumed)")
            XCTAssertTrue(resumed.contains("HTTP/1.1 200"), resumed)
            XCTAssertTrue(resumed.contains(ClientRevocationPKI.goodClientEmail), "the resumed session lost the identity:\n\(resumed)")
        }
    }

    func testAResumedSessionOfAClientRevokedSinceIsRefused() async throws {
        let fixture = try MutualTLSFixture()
        try await withServer(fixture) { port, rejections in
            let first = try fixture.sClient(port: port, session: "hb-revoked.pem", resume: false, input: Self.request)
            XCTAssertTrue(first.contains("HTTP/1.1 200"), first)
            try fixture.revokeTheGoodClient()
            let resumed = try fixture.sClient(port: port, session: "hb-revoked.pem", resume: true, input: Self.request)
            XCTAssertTrue(resumed.contains("Reused,"), "the session was not resumed:\n\(resumed)")
            XCTAssertFalse(resumed.contains("HTTP/1.1 200"), "a revoked client was served on its old session:\n\(resumed)")
            let rejection = try await rejections.first()
            XCTAssertTrue(rejection.sessionResumed)
            XCTAssertTrue(rejection.failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } }, "\(rejection)")
        }
    }

    func testARevokedClientIsRefusedThroughItsCRLWithTheTypedReason() async throws {
        let fixture = try MutualTLSFixture()
        try await withServer(fixture) { port, rejections in
            let output = try OpenSSLCommand.output(
                of: [
                    "s_client", "-connect", "127.0.0.1:\(port)", "-servername", IntegrationPKI.host, "-ign_eof",
                    "-cert", fixture.pki.revokedClientPath, "-key", fixture.pki.revokedClientKeyPath,
                ], input: Self.request)
            XCTAssertFalse(output.contains("HTTP/1.1 200"), output)
            let rejection = try await rejections.first()
            XCTAssertFalse(rejection.sessionResumed)
            XCTAssertEqual(rejection.remoteAddress?.ipAddress, "127.0.0.1")
            XCTAssertTrue(rejection.failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } }, "\(rejection)")
        }
    }

    /// Issue 41: an identity rule the client matches serves it; one it does not match closes the
    /// connection in the handshake, with the rule named, and the handler never answers.
    func testOnlyClientsWithTheRequiredIdentityAreServed() async throws {
        let allowed = try MutualTLSFixture(requiredIdentity: .any([try .dnsName("nobody.test"), try .email(ClientRevocationPKI.goodClientEmail)]))
        try await withServer(allowed) { port, _ in
            let output = try allowed.sClient(port: port, session: "hb-allowed.pem", resume: false, input: Self.request)
            XCTAssertTrue(output.contains("HTTP/1.1 200"), output)
        }
        let rule = try IdentityRule.emailDomain("payments.swifttrust.test")
        let refusing = try MutualTLSFixture(requiredIdentity: rule)
        try await withServer(refusing) { port, rejections in
            let output = try refusing.sClient(port: port, session: "hb-refused.pem", resume: false, input: Self.request)
            XCTAssertFalse(output.contains("HTTP/1.1 200"), output)
            let rejection = try await rejections.first()
            XCTAssertEqual(rejection.failure, .identityNotAllowed(rule))
        }
    }

    /// Issue 41: a client's X.509-SVID is accepted under its trust domain's bundle and refused
    /// under another trust domain's authorities, and where no bundle exists for its trust domain.
    func testAnSVIDIsVerifiedAgainstTheBundleOfItsTrustDomain() async throws {
        let pki = try SPIFFEIntegration.pki()
        let own = try MutualTLSFixture(clientSettings: SPIFFEIntegration.settings([SPIFFEIntegration.exampleBundle()]))
        try await withServer(own) { port, _ in
            let output = try OpenSSLCommand.output(
                of: ["s_client", "-connect", "127.0.0.1:\(port)", "-ign_eof"]
                    + SPIFFEIntegration.sClientArguments(pki.client), input: Self.request)
            XCTAssertTrue(output.contains("HTTP/1.1 200"), output)
            XCTAssertTrue(output.contains(SPIFFEPKI.clientID), output)
        }
        let foreign = try MutualTLSFixture(clientSettings: SPIFFEIntegration.settings([SPIFFEIntegration.otherAuthoritiesForExample()]))
        try await withServer(foreign) { port, rejections in
            let output = try OpenSSLCommand.output(
                of: ["s_client", "-connect", "127.0.0.1:\(port)", "-ign_eof"]
                    + SPIFFEIntegration.sClientArguments(pki.client), input: Self.request)
            XCTAssertFalse(output.contains("HTTP/1.1 200"), output)
            let rejection = try await rejections.first()
            guard case .evaluationFailed = rejection.failure else { return XCTFail("\(rejection.failure)") }
        }
        let unbundled = try MutualTLSFixture(clientSettings: SPIFFEIntegration.settings([SPIFFEIntegration.otherBundle()]))
        try await withServer(unbundled) { port, rejections in
            let output = try OpenSSLCommand.output(
                of: ["s_client", "-connect", "127.0.0.1:\(port)", "-ign_eof"]
                    + SPIFFEIntegration.sClientArguments(pki.client), input: Self.request)
            XCTAssertFalse(output.contains("HTTP/1.1 200"), output)
            let rejection = try await rejections.first()
            XCTAssertEqual(rejection.failure, .anchorsUnavailable(.noBundleForLeaf(.noBundle(trustDomain: try SPIFFETrustDomain("example.org")))))
        }
    }

    /// A Hummingbird 2 server on 127.0.0.1 (`GET /whoami` answers the client's SANs) for `body`.
    private func withServer(
        _ fixture: MutualTLSFixture,
        _ body: @escaping @Sendable (Int, Reports<TLSTrustRejection>) async throws -> Void
    ) async throws {
        let route = try fixture.serverRoute()
        try await withDeadline {
            let rejections = Reports<TLSTrustRejection>(), ports = Reports<Int>()
            let router = Router(context: TrustedPeerRequestContext.self)
            router.get("whoami") { _, context -> String in
                try await context.requireTrustedPeer().subjectAlternativeNames.map { "\($0)" }.joined(separator: ", ")
            }
            let app = Application(
                router: router, server: .swiftTrustTLS(route: route, onRejection: { rejections.add($0) }),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { ports.add($0.localAddress?.port ?? 0) })
            let server = Task { try await app.runService(gracefulShutdownSignals: []) }
            defer { server.cancel() }
            let port = try await ports.first()
            // s_client blocks its thread: run it off the cooperative pool's own threads.
            try await Task.detached { try await body(port, rejections) }.value
        }
    }
}
#endif // Hummingbird
