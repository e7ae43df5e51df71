import Synchronization
import TrustX509

/// The decision a verifier made for one connection, kept for the application to read: the result
/// handle of a `TLSPeerTrustHandler`. Written once, from whichever thread the verification ran on.
public final class TLSPeerTrustRecord: Sendable {
    private struct State {
        var presented: [Certificate] = []
        var outcome: TLSTrustOutcome?
        var resumed = false
        /// Cancels a verification still running off the event loop (its revocation fetching).
        var cancelPending: (@Sendable () -> Void)?
        /// Whether the connection closed: a verification registered afterwards is cancelled at once.
        var closed = false
    }

    private let state = Mutex(State())

    /// An empty record.
    public init() {}

    /// The decision, or nil while the handshake has not reached certificate verification.
    public var outcome: TLSTrustOutcome? { state.withLock { $0.outcome } }

    /// The certificates the peer presented, leaf first, whether or not they were accepted (empty
    /// before verification, or when one of them did not parse).
    public var presentedCertificates: [Certificate] { state.withLock { $0.presented } }

    /// Whether the handshake resumed an earlier TLS session (a TLS 1.2 session ID or ticket, a TLS
    /// 1.3 pre-shared key) in which the peer had presented a certificate: the peer sent none this
    /// time, and ``outcome`` is the re-verification of the session's peer under the settings of
    /// this handshake. A resumed session whose peer presented no certificate cannot be told from a
    /// full handshake without one: both leave this false and ``outcome`` nil.
    public var sessionResumed: Bool { state.withLock { $0.resumed } }

    /// The accepted peer, if the verifier accepted one.
    public var trustedPeer: TrustedPeer? {
        if case let .trusted(peer) = outcome { return peer }
        return nil
    }

    /// Why the verifier rejected the peer, if it did.
    public var failure: TLSTrustFailure? {
        if case let .rejected(failure) = outcome { return failure }
        return nil
    }

    /// Records `outcome` (the first decision stands: a verification callback runs once per handshake).
    package func record(_ outcome: TLSTrustOutcome) {
        state.withLock { state in
            if state.outcome == nil { state.outcome = outcome }
            state.cancelPending = nil
        }
    }

    /// Registers how to cancel the verification running for this connection, so that a connection
    /// that goes away stops its fetching (``cancelPendingVerification()``); cancels at once when
    /// the connection has already closed.
    package func setPendingVerification(_ cancel: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state in
            if !state.closed { state.cancelPending = cancel }
            return state.closed
        }
        if closed { cancel() }
    }

    /// The connection closed: cancels a verification still running, and any registered later.
    package func cancelPendingVerification() {
        let cancel = state.withLock { state in
            state.closed = true
            defer { state.cancelPending = nil }
            return state.cancelPending
        }
        cancel?()
    }

    /// Records that the handshake resumed a session whose peer is re-verified.
    package func recordResumption() {
        state.withLock { $0.resumed = true }
    }

    /// Records the parsed certificates the peer presented.
    package func record(presented: [Certificate]) {
        state.withLock { $0.presented = presented }
    }
}
