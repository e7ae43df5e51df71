import TrustPinning
import TrustSession

extension TLSTrustFailure {
    /// The `reason` dimension of `swifttrust_tls_decisions_total` (``TLSTrustMetrics``): one fixed
    /// word per case (per pinning judge for `judgeRejected`), never text from the failure (host names, subjects, SANs, rules and errors are
    /// what the peer or the configuration chose, and would make the label set unbounded).
    package var metricReason: String {
        switch self {
        case .noPeerCertificates: return "no_certificates"
        case .malformedPeerCertificate: return "malformed_certificate"
        case .evaluationFailed: return "evaluation_failed"
        case let .judgeRejected(_, failure):
            // TrustPinning's judges by their failure's type; any other judge's under one word.
            switch failure.base {
            case is ServerTrustFailureReason: return "evaluator_rejected"
            case is SecurityPolicyFailure: return "security_policy_rejected"
            default: return "judge_rejected"
            }
        case .challengeCancelled: return "challenge_cancelled"
        case .protectionSpaceRejected: return "protection_space_rejected"
        case .optionsNotEnforced: return "options_not_enforced"
        case .certificateTransparencyNotEnforced: return "certificate_transparency_not_enforced"
        case .verifierMisconfigured: return "verifier_misconfigured"
        case .identityNotAllowed: return "identity_not_allowed"
        case .anchorsUnavailable: return "anchors_unavailable"
        }
    }
}
