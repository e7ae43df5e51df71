import Foundation
import NIOCore
import Synchronization
import TrustCore
import TrustNIO
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 34 item 3: a verification that fetches off the event loop stops when its connection goes
/// away (the trust handler cancels it), instead of fetching on until the deadline for nobody.
final class VerificationCancellationTests: LoopbackTestCase {
    /// A fetcher whose every request waits (up to 30 s) until it is cancelled, counting both.
    private final class HangingFetcher: RevocationFetcher, Sendable {
        let started = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)

        private func hang() async throws -> [UInt8] {
            started.add(1, ordering: .sequentiallyConsistent)
            do { try await Task.sleep(for: .seconds(30)) } catch {
                cancelled.add(1, ordering: .sequentiallyConsistent)
                throw error
            }
            return []
        }

        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { try await hang() }
    }

    func testAClosedConnectionCancelsItsVerificationsFetching() throws {
        let fetcher = HangingFetcher()
        var settings = try TestCertificates.settings()
        settings.revocation = .crl
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        settings.revocationFetchDeadline = .seconds(30)
        let server = try startNIOServer(
            presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"],
            clientVerifier: TLSTrustVerifier(settings: settings))
        _ = try connect(
            port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()),
            clientIdentity: ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"])
        // `connect` returns once the client's handshake ended (it waits for the server's verdict, which
        // never comes, until its own timeout) and the client closed: the server's fetch must stop now.
        let deadline = Date().addingTimeInterval(3)
        while fetcher.cancelled.load(ordering: .sequentiallyConsistent) == 0, Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThan(fetcher.started.load(ordering: .sequentiallyConsistent), 0, "the verification fetched")
        XCTAssertGreaterThan(
            fetcher.cancelled.load(ordering: .sequentiallyConsistent), 0,
            "the fetch was not cancelled when the connection closed (it would have waited 30 s)")
    }
}
