import TrustSession

extension TLSTrustFailure {
    /// The `reason` dimension of `swifttrust_tls_decisions_total` (``TLSTrustMetrics``): one fixed
    /// word per case, never text from the failure (host names, subjects, SANs, rules and errors are
    /// what the peer or the configuration chose, and would make the label set unbounded).
    package var metricReason: String {
        switch self {
        case .noPeerCertificates: return "no_certificates"
        case .malformedPeerCertificate: return "malformed_certificate"
        case .evaluationFailed: return "evaluation_failed"
        case .evaluatorRejected: return "evaluator_rejected"
        case .securityPolicyRejected: return "security_policy_rejected"
        case .challengeCancelled: return "challenge_cancelled"
        case .protectionSpaceRejected: return "protection_space_rejected"
        case .optionsNotEnforced: return "options_not_enforced"
        case .verifierMisconfigured: return "verifier_misconfigured"
        case .identityNotAllowed: return "identity_not_allowed"
        case .anchorsUnavailable: return "anchors_unavailable"
        }
    }
}
