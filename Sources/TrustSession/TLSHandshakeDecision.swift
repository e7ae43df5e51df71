/// What ``TLSHandshakeDecider/decision(for:role:port:taskHandler:)`` answers: the verdict now, or
/// the work that needs the network, for the adapter to run where waiting is allowed.
public enum TLSHandshakeDecision: Sendable {
    /// Decided inline: nothing needed the network.
    case decided(TLSTrustOutcome)
    /// Needs the network (revocation fetching, a missing intermediate's download): run
    /// ``TLSPendingDecision/outcome()`` off the event loop, in a task the connection can cancel.
    case pending(TLSPendingDecision)
}

/// A decision that needs the network: the adapter runs ``outcome()`` off its event loop (in a task
/// it cancels when the connection goes away: fetching then stops, and the decision rests on what
/// was fetched, as at the deadline).
public struct TLSPendingDecision: Sendable {
    private let work: @Sendable () async -> TLSTrustOutcome

    init(_ work: @escaping @Sendable () async -> TLSTrustOutcome) {
        self.work = work
    }

    /// Makes the decision, within the settings' `revocationFetchDeadline`.
    public func outcome() async -> TLSTrustOutcome {
        await work()
    }
}
