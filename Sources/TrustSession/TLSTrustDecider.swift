import TrustCore
import TrustX509

/// Decides whether to trust a TLS peer, independently of any transport: builds each connection's
/// `ServerTrust` from ``TLSTrustSettings``, fetches revocation information first when the settings
/// ask for it, lets the ``TLSTrustJudge`` decide, and accepts only on an evaluation that enforced
/// the settings' options (``TLSTrustSettings/trustOptions``), whatever the judge did.
///
/// Transport adapters do not call it directly: ``TLSHandshakeDecider`` is their one entry point,
/// which chooses between the offline decision, the fetching one and a missing intermediate's
/// download, and re-verifies resumed sessions.
public struct TLSTrustDecider: Sendable {
    /// How each connection's trust is configured.
    public let settings: TLSTrustSettings
    /// Who decides.
    public let judge: TLSTrustJudge

    /// Creates a decider, refusing a judge that cannot enforce the settings.
    ///
    /// - Throws: ``TLSTrustConfigurationError/judgeSkipsEvaluation(judge:options:)`` when `judge`
    ///   accepts without evaluating while `settings` ask for a profile or revocation checking,
    ///   ``TLSTrustConfigurationError/identityRuleNeedsEvaluation(judge:)`` when such a judge meets
    ///   a ``TLSTrustSettings/requiredIdentity``, and
    ///   ``TLSTrustConfigurationError/anchorsAndAnchorProvider`` when both anchor settings are set.
    public init(settings: TLSTrustSettings = TLSTrustSettings(), judge: TLSTrustJudge = .evaluate) throws(TLSTrustConfigurationError) {
        let options = settings.trustOptions
        if judge.acceptsWithoutEvaluating {
            if options.requiresEvaluation { throw .judgeSkipsEvaluation(judge: judge.name, options: options) }
            if settings.configuration.requiresCertificateTransparencyEvaluation {
                throw .judgeSkipsCertificateTransparency(judge: judge.name)
            }
        }
        // An identity is only as good as the chain that vouches for it.
        if settings.requiredIdentity != nil, judge.acceptsWithoutEvaluating {
            throw .identityRuleNeedsEvaluation(judge: judge.name)
        }
        if settings.anchors != nil, settings.anchorProvider != nil { throw .anchorsAndAnchorProvider }
        self.settings = settings
        self.judge = judge
    }

    /// A decider whose settings were already checked (``forHandshake(presented:)``).
    private init(checked settings: TLSTrustSettings, judge: TLSTrustJudge) {
        self.settings = settings
        self.judge = judge
    }

    /// This decider for one handshake of a peer that presented `presented`: the settings'
    /// ``TLSTrustSettings/anchorProvider`` read once and its anchors fixed, so the offline decision,
    /// the fetching one and a missing issuer's retry all use one set. A rejection when the provider
    /// has none for this peer.
    package func forHandshake(presented: [Certificate]) -> Result<TLSTrustDecider, TLSTrustFailure> {
        guard settings.anchorProvider != nil else { return .success(self) }
        return settings.forHandshake(leaf: presented.first).map { TLSTrustDecider(checked: $0, judge: judge) }
    }

    /// Refuses what cannot verify a peer in `role`. A client (mutual TLS) is judged by a plain
    /// evaluation only (the evaluators, security policies and challenges judge a server for a host),
    /// against explicit anchors unless the settings say ``TLSTrustSettings/systemStoreTrustsClients``.
    /// Every decision checks it (a misconfigured client-role decision rejects every peer); entry
    /// points that know the role when they are configured call it first and throw.
    ///
    /// - Throws: ``TLSTrustConfigurationError/clientCertificatesNeedPlainEvaluation`` or
    ///   ``TLSTrustConfigurationError/clientAnchorsNotExplicit``.
    public func checkRole(_ role: TLSPeerRole) throws(TLSTrustConfigurationError) {
        guard case .client = role else { return }
        guard case .evaluate = judge else { throw .clientCertificatesNeedPlainEvaluation }
        if !settings.systemStoreTrustsClients, !settings.hasExplicitAnchors || !settings.anchorsOnly {
            throw .clientAnchorsNotExplicit
        }
    }

    /// Whether a decision may use the network (revocation fetching), and so must not run where
    /// waiting is forbidden (an event loop).
    public var mayUseNetwork: Bool { settings.mayFetchRevocation || judgeFetches }

    /// Whether the judge's own fetching is allowed: settings that disable network access win.
    private var judgeFetches: Bool {
        judge.fetchesRevocation && settings.revocation?.contains(.networkAccessDisabled) != true
    }

