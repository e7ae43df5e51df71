import TrustCrypto
import TrustX509

/// Runs the per-certificate ``ProfileRule``s: those that depend only on the certificate and its
/// position in the chain (``ProfileVerdictCache/Flags``), so their verdict can be remembered. The
/// rules and their checks are in their families (`Sources/TrustCore/ProfileRules/`,
/// ``ProfileRuleRegistry``); rules that read a neighbour are applied by ``PathValidator``.
enum CertificateProfileRules {
    /// The position and option flags the rules below depend on (see ``ProfileVerdictCache``).
    ///
    /// `isSignedByAnotherKey` is asked only for a self-issued last certificate under a rule that
    /// reads self-signedness (``ProfileRuleRegistry/rulesReadingSelfSigned``): the validator answers it with the
    /// evaluation's signature checker and budget, so that check is bounded like every other.
    static func flags(
        of certificate: Certificate, at index: Int, chainCount: Int, isAnchor: Bool,
        rootSource: AnchorSource, options: ValidationRequest,
        isSignedByAnotherKey: (Certificate) throws(BudgetExhausted) -> Bool
    ) throws(BudgetExhausted)
        -> ProfileVerdictCache.Flags
    {
        var flags = ProfileVerdictCache.Flags()
        flags.rules = options.rules
        flags.isLeaf = index == 0
        flags.isAnchor = isAnchor
        flags.isSelfSigned = (isAnchor || index == chainCount - 1) && certificate.isSelfIssued
        if flags.isSelfSigned, readsSelfSignature(of: certificate, rules: options.rules) {
            flags.isSelfSigned = try !isSignedByAnotherKey(certificate)
        }
        flags.serverPurpose = options.purposes.contains(.serverAuth)
        flags.systemAnchored = rootSource == .system
        flags.administratorAnchored = rootSource == .administrator
        flags.allowsCommonNameFallback = options.allowsCommonNameFallback
        flags.allowsLegacyAlgorithms = options.signaturePolicy.allowsLegacyAlgorithms
        flags.minimumRSABits =
            options.signaturePolicy.allowsLegacyAlgorithms
            ? SignaturePolicy.absoluteMinimumRSAModulusBits : options.signaturePolicy.minimumRSAModulusBits
        return flags
    }

    /// Whether a rule in force reads whether `certificate` (self-issued) is really self-signed: one of
    /// ``ProfileRuleRegistry/rulesReadingSelfSigned``, or the SHA-1 rule for a certificate signed with SHA-1 (the only
    /// one it exempts that way), so the common chain spends no signature check on its root.
    static func readsSelfSignature(of certificate: Certificate, rules: ProfileRuleSet) -> Bool {
        if rules.bits & ProfileRuleRegistry.rulesReadingSelfSigned.bits != 0 { return true }
        return rules.contains(.signatureHashAlgorithm) && (try? certificate.signatureAlgorithm())?.isLegacy == true
    }

    /// The violations of `certificate` in the position `flags` describe, family by family in
    /// registry order: a pure function of the certificate and the flags (``ProfileVerdictCache``
    /// relies on that).
    static func violations(of certificate: Certificate, flags: ProfileVerdictCache.Flags) -> [ProfileViolation] {
        let rules = flags.rules
        let subject = ProfileRuleSubject(certificate, flags: flags)
        var report = ProfileViolationReport(rules: rules)
        for check in ProfileRuleRegistry.certificateChecks where rules.bits & check.rules.bits != 0 {
            check.family.checkCertificate(subject, into: &report)
        }
        return report.found
    }
}
