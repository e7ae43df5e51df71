import TrustCrypto
import TrustDER
import TrustX509

extension TrustOptions {
    /// Whether these options demand something a judge that accepts without evaluating would drop:
    /// any setting that changes what an evaluation accepts and differs from its default (profile,
    /// revocation, maximum depth, signature policy, leaf key usage, SPKI pins, common-name fallback, anchor
    /// constraints, the RFC 5280 §6.1.1 policy inputs, the public suffix list).
    ///
    /// The ``budget`` and ``fetchesMissingIssuers`` do not count: they bound the work done and the
    /// downloads made, and a judge that does no work and downloads nothing stays within them.
    public var requiresEvaluation: Bool { EvaluatedSetting.allCases.contains { $0.differsFromDefault(in: self) } }

    /// `profile webpki, revocation [...], maximum depth 0, ...`: every setting that ``requiresEvaluation``
    /// counts, for error messages and logs; `no options` when none differs from its default.
    public var summary: String {
        let parts = EvaluatedSetting.allCases.filter { $0.differsFromDefault(in: self) }.map { $0.describe(self) }
        return parts.isEmpty ? "no options" : parts.joined(separator: ", ")
    }

    /// Whether `evaluated` (the options an evaluation ran with) applied every setting of these
    /// options besides the profile and revocation, which ``TrustEvaluation/Enforced`` compares as
    /// rules and flags: the same value, since an evaluation reads them from its trust as they are.
    package func settingsApplied(by evaluated: TrustOptions) -> Bool {
        EvaluatedSetting.allCases.allSatisfy { setting in
            setting == .profile || setting == .revocation || setting.value(in: self) == setting.value(in: evaluated)
        }
    }
}

/// One ``TrustOptions`` setting that changes what an evaluation accepts.
private enum EvaluatedSetting: CaseIterable {
    case profile, revocation, maximumDepth, signaturePolicy, requiredLeafKeyUsage, leafSPKISHA256, caSPKISHA256
    case commonNameFallback, anchorConstraints
    case initialPolicySet, initialExplicitPolicy, initialPolicyMappingInhibit, initialAnyPolicyInhibit, publicSuffixList

    private static let defaults = TrustOptions()

    func differsFromDefault(in options: TrustOptions) -> Bool { value(in: options) != value(in: Self.defaults) }

    /// The setting's value, comparable across options.
    func value(in options: TrustOptions) -> AnyHashable {
        switch self {
        case .profile: return AnyHashable(options.profile)
        case .revocation: return AnyHashable(options.revocation)
        case .maximumDepth: return AnyHashable(options.maximumDepth)
        case .signaturePolicy: return AnyHashable(options.signaturePolicy)
        case .requiredLeafKeyUsage: return AnyHashable(options.requiredLeafKeyUsage)
        case .leafSPKISHA256: return AnyHashable(options.leafSPKISHA256)
        case .caSPKISHA256: return AnyHashable(options.caSPKISHA256)
        case .commonNameFallback: return AnyHashable(options.allowsCommonNameFallback)
        case .anchorConstraints: return AnyHashable(options.enforcesAnchorConstraints)
        case .initialPolicySet: return AnyHashable(options.initialPolicySet)
        case .initialExplicitPolicy: return AnyHashable(options.initialExplicitPolicy)
        case .initialPolicyMappingInhibit: return AnyHashable(options.initialPolicyMappingInhibit)
        case .initialAnyPolicyInhibit: return AnyHashable(options.initialAnyPolicyInhibit)
        case .publicSuffixList: return AnyHashable(options.publicSuffixList)
        }
    }

    /// The setting as ``TrustOptions/summary`` words it.
    func describe(_ options: TrustOptions) -> String {
        switch self {
        case .profile: return "profile \(options.profile.map { "\($0)" } ?? "none")"
        case .revocation: return "revocation \(options.revocation.map { "\($0)" } ?? "none")"
        case .maximumDepth: return "maximum depth \(options.maximumDepth)"
        case .signaturePolicy:
            let policy = options.signaturePolicy
            return "signature policy (legacy algorithms \(policy.legacyAlgorithms), strong RSA keys from \(policy.minimumRSAModulusBits) bits)"
        case .requiredLeafKeyUsage: return "required leaf key usage \(options.requiredLeafKeyUsage)"
        case .leafSPKISHA256: return "leaf SPKI SHA-256 pins (\(options.leafSPKISHA256?.count ?? 0))"
        case .caSPKISHA256: return "CA SPKI SHA-256 pins (\(options.caSPKISHA256?.count ?? 0))"
        case .commonNameFallback: return "common-name fallback \(options.allowsCommonNameFallback ? "on" : "off")"
        case .anchorConstraints: return "anchor constraints \(options.enforcesAnchorConstraints ? "enforced" : "not enforced") (RFC 5937)"
        case .initialPolicySet: return "acceptable policies \(options.initialPolicySet.map(\.dotted).sorted().joined(separator: " "))"
        case .initialExplicitPolicy: return "initial-explicit-policy \(options.initialExplicitPolicy) (RFC 5280 §6.1.1 (f))"
        case .initialPolicyMappingInhibit:
            return "initial-policy-mapping-inhibit \(options.initialPolicyMappingInhibit) (RFC 5280 §6.1.1 (e))"
        case .initialAnyPolicyInhibit: return "initial-any-policy-inhibit \(options.initialAnyPolicyInhibit) (RFC 5280 §6.1.1 (g))"
        case .publicSuffixList: return "a public suffix list other than the shipped snapshot"
        }
    }
}