    /// The decision on `presented` (leaf first), fetching revocation information first when the
    /// settings ask for it, for at most ``TLSTrustSettings/revocationFetchDeadline``. Cancelling the
    /// calling task (the connection went away) stops the fetching at once; the decision then rests
    /// on what was fetched, as at the deadline.
    package func decide(
        _ presented: [Certificate], role: TLSPeerRole, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) async -> TLSTrustOutcome {
        do { try checkRole(role) } catch { return .rejected(.verifierMisconfigured(error)) }
        guard !presented.isEmpty else { return .rejected(.noPeerCertificates) }
        if settings.anchorProvider != nil {
            switch forHandshake(presented: presented) {
            case let .success(decider): return await decider.decide(presented, role: role, port: port, taskHandler: taskHandler)
            case let .failure(failure): return .rejected(failure)
            }
        }
        let trust = settings.makeTrust(presented: presented, role: role)
        // A judge whose Apple counterpart fetches (Alamofire's RevocationTrustEvaluator) adds its flags to
        // the settings' (a `.revocation` policy for the fetch only: the judge sets the policies itself).
        let wanted = judgeFetches ? judge.revocationToFetch(for: role) : nil
        if settings.mayFetchRevocation || wanted != nil {
            // Fetching keeps what verified on the trust; the judge's own evaluations then use it
            // (evaluators never fetch by themselves). The fetch validates under the settings' anchors:
            // a judge that trusts other anchors (a pinned self-signed certificate) gets nothing fetched.
            let policies = trust.policies
            if let wanted { trust.policies = policies + [.revocation(wanted)] }
            _ = await trust.evaluate(fetching: settings.revocationFetching, within: settings.revocationFetchDeadline)
            if wanted != nil { trust.policies = policies }
            return decide(trust, presented: presented, role: role, port: port, taskHandler: taskHandler)
        }
        let offline = decide(trust, presented: presented, role: role, port: port, taskHandler: taskHandler)
        return await fetchingMissingIssuers(after: offline, presented: presented, role: role, port: port, taskHandler: taskHandler)
    }

    /// The decision after `offline` (the offline decision on `presented`), when the peer left out an
    /// intermediate: fetched from its caIssuers URL, as Apple does, on a fresh trust under the
    /// settings (the judge may have reconfigured the first), which the judge then decides with it.
    /// `offline` itself when ``mayFetchMissingIssuers(after:presented:role:)`` says no fetch could
    /// change it, or when nothing was fetched. A transport that decided offline on an event loop
    /// calls this off it, so the offline decision is not made twice.
    package func fetchingMissingIssuers(
        after offline: TLSTrustOutcome, presented: [Certificate], role: TLSPeerRole,
        port: Int? = nil, taskHandler: ServerTrustChallengeHandler? = nil
    ) async -> TLSTrustOutcome {
        guard mayFetchMissingIssuers(after: offline, presented: presented, role: role) else { return offline }
        // TLSHandshakeDecider calls this on the handshake's decider (anchors fixed, nothing re-read);
        // another caller's provider is read here.
        guard case let .success(handshake) = forHandshake(presented: presented) else { return offline }
        let settings = handshake.settings
        let retry = settings.makeTrust(presented: presented, role: role)
        _ = await retry.evaluate(fetching: settings.revocationFetching, within: settings.revocationFetchDeadline)
        guard !retry.fetchedIssuers.isEmpty else { return offline }
        return handshake.decide(retry, presented: presented, role: role, port: port, taskHandler: taskHandler)
    }

    /// Whether an offline decision's rejection of `presented` could turn with the network: a server
    /// peer (clients' caIssuers URLs are never fetched: an unauthenticated client would choose what
    /// the server requests), a missing issuer, a presented certificate naming an `http://` caIssuers
    /// URL, and settings that let evaluations fetch missing issuers (`TrustOptions.fetchesMissingIssuers`,
    /// the default). A transport that decided offline (on an event loop) then goes on with
    /// ``fetchingMissingIssuers(after:presented:role:port:taskHandler:)`` off it.
    package func mayFetchMissingIssuers(after outcome: TLSTrustOutcome, presented: [Certificate], role: TLSPeerRole) -> Bool {
        guard case .server = role, case let .rejected(failure) = outcome, settings.options.fetchesMissingIssuers,
            settings.revocation?.contains(.networkAccessDisabled) != true,
            IssuerFetching.lacksIssuer(failure.trustFailures)
        else { return false }
        return presented.contains { !IssuerFetching.fetchableURLs(of: $0).isEmpty }
    }

