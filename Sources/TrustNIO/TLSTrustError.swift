import Foundation
import TrustCore

/// The error a ``TLSPeerTrustHandler`` fires through the pipeline in place of swift-nio-ssl's
/// handshake error when the verifier rejected the peer: the typed reason plus what TLS reported.
///
/// ```swift
/// func errorCaught(context: ChannelHandlerContext, error: Error) {
///     if let rejection = error as? TLSTrustError { log(rejection.failure) }   // e.g. an expired leaf
/// }
/// ```
///
/// Equal when the failures are and the TLS errors are (by value when their type is `Equatable`,
/// otherwise by type).
public struct TLSTrustError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// Why the verifier rejected the peer.
    public let failure: TLSTrustFailure
    /// The error swift-nio-ssl raised for the failed handshake (`NIOSSLError.handshakeFailed`).
    public var tlsError: any Error { comparableTLSError.error }
    /// ``tlsError``, as the synthesized `==` and `hash(into:)` compare it.
    private let comparableTLSError: ComparableError

    /// Wraps `failure` and the TLS error it caused.
    public init(failure: TLSTrustFailure, tlsError: any Error) {
        self.failure = failure
        comparableTLSError = ComparableError(tlsError)
    }

    /// The failure's description, with the control and bidi characters a peer may have put in its
    /// certificates' names escaped (an application logging this error cannot be made to forge a line).
    public var description: String { "TLS peer rejected: " + TerminalText.escaped(failure.description) }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to change, from the failure.
    public var recoverySuggestion: String? { failure.recoverySuggestion }
}
