import NIOCore
import NIOTLS

/// Completes a promise when the TLS handshake completes, and fails it with the first error (a
/// ``TLSTrustError`` when the verifier rejected the peer) or when the channel closes first. Add it
/// after the ``TLSPeerTrustHandler`` to wait for a connection's verdict:
///
/// ```swift
/// let handshake = channel.eventLoop.makePromise(of: Void.self)
/// try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
/// try await handshake.futureResult.get()   // throws TLSTrustError with the reason on rejection
/// ```
public final class TLSHandshakeCompletionHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Bytes pass through untouched.
    public typealias InboundIn = ByteBuffer
    private let promise: EventLoopPromise<Void>

    /// A handler completing `promise`.
    public init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    /// Succeeds the promise on `TLSUserEvent.handshakeCompleted`.
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { promise.succeed(()) }
        context.fireUserInboundEventTriggered(event)
    }

    /// Fails the promise with `error` (a no-op once it completed) and passes the error on.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.fireErrorCaught(error)
    }

    /// Fails the promise when the channel closes before the handshake completed.
    public func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}

@available(*, unavailable)
extension TLSHandshakeCompletionHandler: Sendable {}
