import SwiftTrust

extension TLSTrustSettings {
    /// The settings `probe` and `serve` verify a peer with: the command line's configuration
    /// (``TrustConfiguration/commandLine(trust:loaded:certificatePolicies:evaluation:revocationDocuments:fetchesMissingIssuers:transparency:)``,
    /// so that a judge that skips evaluation is refused beside any of its options). A missing
    /// intermediate is fetched only when the command says so (`probe --fetch-issuers`), as `verify`
    /// and `chain` do; fetches reach local addresses only with `--fetch-local-addresses`. CT logs
    /// (`probe --ct-logs`) reach the configuration as they do in `verify`.
    static func commandLine(
        trust: TrustInputOptions, inputs: TrustInputs, certificatePolicies: PolicyInputOptions,
        evaluation: EvaluationOptions, localAddresses: LocalAddressOption,
        fetchesMissingIssuers: Bool = false, transparency: CertificateTransparencyInputs = .none
    ) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(
            configuration: .commandLine(
                trust: trust, loaded: inputs, certificatePolicies: certificatePolicies, evaluation: evaluation,
                revocationDocuments: try evaluation.loadRevocationDocuments(), fetchesMissingIssuers: fetchesMissingIssuers,
                transparency: transparency))
        settings.fetchesFromLocalAddresses = localAddresses.fetchLocalAddresses
        return settings
    }
}
