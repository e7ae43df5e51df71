/// Every ``ProfileRuleFamily``, in the order their per-certificate checks run (the order in which a
/// certificate's violations are reported), and what the rest of the engine derives from their
/// specifications. A new family is one file here and one line in ``families``.
enum ProfileRuleRegistry {
    /// The families, in check order.
    static let families: [any ProfileRuleFamily.Type] = [
        AppleServerRules.self,
        IssuanceRules.self,
        NameConstraintRules.self,
        ExtensionEncodingRules.self,
        SubjectAltNameRules.self,
        SubscriberRules.self,
        SPIFFERules.self,
        StrictPathRules.self,
    ]

    /// One family's per-certificate check with the rules it may report, so a certificate under a
    /// profile that applies none of them skips the family.
    struct CertificateCheck: Sendable {
        let rules: ProfileRuleSet
        let family: any ProfileRuleFamily.Type
    }

    /// The families with ``ProfileRuleScope/certificate`` rules, in check order.
    static let certificateChecks: [CertificateCheck] = families.compactMap { family in
        let rules = ProfileRuleSet(family.specifications.filter { $0.scope == .certificate }.map(\.rule))
        guard !rules.isEmpty else { return nil }
        return CertificateCheck(rules: rules, family: family)
    }

    /// Every specification, at its rule's declaration index (nil only for a rule no family
    /// specifies, which `ProfileRuleSpecificationTests` refuses).
    static let specificationsByRule: [ProfileRuleSpecification?] = {
        var table = [ProfileRuleSpecification?](repeating: nil, count: ProfileRule.allCases.count)
        for family in families {
            for specification in family.specifications { table[specification.rule.declarationIndex] = specification }
        }
        return table
    }()

    /// The rules whose specification reads `input`.
    static func rules(reading input: ProfileRuleInputs) -> ProfileRuleSet {
        ProfileRuleSet(specificationsByRule.compactMap { $0 }.filter { $0.reads.contains(input) }.map(\.rule))
    }

    /// The rules that exempt self-signed certificates or apply only to them.
    static let rulesReadingSelfSigned = rules(reading: .selfSignedness)
    /// The rules that read how the chain's root is trusted (``AnchorSource``).
    static let anchorSourceRules = rules(reading: .anchorSource)
    /// The rules that enforce a trust anchor's own constraints (RFC 5937 §3).
    static let anchorConstraintRules = rules(reading: .anchorConstraint)
}

extension ProfileRule {
    /// The rule's specification, from its family.
    var specification: ProfileRuleSpecification? { ProfileRuleRegistry.specificationsByRule[declarationIndex] }

    /// The profiles that apply this rule.
    public var profiles: Set<TrustProfile> { specification?.profiles ?? [] }

    /// Where the rule comes from: the RFC or CA/Browser Forum section, or the Apple function.
    public var source: String { specification?.source ?? "" }

    /// One sentence saying what the rule checks (the table in docs/profiles.md).
    public var summary: String { specification?.summary ?? "" }
}
