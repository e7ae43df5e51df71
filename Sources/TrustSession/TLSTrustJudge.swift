import TrustCore
import TrustPinning

/// Who decides whether a peer's certificates are acceptable, once ``TLSTrustSettings`` have
/// configured the connection's `ServerTrust`.
public enum TLSTrustJudge: Sendable {
    /// A plain evaluation (`SecTrustEvaluateWithError`) under the settings' profile, identity and
    /// revocation policies. The only judge for client certificates (mutual TLS).
    case evaluate
    /// An Alamofire-style evaluator: `DefaultTrustEvaluator`, the pinning evaluators, a
    /// `CompositeTrustEvaluator`, or a `ServerTrustManager` choosing one per host.
    case evaluator(any ServerTrustEvaluating)
    /// An AFNetworking-style `SecurityPolicy` (`-evaluateServerTrust:forDomain:`).
    case securityPolicy(SecurityPolicy)
    /// The URLSession challenge flow of AFNetworking and Alamofire: handlers answer a
    /// ``ServerTrustChallenge`` with a disposition (docs/transport.md).
    case challenges(ServerTrustChallengeSession)

    /// Whether this judge, as configured, may accept a peer without evaluating its chain (a
    /// challenge handler is an arbitrary closure: its acceptances are checked when it decides).
    package var acceptsWithoutEvaluating: Bool {
        switch self {
        case .evaluate, .challenges: return false
        case let .evaluator(evaluator): return evaluator.acceptsWithoutEvaluating
        case let .securityPolicy(policy): return policy.acceptsWithoutEvaluating
        }
    }

    /// The judge's name in errors: the evaluator's type, `SecurityPolicy`, `evaluate` or `challenges`.
    var name: String {
        switch self {
        case .evaluate: return "evaluate"
        case let .evaluator(evaluator): return evaluator.evaluatorName
        case .securityPolicy: return "SecurityPolicy"
        case .challenges: return "challenges"
        }
    }

    /// The revocation flags the judge's evaluation would fetch with for `role` (Alamofire's
    /// `RevocationTrustEvaluator`, alone, in a composite, or chosen by a `ServerTrustManager`); nil
    /// when it never fetches.
    func revocationToFetch(for role: TLSPeerRole) -> RevocationOptions? {
        guard let host = role.host else { return nil }
        switch self {
        case let .evaluator(evaluator): return evaluator.revocationToFetch(forHost: host)
        case let .challenges(session):
            guard case let .serverTrustManager(manager) = session.authority else { return nil }
            return manager.revocationToFetch(forHost: host)
        case .evaluate, .securityPolicy: return nil
        }
    }

    /// Whether the judge fetches revocation information for some peer.
    var fetchesRevocation: Bool {
        switch self {
        case let .evaluator(evaluator): return evaluator.fetchesRevocation
        case let .challenges(session):
            guard case let .serverTrustManager(manager) = session.authority else { return false }
            return manager.fetchesRevocation
        case .evaluate, .securityPolicy: return false
        }
    }

    /// Judges `trust` for `role`; a success carries the trusted evaluation the judge relied on (nil
    /// when it accepted without one).
    func decide(_ trust: ServerTrust, role: TLSPeerRole, settings: TLSTrustSettings,
                port: Int?, taskHandler: ServerTrustChallengeHandler?) -> Result<TrustEvaluation?, TLSTrustFailure> {
        switch self {
        case .evaluate:
            // SecTrustEvaluateIfNecessary: the current evaluation (the transport's fetching one) stands.
            let evaluation = trust.lastEvaluation ?? trust.evaluate()
            return evaluation.isTrusted ? .success(evaluation) : .failure(.evaluationFailed(evaluation))
        case let .evaluator(evaluator):
            let host = role.host ?? ""
            do {
                try evaluator.evaluate(trust, forHost: host, port: port)
                return .success(trust.lastEvaluation)
            } catch {
                return .failure(.evaluatorRejected(host: host, error: ComparableError(error)))
            }
        case let .securityPolicy(policy):
            let host = role.host ?? ""
            do throws(SecurityPolicyFailure) {
                try policy.evaluateWithError(trust, forDomain: role.host)
                return .success(trust.lastEvaluation)
            } catch {
                return .failure(.securityPolicyRejected(host: host, failure: error))
            }
        case let .challenges(session):
            let challenge = ServerTrustChallenge(host: role.host ?? "", port: port, trust: trust)
            return session.answer(challenge, taskHandler: taskHandler, settings: settings)
        }
    }
}
