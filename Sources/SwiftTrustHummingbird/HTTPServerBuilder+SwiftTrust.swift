#if Hummingbird
import HummingbirdCore
import TrustNIO

extension HTTPServerBuilder {
    /// An HTTP/1.1 server over TLS whose clients present certificates that SwiftTrust verifies
    /// (mutual TLS), in one call: `route` sets `certificateVerification` and the verifier together,
    /// and every connection gets its own trust record, read by handlers through
    /// ``TrustedPeerRequestContext/trustedPeer()``.
    ///
    /// HTTP/1.1 only: Hummingbird builds a wrapped builder's child channel through a `package`
    /// method (`buildChildChannel`), so this builder makes the `HTTP1Channel` itself.
    ///
    /// ```swift
    /// let route = try TLSServerTrustRoute(certificateChain: chain, privateKey: key, clientVerifier: clients)
    /// let app = Application(router: Router(context: TrustedPeerRequestContext.self),
    ///                       server: .swiftTrustTLS(route: route))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The HTTP/1.1 channel's configuration.
    ///   - route: The server's TLS configuration and client verifier.
    ///   - onRejection: Hears each connection refused for its client certificate, with the typed reason.
    ///   A TLS configuration swift-nio-ssl cannot load fails when the server starts.
    public static func swiftTrustTLS(
        http1 configuration: HTTP1Channel.Configuration = .init(), route: TLSServerTrustRoute,
        onRejection: (@Sendable (TLSTrustRejection) -> Void)? = nil
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            try TrustedTLSChannel(
                HTTP1Channel(responder: responder, configuration: configuration), route: route,
                onRejection: onRejection)
        }
    }
}
#endif // Hummingbird
