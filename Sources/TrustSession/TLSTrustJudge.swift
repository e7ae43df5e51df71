import TrustCore

/// Who decides whether a peer's certificates are acceptable, once ``TLSTrustSettings`` have
/// configured the connection's `ServerTrust`.
public enum TLSTrustJudge: Sendable {
    /// A plain evaluation (`SecTrustEvaluateWithError`) under the settings' profile, identity and
    /// revocation policies. The only judge for client certificates (mutual TLS).
    case evaluate
    /// A judge another module supplies: TrustPinning's Alamofire-style evaluators
    /// (`TLSTrustJudge.evaluator(_:)`: `DefaultTrustEvaluator`, the pinning evaluators, a
    /// `CompositeTrustEvaluator`, or a `ServerTrustManager` choosing one per host) and its
    /// AFNetworking-style `SecurityPolicy` (`TLSTrustJudge.securityPolicy(_:)`), or the caller's own.
    case custom(any TLSTrustJudging)
    /// The URLSession challenge flow of AFNetworking and Alamofire: handlers answer a
    /// ``ServerTrustChallenge`` with a disposition (docs/transport.md).
    case challenges(ServerTrustChallengeSession)

    /// Whether this judge, as configured, may accept a peer without evaluating its chain (a
    /// challenge handler is an arbitrary closure: its acceptances are checked when it decides).
    package var acceptsWithoutEvaluating: Bool {
        switch self {
        case .evaluate, .challenges: return false
        case let .custom(judge): return judge.acceptsWithoutEvaluating
        }
    }

    /// The judge's name in errors: the custom judge's (an evaluator's type, `SecurityPolicy`),
    /// `evaluate` or `challenges`.
    var name: String {
        switch self {
        case .evaluate: return "evaluate"
        case let .custom(judge): return judge.name
        case .challenges: return "challenges"
        }
    }

    /// The revocation flags the judge's evaluation would fetch with for `role` (Alamofire's
    /// `RevocationTrustEvaluator`, alone, in a composite, or chosen by a `ServerTrustManager`, as a
    /// judge or a challenge authority); nil when it never fetches.
    func revocationToFetch(for role: TLSPeerRole) -> RevocationOptions? {
        guard let host = role.host else { return nil }
        switch self {
        case let .custom(judge): return judge.revocationToFetch(forHost: host)
        case let .challenges(session):
            guard case let .custom(authority) = session.authority else { return nil }
            return authority.revocationToFetch(forHost: host)
        case .evaluate: return nil
        }
    }

    /// Whether the judge fetches revocation information for some peer.
    var fetchesRevocation: Bool {
        switch self {
        case let .custom(judge): return judge.fetchesRevocation
        case let .challenges(session):
            guard case let .custom(authority) = session.authority else { return false }
            return authority.fetchesRevocation
        case .evaluate: return false
        }
    }

    /// Judges `trust` for `role`; a success carries the trusted evaluation the judge relied on (nil
    /// when it accepted without one).
    func decide(
        _ trust: ServerTrust, role: TLSPeerRole, settings: TLSTrustSettings,
        port: Int?, taskHandler: ServerTrustChallengeHandler?
    ) -> Result<TrustEvaluation?, TLSTrustFailure> {
        switch self {
        case .evaluate:
            // SecTrustEvaluateIfNecessary: the current evaluation (the transport's fetching one) stands.
            let evaluation = trust.lastEvaluation ?? trust.evaluate()
            return evaluation.isTrusted ? .success(evaluation) : .failure(.evaluationFailed(evaluation))
        case let .custom(judge):
            guard let failure = judge.rejection(of: trust, host: role.host, port: port) else { return .success(trust.lastEvaluation) }
            return .failure(.judgeRejected(host: role.host ?? "", failure: AnyTLSTrustJudgeFailure(failure)))
        case let .challenges(session):
            let challenge = ServerTrustChallenge(host: role.host ?? "", port: port, trust: trust)
            return session.answer(challenge, taskHandler: taskHandler, settings: settings)
        }
    }
}
