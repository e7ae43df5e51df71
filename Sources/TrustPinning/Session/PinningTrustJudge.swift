import TrustCore
import TrustSession

/// This module's judges of a TLS server for TrustSession (`TLSTrustJudge.evaluator(_:)` and
/// `TLSTrustJudge.securityPolicy(_:)` make them): an Alamofire-style evaluator, or an
/// AFNetworking-style ``SecurityPolicy``, deciding on the `ServerTrust` the settings configured.
///
/// A rejection is typed: a ``ServerTrustFailureReason`` from an evaluator (an error of another type,
/// thrown by a custom ``ServerTrustEvaluating`` conformer, wrapped as
/// ``ServerTrustFailureReason/customEvaluationFailed(host:error:)``, as Alamofire's
/// `SessionDelegate.attemptServerTrustAuthentication` wraps any error that is not an `AFError`), a
/// ``SecurityPolicyFailure`` from a policy. `TLSTrustFailure.serverTrustFailureReason`
/// and `TLSTrustFailure.securityPolicyFailure` read them back.
public enum PinningTrustJudge: TLSTrustJudging {
    /// An Alamofire-style evaluator: ``DefaultTrustEvaluator``, the pinning evaluators, a
    /// ``CompositeTrustEvaluator``, or a ``ServerTrustManager`` choosing one per host.
    case evaluator(any ServerTrustEvaluating)
    /// An AFNetworking-style ``SecurityPolicy`` (`-evaluateServerTrust:forDomain:`).
    case securityPolicy(SecurityPolicy)

    /// The evaluator's type, or `SecurityPolicy`.
    public var name: String {
        switch self {
        case let .evaluator(evaluator): return evaluator.evaluatorName
        case .securityPolicy: return "SecurityPolicy"
        }
    }

    /// Whether the evaluator or policy, as configured, may accept a trust without evaluating it
    /// (``DisabledTrustEvaluator``, validation turned off, `allowInvalidCertificates`).
    public var acceptsWithoutEvaluating: Bool {
        switch self {
        case let .evaluator(evaluator): return evaluator.acceptsWithoutEvaluating
        case let .securityPolicy(policy): return policy.acceptsWithoutEvaluating
        }
    }

    /// Whether the evaluator fetches revocation information for some host (a
    /// ``RevocationTrustEvaluator``, alone, in a composite, or chosen by a ``ServerTrustManager``).
    public var fetchesRevocation: Bool { evaluator?.fetchesRevocation ?? false }

    /// The revocation flags the evaluator's evaluation of a trust for `host` would fetch with.
    public func revocationToFetch(forHost host: String) -> RevocationOptions? { evaluator?.revocationToFetch(forHost: host) }

    /// The evaluator, when there is one (a security policy never fetches).
    private var evaluator: (any ServerTrustEvaluating)? {
        guard case let .evaluator(evaluator) = self else { return nil }
        return evaluator
    }

    /// Evaluates `trust` for `host` (the empty host when nil, for an evaluator) and `port`: nil
    /// when the evaluator returns or the policy accepts, else the typed reason.
    public func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? {
        switch self {
        case let .evaluator(evaluator):
            let host = host ?? ""
            do {
                try evaluator.evaluate(trust, forHost: host, port: port)
                return nil
            } catch let reason as ServerTrustFailureReason {
                return reason
            } catch {
                return ServerTrustFailureReason.customEvaluationFailed(host: host, error: ComparableError(error))
            }
        case let .securityPolicy(policy):
            do throws(SecurityPolicyFailure) {
                try policy.evaluateWithError(trust, forDomain: host)
                return nil
            } catch {
                return error
            }
        }
    }
}

extension TLSTrustJudge {
    /// An Alamofire-style evaluator judges: ``DefaultTrustEvaluator``, the pinning evaluators, a
    /// ``CompositeTrustEvaluator``, or a ``ServerTrustManager`` choosing one per host. A rejection is
    /// `TLSTrustFailure.judgeRejected(host:failure:)` with a ``ServerTrustFailureReason``
    /// (`TLSTrustFailure.serverTrustFailureReason`).
    public static func evaluator(_ evaluator: any ServerTrustEvaluating) -> TLSTrustJudge {
        .custom(PinningTrustJudge.evaluator(evaluator))
    }

    /// An AFNetworking-style ``SecurityPolicy`` judges (`-evaluateServerTrust:forDomain:`). A
    /// rejection is `TLSTrustFailure.judgeRejected(host:failure:)` with a ``SecurityPolicyFailure``
    /// (`TLSTrustFailure.securityPolicyFailure`).
    public static func securityPolicy(_ policy: SecurityPolicy) -> TLSTrustJudge {
        .custom(PinningTrustJudge.securityPolicy(policy))
    }
}
