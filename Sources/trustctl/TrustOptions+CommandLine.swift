import SwiftTrust

extension TrustOptions {
    /// The options the trust, certificate-policy and evaluation flags of a command set, in one
    /// value: what every evaluation of the command enforces, whichever judge decides, and what
    /// ``EvaluationOptions/validateEnforceable(trust:certificatePolicies:validatesHost:)`` checks.
    /// (Where missing intermediates come from is the network flags' concern: `IssuerFetchOptions`.)
    static func commandLine(trust: TrustInputOptions, certificatePolicies: PolicyInputOptions, evaluation: EvaluationOptions) -> TrustOptions {
        var options = TrustOptions(profile: trust.profile == .ssl ? nil : trust.profile, revocation: evaluation.revocationOptions)
        options.enforcesAnchorConstraints = trust.enforceAnchorConstraints
        certificatePolicies.apply(to: &options)
        evaluation.apply(to: &options)
        return options
    }
}
