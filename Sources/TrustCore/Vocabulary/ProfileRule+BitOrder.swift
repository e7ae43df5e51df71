extension ProfileRule {
    /// Every rule, in the order of their bits in a ``ProfileRuleSet``: bit *n* of
    /// ``ProfileRuleSet/bits`` is the rule at index *n* here.
    ///
    /// The append-only record of bit positions: a new rule is appended at the end (and to
    /// `Tests/TrustCoreTests/ProfileRuleBitOrder.txt`, which the tests hold this list to); no
    /// rule moves or leaves, so a set's bits keep their meaning. The enum may declare its cases in any
    /// order: only this list numbers them.
    static let bitOrder: [ProfileRule] = [
        .keyIdentifierLinkage,
        .nonEmptySubject,
        .weakKeySize,
        .strongKeySize,
        .serverAuthExtendedKeyUsageRequired,
        .leafValidityPeriod,
        .systemTrustedLeafValidityPeriod,
        .issuerExtendedKeyUsage,
        .anchorValidity,
        .anchorIsCA,
        .serialNumber,
        .issuerNonEmpty,
        .authorityKeyIdentifier,
        .subjectKeyIdentifier,
        .basicConstraintsCritical,
        .keyUsageConsistency,
        .caSubjectNonEmpty,
        .nameConstraintsInCAOnly,
        .nameConstraintsCritical,
        .policyConstraintsCritical,
        .authorityInfoAccessNonCritical,
        .subjectAltNameCriticality,
        .subjectAltNameSyntax,
        .anchorProfile,
        .version3,
        .rootAuthorityKeyIdentifier,
        .leafSubjectAltNameRequired,
        .leafExtendedKeyUsage,
        .anchorExtendedKeyUsage,
        .rootWithoutExtendedKeyUsage,
        .keyAlgorithm,
        .caCertificateAsLeaf,
        .signatureHashAlgorithm,
        .version1IssuersOnlyAsAnchors,
        .criticalExtensionsProcessed,
        .revocationProofForEveryCertificate,
        .derDefaultOmitted,
        .nameConstraintsDNSNameSyntax,
        .nameConstraintsFormsSupported,
        .extendedKeyUsagePurposeListed,
        .svidSingleURI,
        .svidSPIFFEID,
        .svidLeafNotCA,
        .svidLeafDigitalSignature,
        .svidLeafNotSigner,
        .svidSigningCertificateKeyUsage,
    ]

    /// The rule's bit in a ``ProfileRuleSet``, read from a table built once.
    var bit: UInt64 { ProfileRule.bits[declarationIndex] }

    /// The case's index in declaration order, in O(1) (`ProfileRuleSet.contains` asks on every
    /// check, so no search and no hashing of the `String` raw value): a case of an enum without
    /// payloads is stored as its declaration index (Swift's type layout, docs/ABI/TypeLayout.rst).
    /// `ProfileRuleBitOrderTests` checks it against `allCases`.
    var declarationIndex: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    /// Each rule's bit, by declaration index: `1 << n` for the rule at index *n* of ``bitOrder``.
    /// A rule missing from the list, or beyond its 64th entry, would have none (the tests refuse both).
    private static let bits: [UInt64] = {
        var table = [UInt64](repeating: 0, count: allCases.count)
        for (position, rule) in bitOrder.enumerated() where position < 64 {
            table[rule.declarationIndex] = UInt64(1) << UInt64(position)
        }
        return table
    }()
}
