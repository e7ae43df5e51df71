#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TrustCore

/// SwiftTrust's HTTP client for plain `http://` requests: CRLs and OCSP responses, which are
/// served over plain HTTP (RFC 5280 §4.2.1.13, RFC 6960 Appendix A), and caIssuers downloads. It
/// reads its URLs as ``HTTPTarget`` and writes and reads ``HTTPMessage``, as TrustNIO's pin-report
/// uploader does over swift-nio (which adds TLS for `https` collectors). A deliberately small
/// HTTP/1.0 client: no TLS, no redirects, a time limit on name resolution and another on the socket
/// work (connect, send and read), and a response-size cap, so a slow or hostile server costs
/// bounded time and memory. Every failure is a ``FetchFailureReason``.
///
/// Requests draw on one of two pools (``Pool``): revocation fetches of validated chains, and
/// caIssuers downloads, whose URLs a peer chose before anything was verified, so that the second
/// can never hold the slots of the first. Each pool resolves names on its own capped
/// ``NameResolver`` before it takes a slot (a name that resolves slowly holds no slot), judges the
/// resolved addresses before connecting, and limits requests per host by ``FetchHostKey`` (the
/// registrable domain, or the address). Socket waits run on a few dedicated threads (``workers``,
/// never on the Swift concurrency pool); cancelling the calling task ends a request promptly.
enum HTTPClient {
    /// The requests one pool serves, with its slots and its resolver.
    enum Pool: Sendable {
        /// CRL and OCSP fetches, made only for chains valid apart from revocation.
        case revocation
        /// caIssuers downloads: URLs of a chain not yet validated.
        case issuers

        var slots: RequestSlots { self == .revocation ? HTTPClient.revocationSlots : HTTPClient.issuerSlots }
        var resolver: NameResolver { self == .revocation ? .revocation : .issuers }
    }

    /// Revocation requests that may wait on their sockets at once, process-wide; the rest wait
    /// (asynchronously, cancellably) for a slot.
    static let concurrentRequests = 8
    /// Revocation requests to one host (``FetchHostKey``: registrable domain or address, and port) at once: a responder that never answers
    /// holds at most this many of the ``concurrentRequests`` slots, and requests to other hosts go
    /// on. Two, the per-server connection limit of RFC 2616 §8.1.4; one evaluation asks one URL at a
    /// time, so this is two handshakes' worth.
    static let concurrentRequestsPerHost = 2
    /// caIssuers downloads at once, process-wide: a small pool of its own, apart from revocation's.
    static let concurrentIssuerRequests = 2
    /// caIssuers downloads from one host (``FetchHostKey``: registrable domain or address, any port) at once.
    static let concurrentIssuerRequestsPerHost = 1
    static let revocationSlots = RequestSlots(limit: concurrentRequests, perHostLimit: concurrentRequestsPerHost)
    static let issuerSlots = RequestSlots(limit: concurrentIssuerRequests, perHostLimit: concurrentIssuerRequestsPerHost)
    /// One thread per slot of both pools: a request that holds a slot always finds a free worker.
    static let workers = SocketWorkers(count: concurrentRequests + concurrentIssuerRequests)

    /// How long one `poll` may block before the request looks at its cancellation flag again.
    static let cancellationCheckMilliseconds: Int32 = 50

    /// Set from a task-cancellation handler, read by the socket loop on its worker thread.
    final class Cancellation: Sendable {
        private let flag = Atomic<Bool>(false)
        func cancel() { flag.store(true, ordering: .releasing) }
        var isCancelled: Bool { flag.load(ordering: .acquiring) }
    }

    /// Performs one request from `pool`. `timeout` bounds the name resolution (the caller stops
    /// waiting then, although `getaddrinfo` cannot be interrupted), and again the socket work from the
    /// moment the request holds a slot. Unless `allowsLocalAddresses`, only public addresses are
    /// connected to, judged as resolved before any connection. Cancelling the calling task ends the
    /// request within ``cancellationCheckMilliseconds`` (or frees its place in the queue). Throws
    /// ``FetchFailureReason`` only.
    static func request(
        _ url: String, method: String, contentType: String?, body: [UInt8], timeout: Double,
        maximumBytes: Int, allowsLocalAddresses: Bool, pool: Pool
    ) async throws(FetchFailureReason) -> [UInt8] {
        let target: HTTPTarget
        do { target = try HTTPTarget(url, schemes: [.http]) } catch { throw .invalidURL(url: error.url, problem: error.problem) }
        let seconds = timeout.isNaN ? 0 : min(max(timeout, 0), maximumTimeout)
        let resolved = try await pool.resolver.resolve(target.host, port: target.port, until: .now + .seconds(seconds)) {
            .timedOut(seconds: seconds)
        }
        // Judged before any connection (and before a slot is taken): a local address is never touched.
        let addresses = try resolved.permitted(for: target.host, allowsLocalAddresses: allowsLocalAddresses)
        let host = FetchHostKey.key(for: target.host, port: target.port, pool: pool)
        let slots = pool.slots
        do { try await slots.acquire(for: host) } catch { throw .cancelled }
        // From here the slot belongs to the worker, which releases it when the socket work ends, not
        // when this caller stops waiting: the slots never promise more threads than there are.
        let wallDeadline = Date().addingTimeInterval(seconds)
        do {
            return try await BoundedWait.run(until: .now + .seconds(seconds), timedOut: { FetchFailureReason.timedOut(seconds: seconds) }) {
                let cancellation = Cancellation()
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        workers.run {
                            let result = Result { () throws(FetchFailureReason) in
                                try perform(
                                    target, addresses: addresses, method: method, contentType: contentType, body: body,
                                    deadline: wallDeadline, timeout: seconds, maximumBytes: maximumBytes, cancellation: cancellation)
                            }
                            slots.release(for: host)
                            continuation.resume(with: result.mapError { $0 as any Error })
                        }
                    }
                } onCancel: {
                    cancellation.cancel()
                }
            }
        } catch {
            throw FetchFailureReason(error)
        }
    }

    /// The longest request timeout honoured (a day): a larger or infinite one is this.
    static let maximumTimeout: Double = 86_400

    static func perform(
        _ target: HTTPTarget, addresses: [ResolvedAddress], method: String, contentType: String?, body: [UInt8],
        deadline: Date, timeout: Double, maximumBytes: Int,
        cancellation: Cancellation
    ) throws(FetchFailureReason) -> [UInt8] {
        // A request whose caller already left (cancelled, or timed out while queued) does no work.
        if cancellation.isCancelled { throw .cancelled }
        let socket = Socket(deadline: deadline, timeout: timeout, cancellation: cancellation)
        let fd = try socket.connectFirst(of: addresses, host: target.host, port: target.port)
        defer { close(fd) }
        // HTTP/1.0: the answer cannot come chunked, and the server closes after it.
        let request = HTTPMessage.request(method, to: target, version: "HTTP/1.0", contentType: contentType, body: body)
        try socket.sendAll(fd, request)
        // The header allowance saturates: a caller's Int.max cap must not overflow into a trap.
        let (withHeaders, overflow) = maximumBytes.addingReportingOverflow(HTTPMessage.headerAllowance)
        let raw = try socket.receive(fd, maximumBytes: overflow ? Int.max : withHeaders, bodyLimit: maximumBytes)
        return try HTTPMessage.body(ofResponse: raw, maximumBytes: maximumBytes)
    }
}
