import Dispatch
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization
import TrustNIO

/// The listening side of `trustctl serve`: accepts TLS connections on one event loop, verifies
/// client certificates with the verifier (when there is one), reports each connection once its
/// handshake ends, answers an accepted client with one line, and stops after `limit` connections.
final class ServeListener: Sendable {
    /// The port listened on (the one the kernel chose for port 0).
    let port: Int

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let progress: Progress
    private let done = DispatchSemaphore(value: 0)

    /// The most connections open at once: a listener for testing clients, bounded so that a flood
    /// of connections (each may stay for the handshake timeout) cannot exhaust file descriptors.
    static let maximumOpenConnections = 64

    /// Connections reported, and whether every client so far was accepted; connections open now.
    private final class Progress: Sendable {
        private let state = Mutex((reported: 0, allAccepted: true))
        private let open = Mutex(0)
        /// Takes a place for a new connection; false when ``maximumOpenConnections`` are open.
        func admit() -> Bool {
            open.withLock { open in
                guard open < ServeListener.maximumOpenConnections else { return false }
                open += 1
                return true
            }
        }
        func release() { open.withLock { $0 -= 1 } }
        /// Counts one connection; true when it is the `limit`-th.
        func count(accepted: Bool, limit: Int?) -> Bool {
            state.withLock { state in
                state.reported += 1
                state.allAccepted = state.allAccepted && accepted
                return limit.map { state.reported == $0 } ?? false
            }
        }
        var allAccepted: Bool { state.withLock { $0.allAccepted } }
    }

    /// Binds `host`:`port` and starts accepting; `report` is called on the listener's one event loop.
    init(
        host: String, port: Int, context: NIOSSLContext, verifier: TLSTrustVerifier?, handshakeTimeout seconds: Double,
        limit: Int?, report: @escaping @Sendable (ServeReport) -> Void
    ) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let progress = Progress()
        let done = done
        let timeout = TimeAmount.nanoseconds(Int64(seconds * 1_000_000_000))
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    guard progress.admit() else { return child.close() }
                    child.closeFuture.whenComplete { _ in progress.release() }
                    return child.eventLoop.makeCompletedFuture {
                        let handshake = child.eventLoop.makePromise(of: Void.self)
                        let record: TLSPeerTrustRecord?
                        if let verifier {
                            record = try child.pipeline.syncOperations.addTrustedTLSServerHandlers(context: context, verifier: verifier)
                        } else {
                            record = nil
                            try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        }
                        try child.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                        let deadline = child.eventLoop.scheduleTask(in: timeout) { handshake.fail(ChannelError.connectTimeout(timeout)) }
                        let remote = child.remoteAddress?.description ?? "(unknown)"
                        handshake.futureResult.whenComplete { result in
                            deadline.cancel()
                            let version = try? child.pipeline.syncOperations.handler(type: NIOSSLHandler.self).tlsVersion
                            let error: (any Error)? = if case let .failure(error) = result { error } else { nil }
                            let connection = ServeReport(
                                remote: remote, tlsVersion: version, record: record,
                                verifiesClients: verifier != nil, handshakeError: error)
                            report(connection)
                            if connection.accepted {
                                let line = "SwiftTrust serve: accepted\(connection.client.map { " \($0)" } ?? "")\n"
                                child.writeAndFlush(ByteBuffer(string: line)).whenComplete { _ in child.close(promise: nil) }
                            } else {
                                child.close(promise: nil)
                            }
                            if progress.count(accepted: connection.accepted, limit: limit) { done.signal() }
                        }
                    }
                }
                .bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.group = group
        self.progress = progress
        self.port = channel.localAddress?.port ?? port
    }

    /// Waits for the `limit`-th connection (forever without a limit), then stops listening; returns
    /// whether every client was accepted.
    func waitUntilDone() -> Bool {
        done.wait()
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
        return progress.allAccepted
    }
}
