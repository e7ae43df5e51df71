import NIOCore
import NIOSSL
import TrustSession

/// Everything a mutual-TLS server needs for SwiftTrust to verify its clients, set together so that
/// the unsafe combinations cannot be expressed: the `TLSConfiguration` (its `certificateVerification`
/// asks for a client certificate, `.noHostnameVerification` when one is required or
/// `.optionalVerification`), and a verifier that can judge clients (explicit anchors, a plain
/// evaluation: `TLSTrustDecider.checkRole(_:)`).
///
/// Wiring by hand goes wrong silently: a server `TLSConfiguration` leaves `certificateVerification`
/// at `.none`, under which BoringSSL requests no client certificate, never calls the verifier, and
/// lets every client in.
///
/// ```swift
/// let route = try TLSServerTrustRoute(certificateChain: chain, privateKey: key, clientVerifier: clients)
/// let context = try route.makeContext()
/// // in a child channel initializer:
/// let record = try channel.pipeline.syncOperations.addHandlers(of: route, context: context)
/// ```
public struct TLSServerTrustRoute: Sendable {
    /// Whether a client must present a certificate.
    public enum ClientCertificates: Hashable, Sendable {
        /// A client without a certificate is refused (`.noHostnameVerification`).
        case required
        /// A client without a certificate is let in with no `TrustedPeer`; one that presents a
        /// certificate is verified (`.optionalVerification`).
        case optional
    }

    /// The server's TLS configuration: the one given, with `certificateVerification` set from ``clientCertificates``.
    public let tlsConfiguration: TLSConfiguration
    /// Who verifies the clients.
    public let verifier: TLSTrustVerifier
    /// Whether a client must present a certificate.
    public let clientCertificates: ClientCertificates

    /// A route for a server configured by `configuration` (certificate chain and key set), whose
    /// clients `clientVerifier` verifies.
    ///
    /// - Parameters:
    ///   - configuration: The server's TLS configuration; its `certificateVerification` is replaced.
    ///   - clientVerifier: Who verifies the clients: explicit anchors and a plain evaluation.
    ///   - clientCertificates: Whether a client must present a certificate. Default: required.
    /// - Throws: `TLSTrustConfigurationError.clientAnchorsNotExplicit` or
    ///   `.clientCertificatesNeedPlainEvaluation` for a verifier that cannot judge clients.
    public init(
        configuration: TLSConfiguration, clientVerifier: TLSTrustVerifier,
        clientCertificates: ClientCertificates = .required
    ) throws(TLSTrustConfigurationError) {
        try clientVerifier.decider.checkRole(.client)
        var tls = configuration
        switch clientCertificates {
        case .required: tls.certificateVerification = .noHostnameVerification
        case .optional: tls.certificateVerification = .optionalVerification
        }
        tlsConfiguration = tls
        verifier = clientVerifier
        self.clientCertificates = clientCertificates
    }

    /// A route for a server presenting `certificateChain` (leaf first) with `privateKey`; the rest
    /// as in ``init(configuration:clientVerifier:clientCertificates:)``.
    public init(
        certificateChain: [NIOSSLCertificateSource], privateKey: NIOSSLPrivateKeySource,
        clientVerifier: TLSTrustVerifier, clientCertificates: ClientCertificates = .required
    ) throws(TLSTrustConfigurationError) {
        try self.init(
            configuration: .makeServerConfiguration(certificateChain: certificateChain, privateKey: privateKey),
            clientVerifier: clientVerifier, clientCertificates: clientCertificates)
    }

    /// A swift-nio-ssl context for ``tlsConfiguration`` (make one and share it between connections).
    ///
    /// - Throws: swift-nio-ssl's error for a configuration it cannot load.
    public func makeContext() throws -> NIOSSLContext {
        try NIOSSLContext(configuration: tlsConfiguration)
    }

    /// The verification callback: records the decision in `record` (one per connection, where the
    /// framework lets the application make one) and tells `onOutcome`. For frameworks that take one
    /// callback for every connection (Vapor's `customCertificateVerifyCallbackWithMetadata`).
    public func verificationCallback(
        record: TLSPeerTrustRecord? = nil,
        onOutcome: (@Sendable (TLSTrustOutcome) -> Void)? = nil
    ) -> TLSTrustVerificationCallback {
        verifier.verificationCallback(for: .client, record: record, onOutcome: onOutcome)
    }

    /// The TLS handler and the ``TLSPeerTrustHandler`` to add right after it, for one connection:
    /// the trust handler holds the connection's record (the client's `TrustedPeer`) and re-verifies
    /// a resumed session's client.
    ///
    /// - Parameter context: A context made by ``makeContext()``.
    /// - Throws: ``TLSTrustRouteError/contextNotFromRoute`` for a context whose
    ///   `certificateVerification` differs from the route's.
    public func makeHandlers(context: NIOSSLContext) throws -> (tls: NIOSSLServerHandler, trust: TLSPeerTrustHandler) {
        guard context.configuration.certificateVerification == tlsConfiguration.certificateVerification else {
            throw TLSTrustRouteError.contextNotFromRoute
        }
        return try verifier.makeServerHandlers(context: context)
    }
}
