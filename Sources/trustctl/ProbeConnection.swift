import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import TrustNIO

/// One TLS connection made by `trustctl probe`, verified by a ``TLSTrustVerifier``.
struct ProbeConnection {
    /// Why the probe could not complete a connection (exit status 2, unless the verifier rejected).
    enum Failure: Error, CustomStringConvertible {
        case connect(host: String, port: Int, error: any Error)
        case handshake(host: String, port: Int, error: any Error)
        case timedOut(host: String, port: Int, seconds: Double)

        var description: String {
            switch self {
            case let .connect(host, port, error): return "cannot connect to \(host):\(port): \(error)"
            case let .handshake(host, port, error): return "the TLS handshake with \(host):\(port) failed (is it a TLS server?): \(error)"
            case let .timedOut(host, port, seconds): return "no TLS handshake with \(host):\(port) within \(seconds) s"
            }
        }
    }

    /// The verifier's decision and the certificates the server presented.
    let record: TLSPeerTrustRecord
    /// The negotiated protocol version (nil when the handshake did not complete).
    let tlsVersion: TLSVersion?
    /// The cipher suite from the ServerHello (nil when none was seen).
    let cipherSuite: UInt16?
    /// The handshake error (a ``TLSTrustError`` when the verifier rejected), nil when it completed.
    let handshakeError: (any Error)?

    /// Connects to `host`:`port`, sends `serverName` as SNI, verifies the server for `identity`.
    static func open(
        host: String, port: Int, identity: String, serverName: String?, verifier: TLSTrustVerifier,
        timeout seconds: Double
    ) throws(Failure) -> ProbeConnection {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let timeout = TimeAmount.nanoseconds(Int64(seconds * 1_000_000_000))
        let cipherSuite = ObservedCipherSuite()
        let record = Mutex<TLSPeerTrustRecord?>(nil)
        let handshake = group.next().makePromise(of: Void.self)
        let channel: any Channel
        do {
            var configuration = TLSConfiguration.makeClientConfiguration()
            // SwiftTrust checks the identity; BoringSSL's own verification is replaced by the verifier.
            configuration.certificateVerification = .noHostnameVerification
            let context = try NIOSSLContext(configuration: configuration)
            channel = try ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ServerHelloSniffer(observed: cipherSuite))
                        let added = try channel.pipeline.syncOperations.addTrustedTLSClientHandlers(
                            context: context, host: identity, verifier: verifier, serverName: serverName, port: port)
                        record.withLock { $0 = added }
                        try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                    }
                }
                .connect(host: host, port: port).wait()
        } catch {
            handshake.fail(error)
            throw .connect(host: host, port: port, error: error)
        }
        let deadline = channel.eventLoop.scheduleTask(in: timeout) { handshake.fail(ChannelError.connectTimeout(timeout)) }
        var handshakeError: (any Error)?
        do { try handshake.futureResult.wait() } catch { handshakeError = error }
        deadline.cancel()
        let version = handshakeError == nil ? (try? channel.nioSSL_tlsVersion().wait()) ?? nil : nil
        try? channel.close().wait()
        guard let trustRecord = record.withLock({ $0 }) else { throw .connect(host: host, port: port, error: ChannelError.ioOnClosedChannel) }
        if let handshakeError, trustRecord.failure == nil {
            if case ChannelError.connectTimeout = handshakeError { throw .timedOut(host: host, port: port, seconds: seconds) }
            throw .handshake(host: host, port: port, error: handshakeError)
        }
        return ProbeConnection(record: trustRecord, tlsVersion: version, cipherSuite: cipherSuite.value, handshakeError: handshakeError)
    }
}

/// The cipher suite a ``ServerHelloSniffer`` saw, readable from any thread.
final class ObservedCipherSuite: Sendable {
    private let suite = Mutex<UInt16?>(nil)
    var value: UInt16? { suite.withLock { $0 } }
    func record(_ value: UInt16) { suite.withLock { $0 = value } }
}

extension TLSVersion {
    /// `TLS 1.3` etc.
    var displayName: String {
        switch self {
        case .tlsv1: return "TLS 1.0"
        case .tlsv11: return "TLS 1.1"
        case .tlsv12: return "TLS 1.2"
        case .tlsv13: return "TLS 1.3"
        }
    }
}
