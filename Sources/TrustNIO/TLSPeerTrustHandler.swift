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
/// completes without a verification but the session holds a peer certificate, this handler asks
/// the verifier's `TLSHandshakeDecider` about that leaf (re-decided with the chain the peer
/// presented when its full handshake completed, under the settings of this handshake and with the
/// connection's challenge handler) and, until the verdict: holds the handshake-completed event,
/// stops reading from the socket (what the TLS handler had already decrypted is held, at most
/// ``heldInboundByteLimit`` bytes, past which the connection is closed), and holds what the
/// application writes, so nothing goes out to an unverified peer. Then it either lets the
/// connection proceed (`TLSPeerTrustRecord.sessionResumed` true) or fails the held writes, fires a
/// ``TLSTrustError`` and closes it. The handlers the verifier makes (`makeServerHandlers`,
/// `makeClientHandlers`) and the routes do this; a handler made with ``init(record:)`` alone
/// cannot, and only reports.
///
/// After a full handshake that completed with a trusted peer, it tells the decider, which keeps
/// that chain for the peer's resumed sessions (only then: the peer has proved it holds the key).
///
/// Every other event passes through unchanged. Like all channel handlers it lives on its channel's
/// event loop (it is not `Sendable`); its ``record`` is, and may be read from anywhere.
public final class TLSPeerTrustHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Bytes pass through untouched.
    public typealias InboundIn = ByteBuffer
    /// Bytes pass through untouched.
    public typealias OutboundIn = ByteBuffer

    /// The most decrypted bytes held while a resumed session's peer is re-verified: reading stops
    /// at once, so this bounds only what the TLS handler had decrypted from its last read (one
    /// socket read of at most 64 KiB by default, TLS records of 16 KiB). A peer that sends more
    /// has its connection closed.
    public static let heldInboundByteLimit = 1 << 20

    /// What re-verifies a resumed session's peer.
    package struct ResumptionCheck {
        let verifier: TLSTrustVerifier
        let role: TLSPeerRole
        let port: Int?
        /// The connection's challenge handler: a resumed session is judged as its full handshake was.
        let taskHandler: ServerTrustChallengeHandler?
        /// The peer certificate the resumed session holds (swift-nio-ssl's `peerCertificate`).
        let sessionLeaf: @Sendable (ChannelHandlerContext) -> NIOSSLCertificate?

        package init(
            verifier: TLSTrustVerifier, role: TLSPeerRole, port: Int?, taskHandler: ServerTrustChallengeHandler?,
            sessionLeaf: @escaping @Sendable (ChannelHandlerContext) -> NIOSSLCertificate? = Self.nioSSLPeerCertificate
        ) {
            self.verifier = verifier
            self.role = role
            self.port = port
            self.taskHandler = taskHandler
            self.sessionLeaf = sessionLeaf
        }

        /// The leaf of the pipeline's `NIOSSLHandler`.
        static func nioSSLPeerCertificate(_ context: ChannelHandlerContext) -> NIOSSLCertificate? {
            (try? context.pipeline.syncOperations.handler(type: NIOSSLHandler.self))?.peerCertificate
        }
    }

    /// Where the connection is with respect to a resumed session.
    private enum Phase {
        /// Events pass through.
        case passing
        /// A resumed session's peer is being re-verified: events wait in ``held``.
        case reverifying
        /// The re-verification rejected the peer (or the connection went away first): nothing more passes.
        case rejected
    }

    /// What waits while a resumed session's peer is re-verified. Appended in place: no copies.
    private struct Held {
        var handshake: Any?
        var reads: [NIOAny] = []
        var readBytes = 0
        var readComplete = false
        var readRequested = false
        var writes: [(data: NIOAny, promise: EventLoopPromise<Void>?)] = []
        var flush = false
    }

    /// The verifier's decision for this connection.
    public let record: TLSPeerTrustRecord
    private let resumption: ResumptionCheck?
    private var phase = Phase.passing
    private var held = Held()
    /// Whether the rejection was already reported (the TLS handler may raise several errors while closing).
    private var reported = false

    /// A handler exposing `record`, without re-verification of resumed sessions (use the handlers
    /// ``TLSTrustVerifier`` makes for that).
    public init(record: TLSPeerTrustRecord) {
        self.record = record
        resumption = nil
    }

    /// A handler that also re-verifies a resumed session's peer with `check`.
    package init(record: TLSPeerTrustRecord, resumption check: ResumptionCheck) {
        self.record = record
        resumption = check
    }

    /// The accepted peer, once the verifier accepted it.
    public var trustedPeer: TrustedPeer? { record.trustedPeer }

    /// Holds a completed handshake that skipped verification while the session's peer is
    /// re-verified; after a verified one, keeps its chain for later resumptions.
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .passing = phase, let resumption, case TLSUserEvent.handshakeCompleted = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if let outcome = record.outcome {
            // A full handshake, verified: its peer has now proved it holds the leaf's key.
            if case let .trusted(peer) = outcome, !record.sessionResumed { resumption.verifier.handshakes.handshakeCompleted(peer) }
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard let handle = resumption.sessionLeaf(context) else {
            // No peer certificate at all (optional client verification).
            context.fireUserInboundEventTriggered(event)
            return
        }
        phase = .reverifying
        held.handshake = event
        record.recordResumption()
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let record = record
        resumption.verifier.reverifyResumedSession(leaf: handle, check: resumption, record: record) { outcome in
            // Recorded at once: a peer that closes before the verdict is applied on the loop still
            // leaves its reason on the record (what integrations report when the connection closes).
            record.record(outcome)
            loop.execute { bound.value.handler.finishReverification(outcome, context: bound.value.context) }
        }
    }

    /// Holds reads while a resumed session's peer is re-verified (closing past
    /// ``heldInboundByteLimit``), drops them after a rejection.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .passing:
            context.fireChannelRead(data)
        case .reverifying:
            held.readBytes += unwrapInboundIn(data).readableBytes
            guard held.readBytes <= Self.heldInboundByteLimit else {
                return abandon(context: context, error: TLSSessionResumptionError.heldDataLimitExceeded(limit: Self.heldInboundByteLimit))
            }
            held.reads.append(data)
        case .rejected:
            break
        }
    }

    /// Holds the end of a read burst like the reads themselves.
    public func channelReadComplete(context: ChannelHandlerContext) {
        switch phase {
        case .passing: context.fireChannelReadComplete()
        case .reverifying: held.readComplete = true
        case .rejected: break
        }
    }

    /// Stops reading from the socket while a resumed session's peer is re-verified (the request is
    /// passed on with the verdict), so an unverified peer cannot make the connection buffer data.
    public func read(context: ChannelHandlerContext) {
        switch phase {
        case .passing: context.read()
        case .reverifying: held.readRequested = true
        case .rejected: break
        }
    }

    /// Holds the application's writes while a resumed session's peer is re-verified: nothing goes
    /// out to a peer before it is verified. Fails them after a rejection.
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch phase {
        case .passing: context.write(data, promise: promise)
        case .reverifying: held.writes.append((data, promise))
        case .rejected: promise?.fail(rejectionError)
        }
    }

    /// Holds a flush like the writes.
    public func flush(context: ChannelHandlerContext) {
        switch phase {
        case .passing: context.flush()
        case .reverifying: held.flush = true
        case .rejected: break
        }
    }

    /// Cancels a verification still running off the event loop (its revocation fetching): nobody
    /// waits for its verdict any more, and nothing held is passed on after the channel went away.
    public func channelInactive(context: ChannelHandlerContext) {
        if case .reverifying = phase { dropHeld() }
        record.cancelPendingVerification()
        context.fireChannelInactive()
    }

    /// Removed while a resumed session's peer is still being re-verified: the connection has no
    /// verified peer and nothing would hold its data any more, so it is closed (fail closed).
    public func handlerRemoved(context: ChannelHandlerContext) {
        guard case .reverifying = phase else { return }
        dropHeld()
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

    /// Applies the re-verification's verdict: releases what was held (the application's writes
    /// first, which it made before it heard of the handshake), or rejects and closes.
    private func finishReverification(_ outcome: TLSTrustOutcome, context: ChannelHandlerContext) {
        guard case .reverifying = phase else { return }
        record.record(outcome)
        switch outcome {
        case .trusted:
            phase = .passing
            let released = held
            held = Held()
            for write in released.writes { context.write(write.data, promise: write.promise) }
            if released.flush { context.flush() }
            if let handshake = released.handshake { context.fireUserInboundEventTriggered(handshake) }
            for read in released.reads { context.fireChannelRead(read) }
            if released.readComplete { context.fireChannelReadComplete() }
            if released.readRequested { context.read() }
        case let .rejected(failure):
            dropHeld()
            reported = true
            context.fireErrorCaught(TLSTrustError(failure: failure, tlsError: TLSSessionResumptionError.resumedPeerRejected))
            context.channel.close(promise: nil)
        }
    }

    /// Gives up on a re-verification still running: fails the held writes and closes.
    private func abandon(context: ChannelHandlerContext, error: TLSSessionResumptionError) {
        dropHeld()
        record.cancelPendingVerification()
        context.fireErrorCaught(error)
        context.channel.close(promise: nil)
    }

    /// Enters the rejected phase, failing held writes and dropping held reads.
    private func dropHeld() {
        phase = .rejected
        let dropped = held
        held = Held()
        for write in dropped.writes { write.promise?.fail(rejectionError) }
    }

    /// What a write to a rejected connection fails with.
    private var rejectionError: any Error {
        if let failure = record.failure { return TLSTrustError(failure: failure, tlsError: TLSSessionResumptionError.resumedPeerRejected) }
        return ChannelError.ioOnClosedChannel
    }
}

@available(*, unavailable)
extension TLSPeerTrustHandler: Sendable {}

/// What TLS reports for a connection closed while, or after, its resumed session's peer was
/// re-verified: the TLS handshake itself succeeded (``TLSTrustError/tlsError`` of a rejection).
public enum TLSSessionResumptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The resumed session's peer was re-verified and rejected; the connection was closed.
    case resumedPeerRejected
    /// The peer sent more than `limit` bytes before its re-verification ended; the connection was
    /// closed (``TLSPeerTrustHandler/heldInboundByteLimit``).
    case heldDataLimitExceeded(limit: Int)

    /// One sentence.
    public var description: String {
        switch self {
        case .resumedPeerRejected:
            return "the TLS session was resumed, its peer was re-verified and rejected, and the connection was closed"
        case let .heldDataLimitExceeded(limit):
            return "the TLS session was resumed and its peer sent more than \(limit) bytes before it was re-verified; the connection was closed"
        }
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
