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
/// served over plain HTTP (RFC 5280 §4.2.1.13, RFC 6960 Appendix A). It reads its URLs as
/// ``HTTPTarget`` and writes and reads ``HTTPMessage``, as TrustNIO's pin-report uploader does over
/// swift-nio (which adds TLS for `https` collectors). A deliberately small HTTP/1.0 client: no TLS, no redirects, a
/// deadline per request (name resolution, connect, send and read) and a response-size cap, so a slow or hostile server costs bounded time
/// and memory. Socket waits run on a few dedicated threads (``workers``, never on the Swift
/// concurrency pool), at most ``concurrentRequests`` at once and ``concurrentRequestsPerHost`` to
/// one host; cancelling the calling task ends a request promptly.
enum HTTPClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Requests that may wait on their sockets at once, process-wide; the rest wait (asynchronously,
    /// cancellably) for a slot.
    static let concurrentRequests = 8
    /// Requests to one host (name or address, and port) at once: a responder that never answers
    /// holds at most this many of the ``concurrentRequests`` slots, and requests to other hosts go
    /// on. Two, the per-server connection limit of RFC 2616 §8.1.4; one evaluation asks one URL at a
    /// time, so this is two handshakes' worth.
    static let concurrentRequestsPerHost = 2
    static let slots = RequestSlots(limit: concurrentRequests, perHostLimit: concurrentRequestsPerHost)
    /// One thread per slot: a request that holds a slot always finds a free worker.
    static let workers = SocketWorkers(count: concurrentRequests)

    /// How long one `poll` may block before the request looks at its cancellation flag again.
    static let cancellationCheckMilliseconds: Int32 = 50

    /// Set from a task-cancellation handler, read by the socket loop on its worker thread.
    final class Cancellation: Sendable {
        private let flag = Atomic<Bool>(false)
        func cancel() { flag.store(true, ordering: .releasing) }
        var isCancelled: Bool { flag.load(ordering: .acquiring) }
    }

    /// Performs one request on a socket worker thread once a slot is free. `timeout` bounds the
    /// request from the moment it holds a slot, name resolution included: the caller stops waiting
    /// then even while `getaddrinfo` (which cannot be interrupted) still runs. Cancelling the calling
    /// task ends the request within ``cancellationCheckMilliseconds`` (or frees its place in the queue).
    static func request(_ url: String, method: String, contentType: String?, body: [UInt8],
                        timeout: Double, maximumBytes: Int, allowsLocalAddresses: Bool) async throws -> [UInt8] {
        let target: HTTPTarget
        do { target = try HTTPTarget(url, schemes: [.http]) } catch { throw Failure(description: error.description) }
        let host = "\(target.host.lowercased()):\(target.port)"
        try await slots.acquire(for: host)
        // From here the slot belongs to the worker, which releases it when the socket work ends, not
        // when this caller stops waiting: the slots never promise more threads than there are.
        let seconds = timeout.isNaN ? 0 : min(max(timeout, 0), maximumTimeout)
        let wallDeadline = Date().addingTimeInterval(seconds)
        return try await BoundedWait.run(until: .now + .seconds(seconds), timedOut: {
            Failure(description: "request to \(target.hostHeader) timed out after \(seconds) s")
        }) {
            let cancellation = Cancellation()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    workers.run {
                        let result = Result {
                            try perform(target, method: method, contentType: contentType, body: body, deadline: wallDeadline,
                                        maximumBytes: maximumBytes, allowsLocalAddresses: allowsLocalAddresses, cancellation: cancellation)
                        }
                        slots.release(for: host)
                        continuation.resume(with: result)
                    }
                }
            } onCancel: {
                cancellation.cancel()
            }
        }
    }

    /// The longest request timeout honoured (a day): a larger or infinite one is this.
    static let maximumTimeout: Double = 86_400

    static func perform(_ target: HTTPTarget, method: String, contentType: String?, body: [UInt8],
                        deadline: Date, maximumBytes: Int, allowsLocalAddresses: Bool, cancellation: Cancellation) throws -> [UInt8] {
        // A request whose caller already left (cancelled, or timed out while queued) does no work.
        if cancellation.isCancelled { throw CancellationError() }
        let fd = try openConnection(target, deadline: deadline, allowsLocalAddresses: allowsLocalAddresses, cancellation: cancellation)
        defer { close(fd) }
        // HTTP/1.0: the answer cannot come chunked, and the server closes after it.
        let request = HTTPMessage.request(method, to: target, version: "HTTP/1.0", contentType: contentType, body: body)
        try sendAll(fd, request, deadline: deadline, cancellation: cancellation)
        // The header allowance saturates: a caller's Int.max cap must not overflow into a trap.
        let (withHeaders, overflow) = maximumBytes.addingReportingOverflow(HTTPMessage.headerAllowance)
        let raw = try receive(fd, deadline: deadline, maximumBytes: overflow ? Int.max : withHeaders, cancellation: cancellation)
        do { return try HTTPMessage.body(ofResponse: raw, maximumBytes: maximumBytes) } catch { throw Failure(description: error.description) }
    }

    /// Waits until `fd` is ready for `events`, the deadline passes (`Failure`), or the request is
    /// cancelled (`CancellationError`). Polls in short slices so cancellation is noticed promptly.
    private static func wait(_ fd: Int32, for events: Int32, deadline: Date, cancellation: Cancellation,
                             timedOut: String) throws {
        while true {
            if cancellation.isCancelled { throw CancellationError() }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: timedOut) }
            let slice = min(Double(cancellationCheckMilliseconds), (left * 1000).rounded(.up))
            var pollFD = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&pollFD, 1, Int32(slice))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw Failure(description: "poll failed (errno \(errno))") }
        }
    }

    /// Connects to the first address of `target` that answers. Unless `allowsLocalAddresses`, an
    /// address that is loopback, link-local, private-use or otherwise not public (``DestinationScope``)
    /// is never connected to: a certificate names these URLs, and must not make SwiftTrust reach the
    /// host itself or its internal network. Each address is judged as resolved, so a public name that
    /// resolves to a local address is refused too.
    private static func openConnection(_ target: HTTPTarget, deadline: Date, allowsLocalAddresses: Bool,
                                       cancellation: Cancellation) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(target.host, String(target.port), &hints, &list)
        defer { if list != nil { freeaddrinfo(list) } }
        // The lookup may have outlasted the caller (cancelled, or past the deadline): connect to nothing.
        if cancellation.isCancelled { throw CancellationError() }
        guard deadline.timeIntervalSinceNow > 0 else { throw Failure(description: "resolving \(target.host) timed out") }
        guard resolved == 0, let first = list else {
            throw Failure(description: "cannot resolve \(target.host)")
        }
        var node: UnsafeMutablePointer<addrinfo>? = first
        var lastError: any Error = Failure(description: "cannot connect to \(target.host):\(target.port)")
        while let current = node {
            node = current.pointee.ai_next
            if !allowsLocalAddresses {
                guard let address = ipAddress(of: current.pointee) else { continue }
                let scope = DestinationScope(address)
                if scope.isLocal {
                    lastError = RevocationFetchError.localDestinationRefused(host: target.host, address: address.description,
                                                                            scope: scope.description)
                    continue
                }
            }
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            #if canImport(Darwin)
            // Darwin has no MSG_NOSIGNAL: the socket option keeps a write to a closed peer from raising SIGPIPE.
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try wait(fd, for: Int32(POLLOUT), deadline: deadline, cancellation: cancellation,
                             timedOut: "connect to \(target.host):\(target.port) timed out")
                } catch {
                    close(fd)
                    throw error
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 {
                    return fd
                }
                lastError = Failure(description: "connection to \(target.host):\(target.port) refused")
            }
            close(fd)
        }
        throw lastError
    }

    /// The IP address a resolved entry names (nil for other families).
    private static func ipAddress(of info: addrinfo) -> IPAddress? {
        guard let socketAddress = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { IPAddress(bytes: $0) }
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { IPAddress(bytes: $0) }
            }
        default:
            return nil
        }
    }

    /// Writes every byte. A peer that closes the connection makes `send` fail with EPIPE; MSG_NOSIGNAL
    /// (SO_NOSIGPIPE on Darwin) keeps that from raising SIGPIPE, whose default action kills the process.
    private static func sendAll(_ fd: Int32, _ bytes: [UInt8], deadline: Date, cancellation: Cancellation) throws {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        var offset = 0
        while offset < bytes.count {
            try wait(fd, for: Int32(POLLOUT), deadline: deadline, cancellation: cancellation, timedOut: "send timed out")
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
            if sent < 0, errno == EAGAIN || errno == EINTR { continue }
            guard sent > 0 else { throw Failure(description: "send failed (errno \(errno))") }
            offset += sent
        }
    }

    private static func receive(_ fd: Int32, deadline: Date, maximumBytes: Int, cancellation: Cancellation) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            try wait(fd, for: Int32(POLLIN), deadline: deadline, cancellation: cancellation, timedOut: "read timed out")
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return result }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Failure(description: "read failed")
            }
            result.append(contentsOf: buffer[0..<count])
            guard result.count <= maximumBytes else { throw Failure(description: "response larger than \(maximumBytes) bytes") }
        }
    }
}