    /// The decision on `presented` (leaf first) without the network: no revocation fetching
    /// (with ``mayUseNetwork`` false, the same decision as ``decide(_:role:port:taskHandler:)``).
    package func decideOffline(
        _ presented: [Certificate], role: TLSPeerRole, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) -> TLSTrustOutcome {
        do { try checkRole(role) } catch { return .rejected(.verifierMisconfigured(error)) }
        guard !presented.isEmpty else { return .rejected(.noPeerCertificates) }
        if settings.anchorProvider != nil {
            switch forHandshake(presented: presented) {
            case let .success(decider): return decider.decideOffline(presented, role: role, port: port, taskHandler: taskHandler)
            case let .failure(failure): return .rejected(failure)
            }
        }
        let trust = settings.makeTrust(presented: presented, role: role)
        return decide(trust, presented: presented, role: role, port: port, taskHandler: taskHandler)
    }

    private func decide(
        _ trust: ServerTrust, presented: [Certificate], role: TLSPeerRole, port: Int?,
        taskHandler: ServerTrustChallengeHandler?
    ) -> TLSTrustOutcome {
        // What the settings (and their `configure` closure) asked every evaluation to enforce.
        let required = trust.configuration
        switch judge.decide(trust, role: role, settings: settings, port: port, taskHandler: taskHandler) {
        case var .success(evaluation):
            if required.requiresEvaluation {
                switch Self.enforcing(required, on: trust, accepted: evaluation) {
                case let .success(enforced): evaluation = enforced
                case let .failure(failed):
                    let host = role.host ?? ""
                    if failed.missedOptions {
                        return .rejected(.optionsNotEnforced(host: host, options: required.options, evaluation: failed.evaluation))
                    }
                    return .rejected(.certificateTransparencyNotEnforced(host: host, evaluation: failed.evaluation))
                }
            }
            if let rule = settings.requiredIdentity {
                // Checked on the leaf of the chain that validated, never on an unverified one.
                guard let verified = Self.trustedEvaluation(evaluation, of: trust) else {
                    return .rejected(.identityNotAllowed(rule))
                }
                if let refused = rule.refusal(of: verified.chain[0]) { return .rejected(.identityNotAllowed(refused)) }
                evaluation = verified
            }
            guard let peer = TrustedPeer(role: role, presented: presented, evaluation: evaluation, pathBuilds: trust.pathBuildCount) else {
                return .rejected(.noPeerCertificates)
            }
            return .trusted(peer)
        case let .failure(failure):
            return .rejected(failure)
        }
    }

    /// The trusted evaluation an accepted peer's identity is read from: the judge's own, else the
    /// trust's last (or a fresh) evaluation when it trusted a non-empty chain; nil otherwise.
    static func trustedEvaluation(_ accepted: TrustEvaluation?, of trust: ServerTrust) -> TrustEvaluation? {
        if let accepted, accepted.isTrusted, !accepted.chain.isEmpty { return accepted }
        let evaluation = trust.lastEvaluation ?? trust.evaluate()
        return evaluation.isTrusted && !evaluation.chain.isEmpty ? evaluation : nil
    }

    /// The evaluation an acceptance rests on when `required` options must be enforced: the judge's
    /// own when it trusted the chain under them; else one evaluation of `trust` as the judge left it
    /// (a custom evaluator or challenge handler that accepted without evaluating). A failure carries
    /// that evaluation (nil when the judge removed the options from the trust).
    static func enforcing(
        _ required: TrustConfiguration, on trust: ServerTrust,
        accepted evaluation: TrustEvaluation?
    ) -> Result<TrustEvaluation, FailedEnforcement> {
        if let evaluation, evaluation.isTrusted(enforcing: required) { return .success(evaluation) }
        let evaluation = trust.lastEvaluation ?? trust.evaluate()
        guard evaluation.enforced.covers(required.options) else {
            return .failure(FailedEnforcement(evaluation: nil, missedOptions: true))
        }
        guard evaluation.enforced.coversCertificateTransparency(of: required) else {
            return .failure(FailedEnforcement(evaluation: nil, missedOptions: false))
        }
        let missedOptions = required.options.requiresEvaluation
        return evaluation.isTrusted ? .success(evaluation) : .failure(FailedEnforcement(evaluation: evaluation, missedOptions: missedOptions))
    }

    /// Why ``enforcing(_:on:accepted:)`` refused an acceptance: the evaluation under the
    /// configuration that did not trust the chain, or nil when the judge had removed what it
    /// required from the trust; `missedOptions` when the options (not only the Certificate
    /// Transparency logs) are what the acceptance lacked.
    struct FailedEnforcement: Error {
        let evaluation: TrustEvaluation?
        let missedOptions: Bool
    }
}
