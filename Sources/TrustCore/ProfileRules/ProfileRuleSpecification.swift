/// Everything that describes one ``ProfileRule`` apart from its check: which profiles apply it,
/// where it comes from, its sentence in docs/profiles.md, where it is checked and what else it
/// reads. Each rule family (``ProfileRuleFamily``) declares its rules' specifications beside their
/// checks; ``ProfileRuleRegistry`` collects them, so a rule is one entry in one file.
struct ProfileRuleSpecification: Sendable {
    /// The rule described.
    let rule: ProfileRule
    /// The profiles that apply it.
    let profiles: Set<TrustProfile>
    /// The RFC or CA/Browser Forum section, or the Apple function, it comes from.
    let source: String
    /// One sentence saying what it checks (its row in docs/profiles.md).
    let summary: String
    /// Where in an evaluation it is checked.
    let scope: ProfileRuleScope
    /// What beyond the certificate and its position it depends on.
    let reads: ProfileRuleInputs

    init(
        _ rule: ProfileRule, profiles: Set<TrustProfile>, source: String, summary: String,
        scope: ProfileRuleScope, reads: ProfileRuleInputs = []
    ) {
        self.rule = rule
        self.profiles = profiles
        self.source = source
        self.summary = summary
        self.scope = scope
        self.reads = reads
    }
}

/// Where a ``ProfileRule`` is checked.
enum ProfileRuleScope: Sendable, Equatable {
    /// Each certificate alone with its position in the chain: the family's
    /// ``ProfileRuleFamily/checkCertificate(_:into:)``, whose verdicts ``ProfileVerdictCache``
    /// remembers per chain (so the check is a pure function of the certificate and its flags).
    case certificate
    /// A certificate with the one it issued: `PathValidator.checkIssuer(_:at:isAnchor:report:)`
    /// calls the family's function for it.
    case issuer
    /// The rule changes how an RFC 5280 §6.1 step treats the trust anchor or a certificate (it
    /// tightens or relaxes that step in `PathValidator`, and has no check of its own).
    case pathValidationStep
    /// The rule changes which revocation proof `RevocationChecker` requires.
    case revocation
}

/// What a ``ProfileRule`` reads besides the certificate and its position, so the evaluation
/// prepares it only when a rule in force needs it.
struct ProfileRuleInputs: OptionSet, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Whether a self-issued certificate is really self-signed (a signature check on its own key).
    static let selfSignedness = ProfileRuleInputs(rawValue: 1 << 0)
    /// How the chain's root is trusted (``AnchorSource``): Apple scopes the rule by system,
    /// administrator and caller roots, so `TrustEngine` classifies the root.
    static let anchorSource = ProfileRuleInputs(rawValue: 1 << 1)
    /// The rule enforces a trust anchor's own constraints (RFC 5937 §3): turned on by
    /// ``TrustOptions/enforcesAnchorConstraints`` and kept for a CRL signer's path.
    static let anchorConstraint = ProfileRuleInputs(rawValue: 1 << 2)
}
