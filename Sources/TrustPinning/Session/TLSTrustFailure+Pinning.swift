import TrustCore
import TrustSession

extension TLSTrustFailure {
    /// The reason an evaluator gave, when an evaluator (or a ``ServerTrustManager``) rejected the
    /// trust, as a judge (`judgeRejected`) or as a challenge authority (`challengeCancelled`). An
    /// error that is not a ``ServerTrustFailureReason`` (thrown by a custom ``ServerTrustEvaluating``
    /// conformer judging) is wrapped as ``ServerTrustFailureReason/customEvaluationFailed(host:error:)``,
    /// as Alamofire's `SessionDelegate.attemptServerTrustAuthentication` wraps any error that is not
    /// an `AFError`.
    public var serverTrustFailureReason: ServerTrustFailureReason? {
        switch self {
        case let .judgeRejected(_, failure): return failure.base as? ServerTrustFailureReason
        case let .challengeCancelled(_, error?): return error.error as? ServerTrustFailureReason
        default: return nil
        }
    }

    /// Why a ``SecurityPolicy`` rejected the trust, as a judge (`judgeRejected`) or as a challenge
    /// authority (`challengeCancelled`).
    public var securityPolicyFailure: SecurityPolicyFailure? {
        switch self {
        case let .judgeRejected(_, failure): return failure.base as? SecurityPolicyFailure
        case let .challengeCancelled(_, error?): return error.error as? SecurityPolicyFailure
        default: return nil
        }
    }
}

extension ServerTrustFailureReason: TLSTrustJudgeFailure {
    /// The ``summary`` (which names the host already).
    public func summary(forHost host: String) -> String { summary }

    /// The ``description`` (which names the host already).
    public func description(forHost host: String) -> String { description }
}

extension SecurityPolicyFailure: TLSTrustJudgeFailure {
    /// The policy that rejected `host`, and which evaluation failed (without the failures) or the
    /// ``description``.
    public func summary(forHost host: String) -> String {
        switch self {
        case .pinnedAnchorEvaluationFailed where !trustFailures.isEmpty:
            return "security policy rejected \(host): evaluation with the pinned certificates as anchors failed"
        case .evaluationFailed where !trustFailures.isEmpty:
            return "security policy rejected \(host): server trust evaluation failed"
        default:
            return description(forHost: host)
        }
    }

    /// The policy that rejected `host`, then the ``description``.
    public func description(forHost host: String) -> String { "security policy rejected \(host): \(self)" }
}
