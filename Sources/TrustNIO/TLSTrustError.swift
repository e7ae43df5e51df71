/// The error a ``TLSPeerTrustHandler`` fires through the pipeline in place of swift-nio-ssl's
/// handshake error when the verifier rejected the peer: the typed reason plus what TLS reported.
///
/// ```swift
/// func errorCaught(context: ChannelHandlerContext, error: Error) {
///     if let rejection = error as? TLSTrustError { log(rejection.failure) }   // e.g. an expired leaf
/// }
/// ```
public struct TLSTrustError: Error, Sendable, CustomStringConvertible {
    /// Why the verifier rejected the peer.
    public let failure: TLSTrustFailure
    /// The error swift-nio-ssl raised for the failed handshake (`NIOSSLError.handshakeFailed`).
    public let tlsError: any Error

    /// Wraps `failure` and the TLS error it caused.
    public init(failure: TLSTrustFailure, tlsError: any Error) {
        self.failure = failure
        self.tlsError = tlsError
    }

    /// The failure's description.
    public var description: String { "TLS peer rejected: \(failure)" }
}
