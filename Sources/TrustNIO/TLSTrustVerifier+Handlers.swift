import Foundation
import NIOCore
import NIOSSL
import TrustCore

extension TLSTrustVerifier {
    /// A `NIOSSLClientHandler` verified by this verifier, and the ``TLSPeerTrustHandler`` to add right
    /// after it: the server must be trusted for `host`.
    ///
    /// - Parameters:
    ///   - context: The TLS context (its `certificateVerification` must not be `.none`).
    ///   - host: The identity the server's leaf must match: a DNS name or an IP address.
    ///   - serverName: The SNI name; default `host` unless it is an IP address (which SNI cannot carry).
    ///   - port: The port connected to (for challenge handlers).
    ///   - taskHandler: A per-connection (task-level) challenge handler (`TLSTrustJudge.challenges(_:)`).
    public func makeClientHandlers(
        context: NIOSSLContext, host: String, serverName: String? = nil, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) throws
        -> (tls: NIOSSLClientHandler, trust: TLSPeerTrustHandler)
    {
        if case let .none(options) = context.configuration.certificateVerification, !options.validatePresentedCertificates {
            throw TLSTrustConfigurationError.certificateVerificationDisabled
        }
        let record = TLSPeerTrustRecord()
        let sni = serverName ?? (IPAddress(host) == nil ? host : nil)
        let tls = try NIOSSLClientHandler(
            context: context, serverHostname: sni,
            customVerificationCallbackWithMetadata: verificationCallback(
                for: .server(host: host), port: port, record: record,
                taskHandler: taskHandler))
        return (
            tls,
            TLSPeerTrustHandler(
                record: record,
                resumption: .init(
                    verifier: self, role: .server(host: host), port: port,
                    taskHandler: taskHandler))
        )
    }

    /// A `NIOSSLServerHandler` whose clients' certificates (mutual TLS) this verifier checks for
    /// clientAuth against the settings' anchors, and the ``TLSPeerTrustHandler`` to add right after
    /// it, from which the application reads the client's identity. A resumed TLS session, in which
    /// the client sends no certificate, is re-verified by the trust handler (see
    /// ``TLSPeerTrustHandler``), so every handshake is verified.
    ///
    /// Clients are verified against the settings' explicit anchors (`TLSTrustDecider.checkRole(_:)`:
    /// the system store only when the settings say `systemStoreTrustsClients`).
    ///
    /// The context's `certificateVerification` decides whether a certificate is required
    /// (`.noHostnameVerification` or `.fullVerification`) or optional (`.optionalVerification`: a
    /// client without one is let in with no `TrustedPeer`); `.none` is refused.
    public func makeServerHandlers(context: NIOSSLContext) throws -> (tls: NIOSSLServerHandler, trust: TLSPeerTrustHandler) {
        if case let .none(options) = context.configuration.certificateVerification, !options.validatePresentedCertificates {
            throw TLSTrustConfigurationError.certificateVerificationDisabled
        }
        try decider.checkRole(.client)
        let record = TLSPeerTrustRecord()
        let tls = NIOSSLServerHandler(
            context: context,
            customVerificationCallbackWithMetadata: verificationCallback(for: .client, record: record))
        return (tls, TLSPeerTrustHandler(record: record, resumption: .init(verifier: self, role: .client, port: nil, taskHandler: nil)))
    }
}

extension ChannelPipeline.SynchronousOperations {
    /// Adds a TLS client handler verified by `verifier` and its ``TLSPeerTrustHandler`` (see
    /// ``TLSTrustVerifier/makeClientHandlers(context:host:serverName:port:taskHandler:)``), returning
    /// the connection's result handle.
    @discardableResult
    public func addTrustedTLSClientHandlers(
        context: NIOSSLContext, host: String, verifier: TLSTrustVerifier,
        serverName: String? = nil, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) throws -> TLSPeerTrustRecord {
        let (tls, trust) = try verifier.makeClientHandlers(
            context: context, host: host, serverName: serverName, port: port,
            taskHandler: taskHandler)
        try addHandler(tls)
        try addHandler(trust)
        return trust.record
    }

    /// Adds a TLS server handler whose client certificates `verifier` checks and its
    /// ``TLSPeerTrustHandler``, returning the connection's result handle.
    @discardableResult
    public func addTrustedTLSServerHandlers(context: NIOSSLContext, verifier: TLSTrustVerifier) throws -> TLSPeerTrustRecord {
        let (tls, trust) = try verifier.makeServerHandlers(context: context)
        try addHandler(tls)
        try addHandler(trust)
        return trust.record
    }
}
