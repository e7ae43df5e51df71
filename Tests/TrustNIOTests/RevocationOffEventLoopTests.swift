import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import TrustCore
import TrustNIO
import TrustTestSupport
import XCTest

/// A revocation fetcher that answers slowly and then fails (status unknown: soft fail), counting
/// its requests; it never touches the network.
private final class SlowFetcher: RevocationFetcher {
    let delay: Duration
    private let requests = CallCounter()

    init(delay: Duration) { self.delay = delay }

    var requestCount: Int { requests.count }

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        requests.increment()
        try await Task.sleep(for: delay)
        throw URLError(.timedOut)
    }
}

/// An evaluation that fetches revocation information runs off the event loop: other connections on
/// the same loop complete their handshakes meanwhile.
final class RevocationOffEventLoopTests: LoopbackTestCase {
    /// Starts a client connection on the test's single event loop without waiting for it; the
    /// future completes with the handshake and the instant it did.
    private func startConnection(port: Int, verifier: TLSTrustVerifier, context: NIOSSLContext) -> EventLoopFuture<DispatchTime> {
        let handshake = group.next().makePromise(of: Void.self)
        handshake.failAfterTimeout(on: group.next())
        return ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addTrustedTLSClientHandlers(context: context, host: TestCertificates.host, verifier: verifier)
                    try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .flatMap { channel in handshake.futureResult.map { DispatchTime.now() }.always { _ in channel.close(promise: nil) } }
    }

    func testSlowRevocationFetchDoesNotBlockOtherHandshakesOnTheLoop() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: configuration)
        let fetcher = SlowFetcher(delay: .milliseconds(1500))
        var fetching = try TestCertificates.settings()
        fetching.revocation = .useAnyAvailableMethod // soft fail: an unknown status is accepted
        fetching.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        let start = DispatchTime.now()

        let slow = startConnection(port: server.port, verifier: try TLSTrustVerifier(settings: fetching), context: context)
        let fast = startConnection(port: server.port, verifier: try TLSTrustVerifier(settings: try TestCertificates.settings()), context: context)

        let fastDone = try fast.wait()
        let slowDone = try slow.wait()
        XCTAssertGreaterThan(fetcher.requestCount, 0, "the revocation evaluation fetched")
        XCTAssertLessThan(fastDone.uptimeNanoseconds, slowDone.uptimeNanoseconds, "the plain handshake finished first")
        XCTAssertLessThan(
            Double(fastDone.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9, 1.0,
            "the plain handshake did not wait for the slow fetch")
        XCTAssertGreaterThanOrEqual(
            Double(slowDone.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9, 1.5,
            "the fetching handshake waited for its fetch")
    }
}
