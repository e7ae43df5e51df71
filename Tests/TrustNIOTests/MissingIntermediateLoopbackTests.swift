import Foundation
import NIOCore
import Synchronization
import TrustCore
import TrustNIO
import TrustX509
import XCTest

/// Issue 34 item 5 over a real handshake: a server that leaves out its intermediate is trusted once
/// the verifier fetches it from the leaf's caIssuers URL, as Apple's clients do; the offline
/// decision on the event loop is retried off it only then.
final class MissingIntermediateLoopbackTests: LoopbackTestCase {
    /// Serves the committed ECDSA intermediate at the committed leaf's caIssuers URL.
    private final class IntermediateServer: RevocationFetcher, Sendable {
        let asked = Mutex<[String]>([])
        func fetchCRL(from url: String) async throws -> [UInt8] { throw URLError(.fileDoesNotExist) }
        func fetchOCSPResponse(from url: String, request: [UInt8]) async throws -> [UInt8] { throw URLError(.fileDoesNotExist) }
        func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
            asked.withLock { $0.append(url) }
            guard url == "http://ca.swifttrust.test/ecdsa-intermediate.crt" else { throw URLError(.fileDoesNotExist) }
            return try XCTUnwrap(TestPKI.certificates("ecdsa/intermediate.pem").first).derEncoded
        }
    }

    func testAServerThatLeavesOutItsIntermediateIsTrustedAfterFetchingIt() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem"])
        let fetcher = IntermediateServer()
        var settings = try TestPKI.settings()
        settings.revocationFetcher = fetcher
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: settings))
        XCTAssertNil(result.error)
        XCTAssertEqual(result.record.trustedPeer?.validatedChain?.count, 3)
        XCTAssertEqual(fetcher.asked.withLock { $0 }, ["http://ca.swifttrust.test/ecdsa-intermediate.crt"])
    }

    func testWithIssuerFetchingOffTheServerIsRejectedForItsMissingIssuer() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem"])
        let fetcher = IntermediateServer()
        var settings = try TestPKI.settings()
        settings.revocationFetcher = fetcher
        settings.options.fetchesMissingIssuers = false
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: settings))
        let failure = try XCTUnwrap(rejection(result))
        XCTAssertTrue(contains(failure.trustFailures) { if case .issuerNotFound = $0 { true } else { false } }, "\(failure)")
        XCTAssertEqual(fetcher.asked.withLock { $0 }, [])
    }
}
