import NIOCore

/// Sits behind the TLS handler of a connection verified by a ``TLSTrustVerifier``: holds the
/// connection's `TLSPeerTrustRecord` and turns swift-nio-ssl's handshake error into a
/// ``TLSTrustError`` carrying the verifier's reason.
///
/// Every other event passes through unchanged. Like all channel handlers it lives on its channel's
/// event loop (it is not `Sendable`); its ``record`` is, and may be read from anywhere.
public final class TLSPeerTrustHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Bytes pass through untouched.
    public typealias InboundIn = ByteBuffer

    /// The verifier's decision for this connection.
    public let record: TLSPeerTrustRecord
    /// Whether the rejection was already reported (the TLS handler may raise several errors while closing).
    private var reported = false

    /// A handler exposing `record`.
    public init(record: TLSPeerTrustRecord) {
        self.record = record
    }

    /// The accepted peer, once the verifier accepted it.
    public var trustedPeer: TrustedPeer? { record.trustedPeer }

    /// Replaces the first error after a rejection with a ``TLSTrustError``; later ones are
    /// swift-nio-ssl's consequences of the same failure and are passed on as they are.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !reported, !(error is TLSTrustError), let failure = record.failure {
            reported = true
            context.fireErrorCaught(TLSTrustError(failure: failure, tlsError: error))
            return
        }
        context.fireErrorCaught(error)
    }
}

@available(*, unavailable)
extension TLSPeerTrustHandler: Sendable {}

extension Channel {
    /// The peer a ``TLSTrustVerifier`` accepted on this channel (nil before verification, after a
    /// rejection, or without a ``TLSPeerTrustHandler``): on a mutual-TLS server, the client's identity.
    public func trustedPeer() -> EventLoopFuture<TrustedPeer?> {
        tlsPeerTrustRecord().map { $0?.trustedPeer }
    }

    /// The `TLSPeerTrustRecord` of this channel's ``TLSPeerTrustHandler``, if it has one.
    public func tlsPeerTrustRecord() -> EventLoopFuture<TLSPeerTrustRecord?> {
        pipeline.handler(type: TLSPeerTrustHandler.self).map { Optional($0.record) }.recover { _ in nil }
    }
}
