#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TrustCore

extension HTTPClient {
    /// The socket work of one request on its worker thread: non-blocking sockets polled in short
    /// slices until `deadline`, so that cancellation is noticed within
    /// ``HTTPClient/cancellationCheckMilliseconds``. Every failure is a ``FetchFailureReason``.
    struct Socket {
        let deadline: Date
        /// The request's time limit, for the error that says it passed.
        let timeout: Double
        let cancellation: Cancellation

        /// Waits until `fd` is ready for `events`, the deadline passes, or the request is cancelled.
        private func wait(_ fd: Int32, for events: Int32) throws(FetchFailureReason) {
            while true {
                if cancellation.isCancelled { throw .cancelled }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { throw .timedOut(seconds: timeout) }
                let slice = min(Double(cancellationCheckMilliseconds), (left * 1000).rounded(.up))
                var pollFD = pollfd(fd: fd, events: Int16(events), revents: 0)
                let ready = poll(&pollFD, 1, Int32(slice))
                if ready > 0 { return }
                if ready < 0, errno != EINTR { throw .transportFailed(operation: .poll, errno: errno) }
            }
        }

        /// Connects to the first of `addresses` that answers: addresses already judged
        /// (``Swift/Array/permitted(for:allowsLocalAddresses:)``), so nothing else is ever connected to.
        func connectFirst(of addresses: [ResolvedAddress], host: String, port: Int) throws(FetchFailureReason) -> Int32 {
            for address in addresses {
                #if canImport(Darwin)
                let fd = socket(address.family, SOCK_STREAM, 0)
                #else
                let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
                #endif
                guard fd >= 0 else { continue }
                #if canImport(Darwin)
                // Darwin has no MSG_NOSIGNAL: the socket option keeps a write to a closed peer from raising SIGPIPE.
                var one: Int32 = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
                #endif
                let flags = fcntl(fd, F_GETFL, 0)
                _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
                let started = address.socketAddress.withUnsafeBytes { bytes -> Bool in
                    guard let base = bytes.baseAddress else { return false }
                    return connect(fd, base.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count)) == 0 || errno == EINPROGRESS
                }
                if started {
                    do { try wait(fd, for: Int32(POLLOUT)) } catch {
                        close(fd)
                        throw error
                    }
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 { return fd }
                }
                close(fd)
            }
            throw .connectionFailed(host: host, port: port)
        }

        /// Writes every byte. A peer that closes the connection makes `send` fail with EPIPE; MSG_NOSIGNAL
        /// (SO_NOSIGPIPE on Darwin) keeps that from raising SIGPIPE, whose default action kills the process.
        func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(FetchFailureReason) {
            #if canImport(Darwin)
            let flags: Int32 = 0
            #else
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            var offset = 0
            while offset < bytes.count {
                try wait(fd, for: Int32(POLLOUT))
                let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
                if sent < 0, errno == EAGAIN || errno == EINTR { continue }
                guard sent > 0 else { throw .transportFailed(operation: .send, errno: errno) }
                offset += sent
            }
        }

        /// Reads until the server closes, at most `maximumBytes` (the body cap `bodyLimit` and the
        /// header allowance).
        func receive(_ fd: Int32, maximumBytes: Int, bodyLimit: Int) throws(FetchFailureReason) -> [UInt8] {
            var result: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                try wait(fd, for: Int32(POLLIN))
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count == 0 { return result }
                if count < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    throw .transportFailed(operation: .read, errno: errno)
                }
                result.append(contentsOf: buffer[0..<count])
                guard result.count <= maximumBytes else { throw .responseTooLarge(limit: bodyLimit) }
            }
        }
    }
}
