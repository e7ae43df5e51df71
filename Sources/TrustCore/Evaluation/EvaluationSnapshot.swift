import TrustX509

/// What one evaluation reads from a ``ServerTrust``, copied under its lock: the engine's input.
/// (A copy of the whole ``ServerTrustState`` would retain and release every field of it on each
/// evaluation.)
struct EvaluationSnapshot {
    let certificates: [Certificate]
    let policies: ServerTrust.PreparedPolicies
    /// The trust's configuration as this evaluation uses it: its additional intermediates include
    /// those fetched from caIssuers URLs, its revocation inputs the verified fetched information
    /// (empty unless revocation is checked), and a fetching evaluation fixes its verify date once
    /// for all its steps (nil means now).
    var configuration: TrustConfiguration
    /// The profile rules of the policies and of the options together.
    let rules: ProfileRuleSet
    /// The revocation flags of the policies and of the options together; nil when neither asks.
    let revocation: RevocationOptions?
    /// The caIssuers fetches that gave nothing (kept from the last fetching evaluation, or this one's).
    var issuerFetchFailures: [FetchFailure]
    /// Certificate Transparency's inputs, when logs are configured: the delivered SCTs and every
    /// OCSP response (supplied or fetched, whether or not revocation is checked).
    let transparency: CertificateTransparencyCheck?

    /// The options in force (``TrustConfiguration/options``).
    var options: TrustOptions { configuration.options }

    /// What an evaluation of this snapshot enforces: its rules, revocation flags, options and
    /// Certificate Transparency logs (``TrustEvaluation/enforced``).
    var enforced: TrustEvaluation.Enforced {
        TrustEvaluation.Enforced(rules: rules, revocation: revocation, options: options, certificateTransparencyLogs: transparency?.logs)
    }

    init(_ state: borrowing ServerTrustState) {
        certificates = state.certificates
        policies = state.preparedPolicies
        configuration = state.configuration
        if !state.fetchedIssuers.isEmpty {
            configuration.additionalIntermediates += state.fetchedIssuers.map(\.certificate)
        }
        rules = state.configuration.options.rules(adding: state.preparedPolicies.rules)
        revocation = state.configuration.options.revocation(adding: state.preparedPolicies.revocation)
        if revocation != nil {
            let supplied = state.configuration.revocationInputs
            let fetched = state.fetchedRevocationInputs
            configuration.revocationInputs = RevocationInputs(
                documents: supplied.documents + fetched.documents, fetchFailures: fetched.fetchFailures)
        } else if !configuration.revocationInputs.isEmpty {
            configuration.revocationInputs = RevocationInputs()
        }
        issuerFetchFailures = state.issuerFetchFailures
        transparency = state.configuration.certificateTransparencyLogs.map {
            CertificateTransparencyCheck(
                logs: $0, deliveredTimestamps: state.configuration.signedCertificateTimestamps,
                ocspResponses: state.configuration.ocspResponses + state.fetchedRevocationInputs.ocspResponses.map(\.0),
                isSSLServerPolicy: state.preparedPolicies.includesSSLServerPolicy)
        }
    }
}
