import NIOCore
import NIOSSL
import NIOTLS
import TrustSession

/// Sits behind the TLS handler of a connection verified by a ``TLSTrustVerifier``: holds the
/// connection's `TLSPeerTrustRecord`, turns swift-nio-ssl's handshake error into a
/// ``TLSTrustError`` carrying the verifier's reason, and verifies the peer of a resumed session.
///
/// **Resumed sessions.** BoringSSL resumes sessions (TLS 1.2 session IDs and tickets, TLS 1.3
/// pre-shared keys) without the peer sending its certificates again, so swift-nio-ssl never calls
/// the verification callback: a client whose certificate was revoked or expired, or that a
/// listener sharing the `NIOSSLContext` does not trust, would keep getting in. When the handshake
/// completes without a verification but the session holds a peer certificate, this handler holds
/// the handshake-completed event and every byte read, re-verifies that peer with its verifier
/// (``TLSTrustVerifier`` re-decides the chain the peer presented when it was trusted, under the
/// settings of this handshake), and then either lets the connection proceed
/// (`TLSPeerTrustRecord.sessionResumed` true) or fires a ``TLSTrustError`` and closes it.
/// The handlers the verifier makes (`makeServerHandlers`, `makeClientHandlers`) do this; a handler
/// made with ``init(record:)`` alone cannot, and only reports.
///
/// Every other event passes through unchanged. Like all channel handlers it lives on its channel's
/// event loop (it is not `Sendable`); its ``record`` is, and may be read from anywhere.
public final class TLSPeerTrustHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Bytes pass through untouched.
    public typealias InboundIn = ByteBuffer

    /// What re-verifies a resumed session's peer.
    struct ResumptionCheck {
        let verifier: TLSTrustVerifier
        let role: TLSPeerRole
        let port: Int?
    }

    /// Where the connection is with respect to a resumed session.
    private enum State {
        /// Events pass through.
        case passing
        /// A resumed session's peer is being re-verified: the handshake event and reads wait.
        case reverifying(handshake: Any, reads: [NIOAny], readComplete: Bool)
        /// The re-verification rejected the peer: nothing more is passed on.
        case rejected
    }

    /// The verifier's decision for this connection.
    public let record: TLSPeerTrustRecord
    private let resumption: ResumptionCheck?
    private var state = State.passing
    /// Whether the rejection was already reported (the TLS handler may raise several errors while closing).
    private var reported = false

    /// A handler exposing `record`, without re-verification of resumed sessions (use the handlers
    /// ``TLSTrustVerifier`` makes for that).
    public init(record: TLSPeerTrustRecord) {
        self.record = record
        resumption = nil
    }

    /// A handler that also re-verifies a resumed session's peer with `check`.
    init(record: TLSPeerTrustRecord, resumption check: ResumptionCheck) {
        self.record = record
        resumption = check
    }

    /// The accepted peer, once the verifier accepted it.
    public var trustedPeer: TrustedPeer? { record.trustedPeer }

    /// Holds a completed handshake that skipped verification while the session's peer is re-verified.
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .passing = state, let resumption, case TLSUserEvent.handshakeCompleted = event, record.outcome == nil,
              let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLHandler.self),
              let leaf = tls.peerCertificate else {
            // A verified handshake, or one without any peer certificate (optional client verification).
            context.fireUserInboundEventTriggered(event)
            return
        }
        state = .reverifying(handshake: event, reads: [], readComplete: false)
        record.recordResumption()
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        resumption.verifier.reverifyResumedSession(leaf: leaf, role: resumption.role, port: resumption.port, record: record) { outcome in
            loop.execute { bound.value.handler.finishReverification(outcome, context: bound.value.context) }
        }
    }

    /// Holds reads while a resumed session's peer is re-verified, drops them after a rejection.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .passing: context.fireChannelRead(data)
        case let .reverifying(handshake, reads, readComplete): state = .reverifying(handshake: handshake, reads: reads + [data], readComplete: readComplete)
        case .rejected: break
        }
    }

    /// Holds the end of a read burst like the reads themselves.
    public func channelReadComplete(context: ChannelHandlerContext) {
        switch state {
        case .passing: context.fireChannelReadComplete()
        case let .reverifying(handshake, reads, _): state = .reverifying(handshake: handshake, reads: reads, readComplete: true)
        case .rejected: break
        }
    }

    /// Cancels a verification still running off the event loop (its revocation fetching): nobody
    /// waits for its verdict any more, and nothing held is passed on after the channel went away.
    public func channelInactive(context: ChannelHandlerContext) {
        if case .reverifying = state { state = .rejected }
        record.cancelPendingVerification()
        context.fireChannelInactive()
    }

    /// Removed while a resumed session's peer is still being re-verified: the connection has no
    /// verified peer and nothing would hold its data any more, so it is closed (fail closed).
    public func handlerRemoved(context: ChannelHandlerContext) {
        guard case .reverifying = state else { return }
        state = .rejected
        record.cancelPendingVerification()
        context.channel.close(promise: nil)
    }

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

    /// Applies the re-verification's verdict: releases what was held, or rejects and closes.
    private func finishReverification(_ outcome: TLSTrustOutcome, context: ChannelHandlerContext) {
        guard case let .reverifying(handshake, reads, readComplete) = state else { return }
        record.record(outcome)
        switch outcome {
        case .trusted:
            state = .passing
            context.fireUserInboundEventTriggered(handshake)
            for read in reads { context.fireChannelRead(read) }
            if readComplete { context.fireChannelReadComplete() }
        case let .rejected(failure):
            state = .rejected
            reported = true
            context.fireErrorCaught(TLSTrustError(failure: failure, tlsError: TLSSessionResumptionError.resumedPeerRejected))
            context.channel.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension TLSPeerTrustHandler: Sendable {}

/// What TLS reports for a connection closed after its resumed session's peer was re-verified and
/// rejected: the TLS handshake itself succeeded (``TLSTrustError/tlsError`` of that rejection).
public enum TLSSessionResumptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The resumed session's peer was re-verified and rejected; the connection was closed.
    case resumedPeerRejected

    /// One sentence.
    public var description: String {
        "the TLS session was resumed, its peer was re-verified and rejected, and the connection was closed"
    }
}

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
