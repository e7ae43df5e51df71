#if GRPC
import GRPCCore
import GRPCNIOTransportHTTP2
import NIOCore
import NIOPosix
import NIOSSL
import TrustNIO
import TrustSession

extension HTTP2ClientTransport.Posix {
    /// A gRPC client transport whose server SwiftTrust verifies, in one call: `route` sets
    /// `certificateVerification` and the verifier together (gRPC's own `.tls` accepts
    /// `.noVerification` beside a `customVerificationCallback`, under which BoringSSL ignores the
    /// callback's rejection), and every connection gets its own `TLSPeerTrustHandler`, so a
    /// rejected call's `RPCError` carries the typed reason (``GRPCCore/RPCError/tlsTrustError``).
    ///
    /// The transport is gRPC's `.customSecure`: the route's TLS handler is added in front of the
    /// HTTP/2 handlers by `channelDebuggingCallbacks.onCreateTCPConnection` (a hook set in `config`
    /// runs after it). The route's configuration gets gRPC's ALPN (`grpc-exp`, `h2`) when it names none.
    ///
    /// ```swift
    /// let manager = try ServerTrustManager(evaluators: ["api.example.com": PinnedSPKIHashesTrustEvaluator(pins: pins)])
    /// let route = try TLSClientTrustRoute(host: "api.example.com", verifier: TLSTrustVerifier(evaluator: manager))
    /// let transport = try HTTP2ClientTransport.Posix.swiftTrust(target: .dns(host: "api.example.com", port: 443), route: route)
    /// ```
    ///
    /// - Parameters:
    ///   - target: Where to connect.
    ///   - route: The server's host, verifier and TLS configuration.
    ///   - config: The transport's configuration.
    ///   - eventLoopGroup: The event loops the connections run on.
    /// - Throws: swift-nio-ssl's error for a TLS configuration it cannot load; gRPC's `RuntimeError`
    ///   for a target it cannot resolve.
    public static func swiftTrust(
        target: any ResolvableTarget, route: TLSClientTrustRoute, config: Config = .defaults,
        eventLoopGroup: any EventLoopGroup = .singletonMultiThreadedEventLoopGroup
    ) throws -> Self {
        let route = route.withGRPCApplicationProtocols()
        let context = try route.makeContext()
        var config = config
        let userHook = config.channelDebuggingCallbacks.onCreateTCPConnection
        config.channelDebuggingCallbacks.onCreateTCPConnection = { channel in
            let added = channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(of: route, context: context, position: .first)
                return ()
            }
            guard let userHook else { return added }
            return added.flatMap { userHook(channel) }
        }
        return try Self(target: target, transportSecurity: .customSecure, config: config, eventLoopGroup: eventLoopGroup)
    }
}

extension TLSClientTrustRoute {
    /// This route with gRPC's ALPN protocols when its configuration names none.
    func withGRPCApplicationProtocols() -> TLSClientTrustRoute {
        guard let tls = tlsConfiguration.addingGRPCApplicationProtocols else { return self }
        // The configuration given was accepted already; only ALPN changed.
        return (try? TLSClientTrustRoute(host: host, verifier: verifier, serverName: serverName, port: port, configuration: tls)) ?? self
    }
}
#endif // GRPC
