#if Vapor
import TrustNIO
import TrustSession
import Vapor

/// What `Application.useSwiftTrust(_:onRejection:)` installed: the route, and the peers it accepted.
struct SwiftTrustVaporServer: Sendable {
    let route: TLSServerTrustRoute
    let directory = TrustedPeerDirectory()

    /// Where the application keeps it.
    struct Key: StorageKey {
        typealias Value = SwiftTrustVaporServer
    }
}

extension Application {
    /// Serves HTTPS whose clients present certificates that SwiftTrust verifies (mutual TLS), in
    /// one call: sets the server's `tlsConfiguration` from `route` (a client certificate asked for)
    /// and its `customCertificateVerifyCallbackWithMetadata` to the route's verifier (clearing
    /// `customCertificateVerifyCallback`, which Vapor says is mutually exclusive with it), so
    /// handlers read the client's identity with ``Vapor/Request/trustedPeer()``.
    ///
    /// Vapor takes one callback for every connection and no per-connection hook: the typed reason
    /// of a rejected client reaches `onRejection` once per refused handshake, not any request
    /// (none is made on a refused connection). For the same reason a resumed TLS session, in which
    /// the client sends no certificate and Vapor calls no hook, cannot be re-verified: when the
    /// route requires client certificates, a middleware (installed first) refuses every request on a
    /// connection without a verified client with 403, so such a session gets nothing.
    ///
    /// ```swift
    /// let route = try TLSServerTrustRoute(certificateChain: chain, privateKey: key, clientVerifier: clients)
    /// app.useSwiftTrust(route) { failure in app.logger.info("client refused: \(failure.summary)") }
    /// ```
    public func useSwiftTrust(_ route: TLSServerTrustRoute, onRejection: (@Sendable (TLSTrustFailure) -> Void)? = nil) {
        let server = SwiftTrustVaporServer(route: route)
        storage[SwiftTrustVaporServer.Key.self] = server
        let directory = server.directory
        http.server.configuration.tlsConfiguration = route.tlsConfiguration
        http.server.configuration.customCertificateVerifyCallback = nil
        http.server.configuration.customCertificateVerifyCallbackWithMetadata = route.verificationCallback { outcome in
            switch outcome {
            case let .trusted(peer): directory.remember(peer)
            case let .rejected(failure): onRejection?(failure)
            }
        }
        if route.clientCertificates == .required { middleware.use(RequireVerifiedClientMiddleware(), at: .beginning) }
    }
}
#endif // Vapor
