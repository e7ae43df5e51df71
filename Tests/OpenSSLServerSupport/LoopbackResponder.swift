#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A revocation responder on 127.0.0.1 that a test starts and stops, served from one thread of its
/// own: one that accepts connections and never answers, one that never even accepts them (its
/// accept queue full, so connects hang), or one that answers every request with a fixed body.
public final class LoopbackResponder: Sendable {
    public enum Behaviour: Sendable {
        /// Accepts, reads and discards what the client sends, never answers.
        case silent
        /// Listens with a full accept queue: the kernel drops new connection attempts, so a client's
        /// connect neither succeeds nor fails.
        case neverAccepts
        /// Answers each request `200 OK` with `body`, then closes.
        case answers(body: [UInt8])
    }

    private struct State {
        var connections: [Int32] = []
        var accepted = 0
        var closedByClient = 0
    }

    public let port: Int
    private let listener: Int32
    private let state = Mutex(State())
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)
    /// Connections this responder opened to itself to fill its accept queue (``Behaviour/neverAccepts``).
    private let fillers: [Int32]

    /// Connections accepted so far.
    public var accepted: Int { state.withLock { $0.accepted } }
    /// Accepted connections the client has closed (a fetch that stopped).
    public var closedByClient: Int { state.withLock { $0.closedByClient } }

    public init(_ behaviour: Behaviour) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ResponderError.socket("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Backlog 0 holds one completed connection on Linux; the filler below takes it.
        guard Self.withAddress(&address, { bind(fd, $0, $1.pointee) }) == 0,
            listen(fd, behaviour.isNeverAccepts ? 0 : 64) == 0,
            Self.withAddress(&address, { getsockname(fd, $0, $1) }) == 0
        else {
            close(fd)
            throw ResponderError.socket("bind/listen", errno)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        fillers = behaviour.isNeverAccepts ? (0..<2).map { _ in Self.connectWithoutWaiting(to: address) } : []
        Thread.detachNewThread { [self] in
            serve(behaviour)
            finished.signal()
        }
    }

    /// Stops serving and closes every socket; waits for the serving thread.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
        for fd in state.withLock({ $0.connections }) + fillers + [listener] { close(fd) }
    }

    private func serve(_ behaviour: Behaviour) {
        while running.load(ordering: .acquiring) {
            // The never-accepting responder does not even look at its listener.
            if behaviour.isNeverAccepts {
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            var descriptors =
                [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
                + state.withLock { $0.connections }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 50) > 0 else { continue }
            if descriptors[0].revents != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    state.withLock { $0.accepted += 1 }
                    if case let .answers(body) = behaviour {
                        answer(client, body: body)
                    } else {
                        state.withLock { $0.connections.append(client) }
                    }
                }
            }
            for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                if buffer.withUnsafeMutableBytes({ read(descriptor.fd, $0.baseAddress, $0.count) }) <= 0 {
                    close(descriptor.fd)
                    state.withLock { state in
                        state.connections.removeAll { $0 == descriptor.fd }
                        state.closedByClient += 1
                    }
                }
            }
        }
    }

    /// Reads the request head, answers, closes.
    private func answer(_ client: Int32, body: [UInt8]) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = [13, 10, 13, 10]
        let deadline = Date().addingTimeInterval(2)
        while !received.indices.contains(where: { received[$0...].starts(with: end) }), Date() < deadline {
            var descriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let response = Array("HTTP/1.0 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        var offset = 0
        while offset < response.count {
            let sent = response[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { break }
            offset += sent
        }
        close(client)
    }

    private static func connectWithoutWaiting(to address: sockaddr_in) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        var target = address
        _ = withAddress(&target) { connect(fd, $0, $1.pointee) }
        // Let the kernel complete the first handshake into the queue before a client arrives.
        Thread.sleep(forTimeInterval: 0.05)
        return fd
    }

    /// Calls a socket function with `address` as a `sockaddr` and its length.
    private static func withAddress(
        _ address: inout sockaddr_in,
        _ call: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> Int32 {
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, &length) }
        }
    }

    public enum ResponderError: Error, CustomStringConvertible {
        case socket(String, Int32)
        public var description: String {
            switch self {
            case let .socket(call, code): return "\(call) failed (errno \(code))"
            }
        }
    }
}

private extension LoopbackResponder.Behaviour {
    var isNeverAccepts: Bool {
        if case .neverAccepts = self { true } else { false }
    }
}
