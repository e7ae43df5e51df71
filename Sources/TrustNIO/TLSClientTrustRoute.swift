import NIOCore
import NIOSSL
import TrustCore
import TrustSession

/// Everything a TLS client needs for SwiftTrust to verify its server, set together so that the
/// unsafe combinations cannot be expressed: the `TLSConfiguration` (its `certificateVerification`
/// is always `.noHostnameVerification`, whatever the configuration given had), the verifier, the
/// host the server must be trusted for, and the SNI name.
///
/// Wiring by hand goes wrong silently: with `certificateVerification = .none` (gRPC Swift 2's
/// `.noVerification`) BoringSSL still calls a client's verification callback but ignores its
/// rejection, so the connection proceeds with a server the verifier rejected. A route cannot be
/// made that way, and each connection it wires gets its own `TLSPeerTrustRecord`.
///
/// ```swift
/// let route = try TLSClientTrustRoute(host: "api.example.com", verifier: verifier)
/// let context = try route.makeContext()
/// // in a channel initializer:
/// let record = try channel.pipeline.syncOperations.addHandlers(of: route, context: context)
/// ```
public struct TLSClientTrustRoute: Sendable {
    /// The client's TLS configuration: the one given, with `certificateVerification` set to
    /// `.noHostnameVerification` (swift-nio-ssl calls the verifier and fails the handshake on its
    /// rejection; SwiftTrust checks the host).
    public let tlsConfiguration: TLSConfiguration
    /// Who verifies the server.
    public let verifier: TLSTrustVerifier
    /// The identity the server's leaf must match: a DNS name or an IP address.
    public let host: String
    /// The SNI name sent: the one given, else `host` unless it is an IP address (SNI carries names only).
    public let serverName: String?
    /// The port connected to, for challenge handlers and pin-failure reports.
    public let port: Int?

    /// A route to `host`, verified by `verifier`.
    ///
    /// - Parameters:
    ///   - host: The identity the server must be trusted for.
    ///   - verifier: Who verifies the server.
    ///   - serverName: The SNI name; default `host` unless it is an IP address.
    ///   - port: The port connected to.
    ///   - configuration: The rest of the TLS configuration (versions, ALPN, a client certificate).
    ///     Its `certificateVerification` is replaced; its trust roots are not used (the verifier's
    ///     settings hold the anchors).
    /// - Throws: `TLSTrustConfigurationError` from `TLSTrustDecider.checkRole(_:)` for the server role
    ///   (reserved: the server role is verifiable under every judge today).
    public init(
        host: String, verifier: TLSTrustVerifier, serverName: String? = nil, port: Int? = nil,
        configuration: TLSConfiguration = .makeClientConfiguration()
    ) throws(TLSTrustConfigurationError) {
        try verifier.decider.checkRole(.server(host: host))
        var tls = configuration
        tls.certificateVerification = .noHostnameVerification
        tlsConfiguration = tls
        self.verifier = verifier
        self.host = host
        self.serverName = serverName ?? (IPAddress(host) == nil ? host : nil)
        self.port = port
    }

    /// The server's role as the verifier sees it.
    public var role: TLSPeerRole { .server(host: host) }

    /// A swift-nio-ssl context for ``tlsConfiguration`` (make one and share it between connections).
    ///
    /// - Throws: swift-nio-ssl's error for a configuration it cannot load (a missing key file).
    public func makeContext() throws -> NIOSSLContext {
        try NIOSSLContext(configuration: tlsConfiguration)
    }

    /// The verification callback for one connection: records the decision in `record` (make one
    /// record per connection) and tells `onOutcome`. For frameworks that take a callback and a
    /// `TLSConfiguration`; prefer ``makeHandlers(context:)`` where the pipeline is yours.
    public func verificationCallback(
        record: TLSPeerTrustRecord? = nil,
        onOutcome: (@Sendable (TLSTrustOutcome) -> Void)? = nil
    ) -> TLSTrustVerificationCallback {
        verifier.verificationCallback(for: role, port: port, record: record, onOutcome: onOutcome)
    }

    /// The TLS handler and the ``TLSPeerTrustHandler`` to add right after it, for one connection:
    /// the trust handler holds the connection's record and turns a rejection into a ``TLSTrustError``.
    ///
    /// - Parameter context: A context made by ``makeContext()``.
    /// - Throws: ``TLSTrustRouteError/contextNotFromRoute`` for a context whose
    ///   `certificateVerification` differs from the route's; swift-nio-ssl's error for an SNI name it refuses.
    public func makeHandlers(context: NIOSSLContext) throws -> (tls: NIOSSLClientHandler, trust: TLSPeerTrustHandler) {
        guard context.configuration.certificateVerification == tlsConfiguration.certificateVerification else {
            throw TLSTrustRouteError.contextNotFromRoute
        }
        return try verifier.makeClientHandlers(context: context, host: host, serverName: serverName, port: port)
    }
}
