import SwiftTrust

/// The CRLs and OCSP responses `--crl` and `--ocsp-response` name, loaded.
struct RevocationDocuments: Sendable {
    var crls: [CertificateRevocationList] = []
    var ocspResponses: [OCSPResponse] = []

    /// None (a command without those flags).
    static let none = RevocationDocuments()
}

extension TrustOptions {
    /// The options the trust, certificate-policy and evaluation flags of a command set, in one
    /// value: what every evaluation of the command enforces, whichever judge decides, and what
    /// ``EvaluationOptions/validateEnforceable(trust:certificatePolicies:validatesHost:)`` checks.
    /// A command without certificate-policy or evaluation flags (`chain`) passes nil for them.
    static func commandLine(
        trust: TrustInputOptions, certificatePolicies: PolicyInputOptions?,
        evaluation: EvaluationOptions?
    ) -> TrustOptions {
        var options = TrustOptions(profile: trust.profile == .ssl ? nil : trust.profile, revocation: evaluation?.revocationOptions)
        options.enforcesAnchorConstraints = trust.enforceAnchorConstraints
        certificatePolicies?.apply(to: &options)
        evaluation?.apply(to: &options)
        return options
    }
}

extension TrustConfiguration {
    /// The configuration a command's flags stand for, given the files they name loaded (`loaded`,
    /// `revocationDocuments`, `transparency`): the one function every command builds its trusts' configuration with
    /// (`verify`, `chain`, and the settings of `probe` and `serve`). Pure: the same flags and files
    /// give the same value (TrustCtlUnitTests' CommandLineConfigurationTests).
    static func commandLine(
        trust: TrustInputOptions, loaded: TrustInputs, certificatePolicies: PolicyInputOptions?,
        evaluation: EvaluationOptions?, revocationDocuments: RevocationDocuments,
        fetchesMissingIssuers: Bool, transparency: CertificateTransparencyInputs = .none
    ) -> TrustConfiguration {
        var configuration = TrustConfiguration(
            anchors: loaded.anchors, anchorsOnly: !loaded.systemAnchors,
            options: .commandLine(trust: trust, certificatePolicies: certificatePolicies, evaluation: evaluation))
        configuration.additionalIntermediates = loaded.intermediates
        configuration.verifyDate = loaded.verifyDate
        configuration.crls = revocationDocuments.crls
        configuration.ocspResponses = revocationDocuments.ocspResponses
        configuration.certificateTransparencyLogs = transparency.logs
        configuration.signedCertificateTimestamps = transparency.deliveredTimestamps
        // Where a missing intermediate comes from is the network flags' concern (IssuerFetchOptions).
        configuration.options.fetchesMissingIssuers = fetchesMissingIssuers
        return configuration
    }
}
