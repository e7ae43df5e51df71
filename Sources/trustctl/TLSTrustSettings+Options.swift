import SwiftTrust

extension TLSTrustSettings {
    /// The settings `probe` and `serve` verify a peer with: the profile and revocation of the
    /// options, and every trust the verifier makes configured by them (anchors, intermediates,
    /// date, certificate policies, CRLs and OCSP responses, limits), fetching from local addresses
    /// only with `--fetch-local-addresses`.
    static func commandLine(trust: TrustInputOptions, inputs: TrustInputs, certificatePolicies: PolicyInputOptions,
                            evaluation: EvaluationOptions, localAddresses: LocalAddressOption) throws -> TLSTrustSettings {
        let configurePolicies = certificatePolicies.configurator()
        let configureEvaluation = try evaluation.configurator()
        var settings = TLSTrustSettings()
        settings.profile = trust.profile
        settings.revocation = evaluation.revocationOptions
        settings.fetchesFromLocalAddresses = localAddresses.fetchLocalAddresses
        settings.configure = { trust in
            inputs.apply(to: trust)
            configurePolicies(trust)
            configureEvaluation(trust)
        }
        return settings
    }
}
