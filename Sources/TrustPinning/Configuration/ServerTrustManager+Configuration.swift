extension ServerTrustManager {
    /// A manager with one ``ConfiguredPinningTrustEvaluator`` per configured domain, registered
    /// under the host patterns its subdomain coverage stands for (``SubdomainCoverage``), so it
    /// matches with ``HostMatching/hostPatterns`` (case-insensitive, IDNA), never the exact lookup;
    /// the most specific domain covering a host applies, merged with its parent's entry for an ATS
    /// configuration (``PinningConfiguration/PolicySelection``, as ``PinningConfiguration/policy(forHost:)``).
    ///
    /// - Parameters:
    ///   - configuration: The pinning configuration.
    ///   - reporter: Receives the pin-mismatch reports of every domain (docs/pin-reports.md); nil
    ///     sends none.
    ///   - allHostsMustBeEvaluated: Whether hosts no domain covers are rejected. Default false:
    ///     they get ``DefaultTrustEvaluator`` (the trust's own anchors, no pins), as unlisted
    ///     domains do under ATS, Android and TrustKit.
    /// - Throws: ``PinningConfigurationError/duplicateHostPattern(_:normalized:)`` when two
    ///   domains' coverages register the same pattern.
    public init(configuration: PinningConfiguration, reporter: PinningReporter? = nil, allHostsMustBeEvaluated: Bool = false)
        throws(PinningConfigurationError)
    {
        var patterns: [(String, any ServerTrustEvaluating)] = []
        for policy in configuration.domains {
            let evaluator = ConfiguredPinningTrustEvaluator(policy: policy, reporter: reporter)
            let own = configuration.policyForOwnDomain(of: policy)
            if own == policy {
                patterns += policy.hostPatterns.map { ($0, evaluator) }
            } else {
                // ATS: the domain itself gets its entry merged with the parent's (Apple
                // parseNSPinnedDomains); its subdomains get the entry alone (no grandparent).
                patterns.append((policy.domain, ConfiguredPinningTrustEvaluator(policy: own, reporter: reporter)))
                patterns += policy.hostPatterns.filter { $0 != policy.domain }.map { ($0, evaluator) }
            }
        }
        try self.init(allHostsMustBeEvaluated: allHostsMustBeEvaluated, patterns: patterns)
    }
}
