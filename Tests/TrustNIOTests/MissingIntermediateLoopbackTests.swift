import Foundation
import NIOCore
import Synchronization
import TrustCore
import TrustNIO
import TrustSession
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 34 item 5 over a real handshake: a server that leaves out its intermediate is trusted once
/// the verifier fetches it from the leaf's caIssuers URL, as Apple's clients do; the offline
/// decision on the event loop is retried off it only then.
final class MissingIntermediateLoopbackTests: LoopbackTestCase {
    /// Serves the committed ECDSA intermediate at the committed leaf's caIssuers URL.
    private final class IntermediateServer: RevocationFetcher, Sendable {
        let asked = Mutex<[String]>([])
        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { throw URLError(.fileDoesNotExist) }
        func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
            asked.withLock { $0.append(url) }
            guard url == "http://ca.swifttrust.test/ecdsa-intermediate.crt" else { throw URLError(.fileDoesNotExist) }
            return try XCTUnwrap(TestCertificates.certificates("ecdsa/intermediate.pem").first).derEncoded
        }
    }

    func testAServerThatLeavesOutItsIntermediateIsTrustedAfterFetchingIt() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem"])
        let fetcher = IntermediateServer()
        var settings = try TestCertificates.settings()
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: settings))
        XCTAssertNil(result.error)
        XCTAssertEqual(result.record.trustedPeer?.validatedChain?.count, 3)
        XCTAssertEqual(fetcher.asked.withLock { $0 }, ["http://ca.swifttrust.test/ecdsa-intermediate.crt"])
    }

    /// A client's caIssuers URL is never fetched: before its CertificateVerify anyone can present any
    /// certificate, and would choose what the server requests.
    func testAClientsMissingIntermediateIsNotFetched() async throws {
        let fetcher = IntermediateServer()
        var settings = try TestCertificates.settings()
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        let decider = try TLSTrustDecider(settings: settings)
        let client = try TestCertificates.certificates("ecdsa/leaf-client.pem")
        guard case .rejected = await decider.decide(client, role: .client) else { return XCTFail("a client without its intermediate was trusted") }
        XCTAssertFalse(decider.mayFetchMissingIssuers(after: decider.decideOffline(client, role: .client), presented: client, role: .client))
        XCTAssertEqual(fetcher.asked.withLock { $0 }, [])
    }

    func testWithIssuerFetchingOffTheServerIsRejectedForItsMissingIssuer() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem"])
        let fetcher = IntermediateServer()
        var settings = try TestCertificates.settings()
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        settings.options.fetchesMissingIssuers = false
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: settings))
        let failure = try XCTUnwrap(rejection(result))
        XCTAssertTrue(contains(failure.trustFailures) { if case .issuerNotFound = $0 { true } else { false } }, "\(failure)")
        XCTAssertEqual(fetcher.asked.withLock { $0 }, [])
    }
}
