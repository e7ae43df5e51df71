extension TrustConfiguration {
    /// Whether this configuration demands something a judge that accepts without evaluating would
    /// drop: a setting of its ``TrustOptions`` that ``TrustOptions/requiresEvaluation`` counts, or
    /// Certificate Transparency logs (``certificateTransparencyLogs``), which only the evaluation
    /// enforces (trustd's SecPolicyCheckCT runs on the validated path).
    ///
    /// Transports, evaluators and security policies refuse a judge that accepts without evaluating
    /// beside such a configuration, instead of dropping what it asks for.
    public var requiresEvaluation: Bool { options.requiresEvaluation || requiresCertificateTransparencyEvaluation }

    /// Whether Certificate Transparency logs are configured, so that an acceptance must rest on an
    /// evaluation that applied them.
    public var requiresCertificateTransparencyEvaluation: Bool { certificateTransparencyLogs != nil }
}
