#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import OpenSSLServerSupport
import SwiftTrust
import SwiftTrustAsyncHTTPClient
import TrustNIO
import XCTest

/// SwiftTrustAsyncHTTPClient on loopback, against HTTPS servers the tests start (HTTP/1.1 and
/// HTTP/2), each recording what it received: accepted with the peer's identity, refused with the
/// typed reason and no request byte on the refused connection, a revoked leaf refused through its
/// CRL, redirects decided for their own host, every connection decided.
final class AsyncHTTPClientIntegrationTests: XCTestCase {
    private static let versions: [RecordingHTTPSServer.HTTPVersion] = [.http1, .http2]

    func testATrustedServerAnswersAndTheOutcomeCarriesItsIdentity() async throws {
        for version in Self.versions {
            try await withDeadline {
                let server = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: version)
                let outcomes = Reports<(String, TLSTrustOutcome)>()
                let client = try TrustedHTTPClient(
                    verifier: TLSTrustVerifier(settings: IntegrationPKI.settings()),
                    configuration: Self.configuration(), onOutcome: { outcomes.add(($0, $1)) })
                let response = try await client.execute(HTTPClientRequest(url: Self.url("/hello", port: server.port)), timeout: .seconds(10))
                let body = String(buffer: try await response.body.collect(upTo: 1024))
                try await client.shutdown()
                await server.stop()
                XCTAssertEqual(response.status, .ok, "\(version)")
                XCTAssertEqual(body, "hello /hello", "\(version)")
                XCTAssertEqual(response.version.major, version == .http1 ? 1 : 2)
                let (host, outcome) = try await outcomes.first()
                XCTAssertEqual(host, IntegrationPKI.host)
                guard case let .trusted(peer) = outcome else { return XCTFail("\(version): \(outcome)") }
                XCTAssertEqual(peer.subjectAlternativeNames.map { "\($0)" }, ["DNS:\(IntegrationPKI.host)"], "\(version)")
                XCTAssertEqual(peer.validatedChain?.count, 3, "leaf, intermediate from the settings, root")
            }
        }
    }

    func testAWrongPinIsRefusedWithTheTypedReasonAndNoRequestReachesTheServer() async throws {
        for version in Self.versions {
            try await withDeadline {
                let server = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: version)
                let manager = try ServerTrustManager(evaluators: [
                    IntegrationPKI.host: PinnedSPKIHashesTrustEvaluator(pins: [Self.unusedPin(1), Self.unusedPin(2)])
                ])
                let client = try TrustedHTTPClient(
                    verifier: TLSTrustVerifier(evaluator: manager, settings: IntegrationPKI.settings()),
                    configuration: Self.configuration())
                let error = await Self.error(of: client, path: "/secret-path", port: server.port)
                try await client.shutdown()
                await server.stop()
                let rejection = try XCTUnwrap(error as? TLSTrustError, "\(version): \(String(describing: error))")
                guard case let .judgeRejected(host, _) = rejection.failure,
                    case .publicKeyPinningFailed? = rejection.failure.serverTrustFailureReason
                else { return XCTFail("\(rejection)") }
                XCTAssertEqual(host, IntegrationPKI.host)
                XCTAssertEqual(rejection.tlsError as? HTTPClientTrustRejection, .connectionClosedBeforeRequest)
                Self.assertNoRequest(reached: server, version: version)
            }
        }
    }

    /// Issue 41: a server without the identity the client requires (a DNS name it is not issued
    /// for, though its chain and host validate) is refused in the handshake with the rule named, and
    /// no request byte reaches it; one with it answers.
    func testAServerWithoutTheRequiredIdentityIsRefusedBeforeAnyRequest() async throws {
        for version in Self.versions {
            try await withDeadline {
                let server = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: version)
                var allowed = try IntegrationPKI.settings()
                allowed.requiredIdentity = try .dnsName(IntegrationPKI.host)
                let client = try TrustedHTTPClient(verifier: TLSTrustVerifier(settings: allowed), configuration: Self.configuration())
                let response = try await client.execute(HTTPClientRequest(url: Self.url("/hello", port: server.port)), timeout: .seconds(10))
                XCTAssertEqual(response.status, .ok, "\(version)")
                try await client.shutdown()
                await server.stop()

                let refusedServer = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: version)
                let rule = try IdentityRule.spiffeID("spiffe://swifttrust.test/payments")
                var refusing = try IntegrationPKI.settings()
                refusing.requiredIdentity = rule
                let refused = try TrustedHTTPClient(verifier: TLSTrustVerifier(settings: refusing), configuration: Self.configuration())
                let error = await Self.error(of: refused, path: "/secret-path", port: refusedServer.port)
                try await refused.shutdown()
                await refusedServer.stop()
                let rejection = try XCTUnwrap(error as? TLSTrustError, "\(version): \(String(describing: error))")
                XCTAssertEqual(rejection.failure, .identityNotAllowed(rule))
                Self.assertNoRequest(reached: refusedServer, version: version)
            }
        }
    }

    /// Issue 41: a server's X.509-SVID is accepted under its trust domain's bundle (the SPIFFE ID is
    /// its identity, not the host name) and refused, with no request byte sent, under another trust
    /// domain's authorities.
    func testAServersSVIDIsVerifiedAgainstTheBundleOfItsTrustDomain() async throws {
        let pki = try SPIFFEIntegration.pki()
        let chain = try SPIFFEIntegration.identity(pki.loopback)
        for version in Self.versions {
            try await withDeadline {
                let server = try await RecordingHTTPSServer.start(identity: chain, version: version)
                // AsyncHTTPClient's hook shows the leaf alone, and BoringSSL (which saw the chain) is off
                // under the spiffe profile: the intermediate comes from the settings.
                var own = SPIFFEIntegration.settings([try SPIFFEIntegration.exampleBundle()])
                own.additionalIntermediates = pki.example.intermediate.map { [$0] } ?? []
                own.requiredIdentity = try .spiffeID(SPIFFEPKI.serverID)
                let client = try TrustedHTTPClient(verifier: TLSTrustVerifier(settings: own), configuration: Self.configuration())
                let response = try await client.execute(HTTPClientRequest(url: Self.url("/hello", port: server.port)), timeout: .seconds(10))
                XCTAssertEqual(response.status, .ok, "\(version)")
                try await client.shutdown()
                await server.stop()

                let refusedServer = try await RecordingHTTPSServer.start(identity: chain, version: version)
                var foreign = SPIFFEIntegration.settings([try SPIFFEIntegration.otherAuthoritiesForExample()])
                foreign.additionalIntermediates = own.additionalIntermediates
                let refused = try TrustedHTTPClient(verifier: TLSTrustVerifier(settings: foreign), configuration: Self.configuration())
                let error = await Self.error(of: refused, path: "/secret-path", port: refusedServer.port)
                try await refused.shutdown()
                await refusedServer.stop()
                let rejection = try XCTUnwrap(error as? TLSTrustError, "\(version): \(String(describing: error))")
                guard case .evaluationFailed = rejection.failure else { return XCTFail("\(version): \(rejection.failure)") }
                Self.assertNoRequest(reached: refusedServer, version: version)
            }
        }
        // BoringSSL's fixed roots and host-name check cannot be asked for beside either.
        let verifier = try TLSTrustVerifier(settings: SPIFFEIntegration.settings([try SPIFFEIntegration.exampleBundle()]))
        XCTAssertThrowsError(try TrustedHTTPClient(verifier: verifier, boringSSL: .on)) { error in
            XCTAssertEqual(error as? HTTPClientTrustConfigurationError, .boringSSLContradictsAnchorProvider)
        }
    }

    func testARevokedLeafIsRefusedThroughItsCRL() async throws {
        for version in Self.versions {
            try await withDeadline {
                let server = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.revokedServerChain, version: version)
                let client = try TrustedHTTPClient(
                    verifier: TLSTrustVerifier(settings: IntegrationPKI.revocationSettings()),
                    configuration: Self.configuration())
                let error = await Self.error(of: client, path: "/", port: server.port)
                try await client.shutdown()
                await server.stop()
                let rejection = try XCTUnwrap(error as? TLSTrustError, "\(version): \(String(describing: error))")
                XCTAssertTrue(
                    rejection.failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } },
                    "\(rejection.failure)")
                Self.assertNoRequest(reached: server, version: version)
            }
        }
    }

    /// The same leaf on a second host name it is not issued for: the redirect is decided for that
    /// host, on that host's own client, and refused (BoringSSL off, so SwiftTrust's reason shows).
    func testARedirectToAnotherHostIsDecidedForThatHost() async throws {
        try await withDeadline {
            let other = "other.swifttrust.test"
            let target = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: .http1)
            let first = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: .http1) { _ in
                (.found, [("location", "https://\(other):\(target.port)/elsewhere")], "")
            }
            let outcomes = Reports<(String, TLSTrustOutcome)>()
            var configuration = Self.configuration()
            configuration.dnsOverride[other] = "127.0.0.1"
            let client = try TrustedHTTPClient(
                verifier: TLSTrustVerifier(settings: IntegrationPKI.settings()), configuration: configuration,
                boringSSL: .off, onOutcome: { outcomes.add(($0, $1)) })
            let error = await Self.error(of: client, path: "/start", port: first.port)
            try await client.shutdown()
            await first.stop()
            await target.stop()
            let rejection = try XCTUnwrap(error as? TLSTrustError, String(describing: error))
            XCTAssertTrue(
                rejection.failure.trustFailures.contains { if case .hostnameMismatch = $0.reason { true } else { false } },
                "\(rejection.failure)")
            XCTAssertEqual(outcomes.all.map(\.0), [IntegrationPKI.host, other])
            XCTAssertEqual(first.connections.count, 1)
            XCTAssertTrue(target.connections.allSatisfy(\.isEmpty), "a request reached the redirect's refused host")
        }
    }

    /// Every connection is decided (a resumed TLS session too: the hook runs per connection and
    /// BoringSSL shows the session's leaf): two connections, two decisions.
    func testEveryConnectionIsDecided() async throws {
        try await withDeadline {
            let server = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: .http1)
            let outcomes = Reports<(String, TLSTrustOutcome)>()
            var configuration = Self.configuration()
            configuration.maximumUsesPerConnection = 1
            let client = try TrustedHTTPClient(
                verifier: TLSTrustVerifier(settings: IntegrationPKI.settings()), configuration: configuration,
                onOutcome: { outcomes.add(($0, $1)) })
            for path in ["/one", "/two"] {
                let response = try await client.execute(HTTPClientRequest(url: Self.url(path, port: server.port)), timeout: .seconds(10))
                _ = try await response.body.collect(upTo: 1024)
                XCTAssertEqual(response.status, .ok)
            }
            try await client.shutdown()
            await server.stop()
            XCTAssertEqual(server.connections.count, 2)
            XCTAssertEqual(outcomes.all.count, 2)
            XCTAssertTrue(outcomes.all.allSatisfy { if case .trusted = $0.1 { true } else { false } })
        }
    }

    func testPlainHTTPIsRefusedBeforeAnythingIsSent() async throws {
        let client = try TrustedHTTPClient(verifier: TLSTrustVerifier(settings: IntegrationPKI.settings()))
        do {
            _ = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:9/"), timeout: .seconds(5))
            XCTFail("a plain HTTP request was sent")
        } catch let error as HTTPClientTrustConfigurationError {
            XCTAssertEqual(error, .notHTTPS(url: "http://127.0.0.1:9/"))
        }
        try await client.shutdown()
    }

    func testBoringSSLVerificationBesideAJudgeThatSkipsEvaluationIsRefused() throws {
        let verifier = try TLSTrustVerifier(evaluator: DisabledTrustEvaluator())
        XCTAssertThrowsError(try TrustedHTTPClient(verifier: verifier, boringSSL: .on)) { error in
            XCTAssertEqual(error as? HTTPClientTrustConfigurationError, .boringSSLContradictsJudge)
        }
        XCTAssertNoThrow(try TrustedHTTPClient(verifier: verifier, boringSSL: .automatic))
    }

    /// A verify date BoringSSL cannot use: `.on` refused, `.automatic` leaves the decision to SwiftTrust.
    func testBoringSSLVerificationBesideAVerifyDateIsRefused() async throws {
        var settings = try IntegrationPKI.settings()
        settings.verifyDate = Date(timeIntervalSince1970: 1_780_272_000) // 2026-06-01
        let verifier = try TLSTrustVerifier(settings: settings)
        XCTAssertThrowsError(try TrustedHTTPClient(verifier: verifier, boringSSL: .on)) { error in
            XCTAssertEqual(error as? HTTPClientTrustConfigurationError, .boringSSLContradictsVerifyDate)
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        try HTTPClient.Configuration.apply(.automatic, settings: settings, judgeSkipsEvaluation: false, to: &tls)
        XCTAssertEqual(tls.certificateVerification, .none)
    }

    // MARK: - Helpers

    private static func configuration() -> HTTPClient.Configuration { HTTPClientConfigurationForTests.make() }

    private static func url(_ path: String, port: Int) -> String { "https://\(IntegrationPKI.host):\(port)\(path)" }

    /// The error `execute` threw for `path`, or nil when it answered.
    private static func error(of client: TrustedHTTPClient, path: String, port: Int) async -> (any Error)? {
        do {
            let response = try await client.execute(HTTPClientRequest(url: url(path, port: port)), timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: 1024)
            return nil
        } catch {
            return error
        }
    }

    /// No request reached `server`: HTTP/1.1 connections carried no byte at all; HTTP/2 ones only
    /// the client's connection preface and SETTINGS / WINDOW_UPDATE frames (written when
    /// AsyncHTTPClient starts the connection, before its hook), never a HEADERS frame.
    private static func assertNoRequest(
        reached server: RecordingHTTPSServer, version: RecordingHTTPSServer.HTTPVersion,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(server.connections.isEmpty, "the client never connected", file: file, line: line)
        for bytes in server.connections {
            switch version {
            case .http1:
                XCTAssertEqual(
                    bytes, [], "request bytes reached a refused HTTP/1.1 server: \(String(decoding: bytes, as: UTF8.self))",
                    file: file, line: line)
            case .http2:
                let types = http2FrameTypes(bytes)
                XCTAssertTrue(
                    types.allSatisfy { $0 == 0x4 || $0 == 0x8 }, "frames reached a refused HTTP/2 server: \(types)",
                    file: file, line: line)
            }
        }
    }

    /// A well-formed pin no test key has: 32 bytes of `byte`.
    private static func unusedPin(_ byte: UInt8) -> String {
        SPKIPin.prefix + Data(repeating: byte, count: 32).base64EncodedString()
    }
}
#endif // AsyncHTTPClient
