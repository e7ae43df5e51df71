#if URLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftTrust
import SwiftTrustAsyncHTTPClient
import SwiftTrustURLSession
import TrustNIO
import XCTest

/// SwiftTrustURLSession on loopback: URLSession data, upload and download tasks through
/// `SwiftTrustURLProtocol` against HTTPS servers the tests start, each recording what it received.
/// One test method, because the protocol's client is process-wide.
final class URLSessionIntegrationTests: XCTestCase {
    func testURLSessionTasksGetSwiftTrustsDecisions() async throws {
        try await withDeadline {
            let good = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: .http1)
            let revoked = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.revokedServerChain, version: .http1)
            let configuration = HTTPClientConfigurationForTests.make()
            let outcomes = Reports<(String, TLSTrustOutcome)>()
            let client = try TrustedHTTPClient(
                verifier: TLSTrustVerifier(settings: IntegrationPKI.revocationSettings()),
                configuration: configuration, onOutcome: { outcomes.add(($0, $1)) })
            SwiftTrustURLProtocol.use(client)
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            sessionConfiguration.protocolClasses = [SwiftTrustURLProtocol.self]
            let session = URLSession(configuration: sessionConfiguration)

            // Accepted: a data task, and a POST with its body.
            let url = URL(string: "https://\(IntegrationPKI.host):\(good.port)/data")!
            let (data, response) = try await session.data(from: url)
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "hello /data")
            var post = URLRequest(url: URL(string: "https://\(IntegrationPKI.host):\(good.port)/upload")!)
            post.httpMethod = "POST"
            post.httpBody = Data("payload".utf8)
            let (posted, _) = try await session.data(for: post)
            XCTAssertEqual(String(decoding: posted, as: UTF8.self), "hello /upload")
            XCTAssertTrue(good.connections.contains { String(decoding: $0, as: UTF8.self).contains("payload") })
            // Refused, typed, nothing sent: what FoundationNetworking does not hand a custom protocol.
            let sentBefore = good.connections.count
            do {
                _ = try await session.download(from: URL(string: "https://\(IntegrationPKI.host):\(good.port)/file")!)
                XCTFail("a download task went through")
            } catch {
                XCTAssertEqual(Self.protocolError(in: error), .downloadTasksUnsupported, "\(error)")
            }
            do {
                _ = try await session.upload(
                    for: URLRequest(url: URL(string: "https://\(IntegrationPKI.host):\(good.port)/up")!),
                    from: Data("x".utf8))
                XCTFail("an upload task without its body went through")
            } catch {
                XCTAssertEqual(Self.protocolError(in: error), .uploadBodyUnavailable, "\(error)")
            }
            XCTAssertEqual(good.connections.count, sentBefore, "a refused task connected")
            guard case let .trusted(peer)? = outcomes.all.first?.1 else { return XCTFail("\(outcomes.all)") }
            XCTAssertEqual(peer.subjectAlternativeNames.map { "\($0)" }, ["DNS:\(IntegrationPKI.host)"])

            // Refused: the revoked leaf, through its CRL; the task's error is the typed reason.
            do {
                _ = try await session.data(from: URL(string: "https://\(IntegrationPKI.host):\(revoked.port)/secret")!)
                XCTFail("a revoked server answered")
            } catch {
                let rejection = try XCTUnwrap(Self.trustError(in: error), "\(error)")
                XCTAssertTrue(
                    rejection.failure.trustFailures.contains { if case .revoked = $0.reason { true } else { false } },
                    "\(rejection.failure)")
            }
            XCTAssertFalse(revoked.connections.isEmpty)
            XCTAssertTrue(revoked.connections.allSatisfy(\.isEmpty), "request bytes reached the refused server")

            // Refused: a trusted server without the identity the client requires (issue 41).
            let rule = try IdentityRule.dnsName("payments.swifttrust.test")
            var requiring = try IntegrationPKI.revocationSettings()
            requiring.requiredIdentity = rule
            let identityClient = try TrustedHTTPClient(verifier: TLSTrustVerifier(settings: requiring), configuration: configuration)
            SwiftTrustURLProtocol.use(identityClient)
            let unnamed = try await RecordingHTTPSServer.start(presenting: IntegrationPKI.serverChain, version: .http1)
            do {
                _ = try await session.data(from: URL(string: "https://\(IntegrationPKI.host):\(unnamed.port)/secret")!)
                XCTFail("a server without the required identity answered")
            } catch {
                XCTAssertEqual(try XCTUnwrap(Self.trustError(in: error), "\(error)").failure, .identityNotAllowed(rule))
            }
            XCTAssertFalse(unnamed.connections.isEmpty)
            XCTAssertTrue(unnamed.connections.allSatisfy(\.isEmpty), "request bytes reached the refused server")
            try await identityClient.shutdown()
            await unnamed.stop()
            session.invalidateAndCancel()
            try await client.shutdown()
            await good.stop()
            await revoked.stop()
        }
    }

    /// The `SwiftTrustURLProtocolError` URLSession reports, as it is or as its `NSUnderlyingError`.
    private static func protocolError(in error: any Error) -> SwiftTrustURLProtocolError? {
        if let failure = error as? SwiftTrustURLProtocolError { return failure }
        return ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).flatMap { $0 as? SwiftTrustURLProtocolError }
    }

    /// The `TLSTrustError` URLSession reports, as it is or as its `NSUnderlyingError`.
    private static func trustError(in error: any Error) -> TLSTrustError? {
        if let rejection = error as? TLSTrustError { return rejection }
        return ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).flatMap { $0 as? TLSTrustError }
    }
}
#endif // URLSession
