extension ProfileRule {
    /// Every rule, in the order of their bits in a ``ProfileRuleSet``: bit *n* of
    /// ``ProfileRuleSet/bits`` is the rule at index *n* here.
    ///
    /// The append-only record of bit positions: a new rule is appended at the end (and to
    /// `Tests/TrustCoreTests/Vocabulary/ProfileRuleBitOrder.txt`, which the tests hold this list to); no
    /// rule moves or leaves, so a set's bits keep their meaning. The enum declares its cases in this
    /// order (`ProfileRuleBitOrderTests`), so a rule's bit is its declaration index: no table to read
    /// on the hot path.
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
        .pathLenConstraintInCAOnly,
    ]

    /// The rule's bit in a ``ProfileRuleSet``: `1 << n` for the rule at index *n* of ``bitOrder``,
    /// which is its declaration index.
    var bit: UInt64 { UInt64(1) << UInt64(declarationIndex) }

    /// The case's index in declaration order, in O(1) (`ProfileRuleSet.contains` asks on every
    /// check, so no search and no hashing of the `String` raw value): a case of an enum without
    /// payloads is stored as its declaration index (Swift's type layout, docs/ABI/TypeLayout.rst).
    /// `ProfileRuleBitOrderTests` checks it against `allCases`.
    var declarationIndex: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
