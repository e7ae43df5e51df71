import TrustCore
import TrustX509

/// The one entry point every transport adapter calls for a handshake's peer: decides inline when
/// nothing needs the network, else hands back the work that does (``TLSHandshakeDecision``), and
/// owns resumed sessions (the chains of peers whose handshakes completed, and their re-verification
/// under this handshake's settings, with the connection's challenge handler).
///
/// An adapter (TrustNIO's `TLSTrustVerifier` for swift-nio-ssl, and through it every framework
/// integration) does three things: parses the peer's certificates, calls
/// ``decision(for:role:port:taskHandler:)`` on its TLS hook, and, once the handshake completed with
/// a trusted peer, calls ``handshakeCompleted(_:)`` so that a later resumed session can be
/// re-verified with the full chain. Go's `tls.Config.VerifyConnection` runs on resumed sessions too;
/// BoringSSL's verification callback does not, which is why the second case exists.
///
/// ```swift
/// switch handshakes.decision(for: .presented(parsed), role: .server(host: host)) {
/// case let .decided(outcome): complete(outcome)
/// case let .pending(pending): Task { complete(await pending.outcome()) }
/// }
/// ```
public struct TLSHandshakeDecider: Sendable {
    /// Settings, judge, and the check that an acceptance enforced the settings' options.
    public let decider: TLSTrustDecider
    /// Where decisions run: inline, or handed back as pending.
    public let execution: TLSVerificationExecution
    /// The chains of trusted peers whose handshakes completed, by leaf.
    private let resumedChains = ResumedSessionChains()

    /// A decider of handshakes for `decider`'s settings and judge, running as `execution` says.
    public init(decider: TLSTrustDecider, execution: TLSVerificationExecution = .automatic) {
        self.decider = decider
        self.execution = execution
    }

    /// Whether every decision is handed back as pending: the settings (or the judge) may fetch,
    /// or ``execution`` says so.
    public var decidesOffEventLoop: Bool {
        switch execution {
        case .automatic, .onEventLoop: return decider.mayUseNetwork
        case .offEventLoop: return true
        }
    }

    /// The decision on a handshake's `peer` in `role`: a full handshake's presented chain, or a
    /// resumed session's leaf with the rest of the chain it was trusted with (a leaf not remembered
    /// is decided alone with the settings' intermediates, which fails closed when they do not
    /// complete its chain). Decided inline unless ``decidesOffEventLoop``, or unless an inline
    /// rejection for a missing intermediate may turn once its caIssuers URL is fetched (as Apple's
    /// trustd does), which is then the pending work.
    ///
    /// - Parameters:
    ///   - peer: What the handshake showed of the peer.
    ///   - role: The peer's role: a server for the host connected to, or a client.
    ///   - port: The port connected to, for `ServerTrustChallenge.port`.
    ///   - taskHandler: The connection's own (task-level) challenge handler, for
    ///     `TLSTrustJudge.challenges(_:)`; a resumed session is judged with it too.
    public func decision(
        for peer: TLSHandshakePeer, role: TLSPeerRole, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) -> TLSHandshakeDecision {
        let presented: [Certificate]
        switch peer {
        case let .presented(certificates): presented = certificates
        case let .resumed(leaf): presented = resumedChains.chain(forLeaf: leaf)
        }
        // The anchor provider is read here, once: every evaluation of this handshake uses that set.
        let decider: TLSTrustDecider
        switch self.decider.forHandshake(presented: presented) {
        case let .success(handshake): decider = handshake
        case let .failure(failure): return .decided(.rejected(failure))
        }
        if decidesOffEventLoop {
            return .pending(
                TLSPendingDecision {
                    await decider.decide(presented, role: role, port: port, taskHandler: taskHandler)
                })
        }
        let offline = decider.decideOffline(presented, role: role, port: port, taskHandler: taskHandler)
        guard decider.mayFetchMissingIssuers(after: offline, presented: presented, role: role) else { return .decided(offline) }
        return .pending(
            TLSPendingDecision {
                await decider.fetchingMissingIssuers(
                    after: offline, presented: presented, role: role, port: port,
                    taskHandler: taskHandler)
            })
    }

    /// The decision on `peer`, awaited: ``decision(for:role:port:taskHandler:)`` with its pending
    /// work run here. For async verification hooks (Hummingbird's
    /// `customAsyncVerificationCallback`), which run off the event loop already.
    public func outcome(
        for peer: TLSHandshakePeer, role: TLSPeerRole, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) async -> TLSTrustOutcome {
        switch decision(for: peer, role: role, port: port, taskHandler: taskHandler) {
        case let .decided(outcome): return outcome
        case let .pending(pending): return await pending.outcome()
        }
    }

    /// The handshake of `peer` completed: the peer proved it holds its leaf's key, so the chain it
    /// presented is kept for re-verifying its resumed sessions (at most 4,096 leaves, the oldest forgotten first). Call it
    /// only for a full handshake whose outcome was trusted.
    public func handshakeCompleted(_ peer: TrustedPeer) {
        resumedChains.remember(peer.presentedCertificates)
    }
}
