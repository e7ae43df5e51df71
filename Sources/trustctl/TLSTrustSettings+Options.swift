import SwiftTrust

extension TLSTrustSettings {
    /// The settings `probe` and `serve` verify a peer with: every trust option of the flags
    /// (``TrustOptions/commandLine(trust:certificatePolicies:evaluation:)``, so that a judge that
    /// skips evaluation is refused beside any of them), and every trust the verifier makes given the
    /// anchors, intermediates, date, CRLs and OCSP responses. A missing intermediate is fetched
    /// only when the command says so (`probe --fetch-issuers`), as `verify` and `chain` do; fetches
    /// reach local addresses only with `--fetch-local-addresses`.
    static func commandLine(trust: TrustInputOptions, inputs: TrustInputs, certificatePolicies: PolicyInputOptions,
                            evaluation: EvaluationOptions, localAddresses: LocalAddressOption) throws -> TLSTrustSettings {
        let supplyRevocationInputs = try evaluation.configurator()
        var settings = TLSTrustSettings()
        settings.options = .commandLine(trust: trust, certificatePolicies: certificatePolicies, evaluation: evaluation)
        settings.options.fetchesMissingIssuers = false
        settings.fetchesFromLocalAddresses = localAddresses.fetchLocalAddresses
        settings.configure = { trust in
            inputs.apply(to: trust)
            supplyRevocationInputs(trust)
        }
        return settings
    }
}
