#if GRPC
import GRPCCore
import GRPCNIOTransportHTTP2
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import TrustNIO
import TrustSession

/// A gRPC Swift 2 server whose clients present certificates that SwiftTrust verifies (mutual
/// TLS): every accepted connection gets the route's TLS handler and its own `TLSPeerTrustHandler`
/// (so a refused client's typed reason reaches ``onRejection``, a resumed TLS session is
/// re-verified, and nothing is read from or written to it before), and RPC handlers read the
/// client's identity with ``trustedPeer(of:)``.
///
/// How: gRPC's own `.tls` / `.mTLS` transport security shares one verification callback between
/// connections and keeps no per-connection result, so ``makeTransport(address:config:eventLoopGroup:)``
/// makes the transport with `.plaintext` security and adds SwiftTrust's TLS handler in front of
/// gRPC's HTTP/2 handlers on each accepted connection (`channelDebuggingCallbacks.onAcceptTCPConnection`,
/// which runs before the connection is active): no byte is exchanged outside TLS. Use the
/// transport it makes; a `.plaintext` transport made by hand has no TLS at all.
///
/// ```swift
/// let route = try TLSServerTrustRoute(certificateChain: chain, privateKey: key, clientVerifier: clients)
/// let trust = try GRPCServerTrust(route: route)
/// let server = GRPCServer(transport: trust.makeTransport(address: .ipv4(host: "0.0.0.0", port: 443)), services: [echo])
/// // in a handler:
/// let client = try trust.requireTrustedPeer(of: context)
/// ```
public final class GRPCServerTrust: Sendable {
    /// The server's TLS configuration (gRPC's ALPN added when it names none) and client verifier.
    public let route: TLSServerTrustRoute
    /// Hears each connection refused for its client certificate, with the typed reason.
    public let onRejection: (@Sendable (TLSTrustRejection) -> Void)?
    private let context: NIOSSLContext
    /// The records of open connections, by gRPC's `remotePeer` string of each.
    private let connections = Mutex<[String: TLSPeerTrustRecord]>([:])

    /// A server verifying its clients with `route`.
    ///
    /// - Throws: `TLSTrustRouteError.optionalClientCertificatesUnsupported` for a route with
    ///   optional client certificates (gRPC's mutual TLS requires them); swift-nio-ssl's error for
    ///   a TLS configuration it cannot load.
    public init(route: TLSServerTrustRoute, onRejection: (@Sendable (TLSTrustRejection) -> Void)? = nil) throws {
        guard route.clientCertificates == .required else { throw TLSTrustRouteError.optionalClientCertificatesUnsupported }
        self.route = try route.withGRPCApplicationProtocols()
        self.onRejection = onRejection
        context = try self.route.makeContext()
    }

    /// gRPC's server transport on `address`, each accepted connection behind SwiftTrust's TLS
    /// (a hook already in `config.channelDebuggingCallbacks.onAcceptTCPConnection` runs after).
    public func makeTransport(
        address: GRPCNIOTransportCore.SocketAddress, config: HTTP2ServerTransport.Posix.Config = .defaults,
        eventLoopGroup: MultiThreadedEventLoopGroup = .singletonMultiThreadedEventLoopGroup
    ) -> HTTP2ServerTransport.Posix {
        var config = config
        let userHook = config.channelDebuggingCallbacks.onAcceptTCPConnection
        config.channelDebuggingCallbacks.onAcceptTCPConnection = { [self] channel in
            let added = channel.eventLoop.makeCompletedFuture { try self.secure(channel) }
            guard let userHook else { return added }
            return added.flatMap { userHook(channel) }
        }
        return HTTP2ServerTransport.Posix(address: address, transportSecurity: .plaintext, config: config, eventLoopGroup: eventLoopGroup)
    }

    /// The client SwiftTrust accepted on the connection of the RPC `context` belongs to; nil
    /// before (there is none: handlers run after the handshake) or when the connection is not this server's.
    public func trustedPeer(of context: ServerContext) -> TrustedPeer? {
        connections.withLock { $0[context.remotePeer] }?.trustedPeer
    }

    /// The client SwiftTrust accepted on the RPC's connection.
    ///
    /// - Throws: `RPCError(code: .unauthenticated)` when there is none: fails closed.
    public func requireTrustedPeer(of context: ServerContext) throws(RPCError) -> TrustedPeer {
        guard let peer = trustedPeer(of: context) else {
            throw RPCError(code: .unauthenticated, message: "no verified client certificate on this connection")
        }
        return peer
    }

    /// Adds the TLS and trust handlers in front of gRPC's, and keeps the connection's record
    /// while it is open.
    private func secure(_ channel: any Channel) throws {
        let record = try channel.pipeline.syncOperations.addHandlers(of: route, context: context, position: .first)
        let remote = channel.remoteAddress
        guard let key = remote.map(Self.remotePeer) else { return }
        connections.withLock { $0[key] = record }
        channel.closeFuture.whenComplete { [self] _ in
            connections.withLock { $0[key] = nil }
            if let rejection = TLSTrustRejection(record: record, remoteAddress: remote) { onRejection?(rejection) }
        }
    }

    /// gRPC's `ServerContext.remotePeer` for an IP address (`ipv4:HOST:PORT`, `ipv6:[HOST]:PORT`).
    static func remotePeer(_ address: NIOCore.SocketAddress) -> String {
        switch address {
        case let .v4(ip): return "ipv4:\(ip.host):\(address.port ?? 0)"
        case let .v6(ip): return "ipv6:[\(ip.host)]:\(address.port ?? 0)"
        case .unixDomainSocket: return "unix:\(address.pathname ?? "")"
        }
    }
}

extension TLSServerTrustRoute {
    /// This route with gRPC's ALPN protocols when its configuration names none.
    func withGRPCApplicationProtocols() throws -> TLSServerTrustRoute {
        guard let tls = tlsConfiguration.addingGRPCApplicationProtocols else { return self }
        return try TLSServerTrustRoute(configuration: tls, clientVerifier: verifier, clientCertificates: clientCertificates)
    }
}
#endif // GRPC
