import TrustX509

/// What a ``ServerTrust`` holds under its lock: the presented certificates, the policies, the
/// caller's ``TrustConfiguration``, what its fetching evaluations kept, and the last evaluation.
struct ServerTrustState: Sendable {
    var certificates: [Certificate]
    /// The policies; every change re-derives ``preparedPolicies``.
    var policies: [TrustPolicy] { didSet { preparedPolicies = ServerTrust.PreparedPolicies.prepared(policies) } }
    /// What `policies` ask for, derived once per change rather than once per evaluation.
    private(set) var preparedPolicies: ServerTrust.PreparedPolicies
    /// Anchors, intermediates, verify date, options and supplied revocation information.
    var configuration: TrustConfiguration
    /// Verified information the last fetching evaluation kept (bounded by its chain's URLs).
    var fetchedRevocationInputs = RevocationInputs()
    /// Intermediates the last fetching evaluation downloaded from caIssuers URLs (untrusted, like
    /// ``TrustConfiguration/additionalIntermediates``; at most ``VerificationBudget/issuerFetches`` downloads' worth).
    var fetchedIssuers: [FetchedIssuer] = []
    /// The caIssuers URLs the last fetching evaluation asked that gave nothing, and why.
    var issuerFetchFailures: [FetchFailure] = []
    /// ``ServerTrust/revocationFetchesMayReachLocalAddresses``.
    var revocationFetchesMayReachLocalAddresses = false
    var lastEvaluation: TrustEvaluation?
    /// Bumped by every configuration change: an evaluation is recorded as ``lastEvaluation`` only
    /// when the configuration it ran on is still the current one.
    var generation: UInt64 = 0

    init(certificates: [Certificate], policies: [TrustPolicy], configuration: TrustConfiguration) {
        self.certificates = certificates
        self.policies = policies
        self.configuration = configuration
        preparedPolicies = ServerTrust.PreparedPolicies.prepared(policies)
    }
}
