import TrustCrypto
import TrustDER
import TrustX509

/// Everything the path validator checks against, derived from a ``ServerTrust``'s policies.
package struct ValidationOptions: Sendable {
    /// The instant validity is checked at.
    package var verifyTime: DERTime
    /// The profile rules applied on top of RFC 5280 path validation (those of every policy's profile).
    package var rules: ProfileRuleSet
    /// The purposes the leaf must allow (checked against extendedKeyUsage); every one is required.
    package var purposes: [KeyPurpose]
    /// The host names, IP addresses or mailboxes the leaf must be valid for; every one is required.
    package var identities: [ServerIdentity]
    /// Which signature algorithms and key sizes are accepted.
    package var signaturePolicy: SignaturePolicy
    /// Key usages the leaf must assert when it has a keyUsage extension (e.g. from a test vector).
    package var requiredLeafKeyUsage: KeyUsage
    /// Mailboxes the leaf must name in rfc822Name subjectAltNames, every one of them.
    package var emailAddresses: [EmailAddress] = []
    /// The public suffixes a wildcard `dNSName` may not span when matching ``identity``.
    package var publicSuffixList: PublicSuffixList = .snapshot
    /// Whether a DNS identity may match the subject common name when the leaf has no SAN (legacy).
    package var allowsCommonNameFallback: Bool
    /// Revocation flags when a `.revocation` policy is in force; nil means no revocation checking.
    package var revocation: RevocationOptions?
    /// RFC 5280 §6.1.1 (c) user-initial-policy-set: the certificate policies acceptable to the
    /// caller (default: anyPolicy, any policy will do).
    package var initialPolicySet: Set<ASN1ObjectIdentifier> = ValidationOptions.anyPolicyOnly
    /// RFC 5280 §6.1.1 (f) initial-explicit-policy: the path must be valid for at least one policy
    /// of ``initialPolicySet``.
    package var initialExplicitPolicy = false
    /// RFC 5280 §6.1.1 (e) initial-policy-mapping-inhibit: policy mappings are not honoured.
    package var initialPolicyMappingInhibit = false
    /// RFC 5280 §6.1.1 (g) initial-any-policy-inhibit: anyPolicy in a certificate matches nothing
    /// (except in self-issued intermediates).
    package var initialAnyPolicyInhibit = false

    /// The default initial policy set, {anyPolicy}, built once: a set literal allocates and hashes
    /// on every use, and every ``ServerTrust`` and every evaluation starts from this one.
    static let anyPolicyOnly: Set<ASN1ObjectIdentifier> = [OID.anyPolicy]

    /// The rules that enforce a trust anchor's own constraints (RFC 5937 §3): validity, basicConstraints
    /// cA and keyCertSign, critical extensions and extendedKeyUsage.
    package static let anchorConstraintRules = ProfileRuleSet([
        .anchorValidity, .anchorIsCA, .anchorProfile, .anchorExtendedKeyUsage,
    ])

    /// The rules that read how the chain's root is trusted (``AnchorSource``): Apple scopes them by
    /// system, administrator and caller roots.
    package static let anchorSourceRules = ProfileRuleSet([
        .strongKeySize, .serverAuthExtendedKeyUsageRequired, .leafValidityPeriod, .systemTrustedLeafValidityPeriod,
        .signatureHashAlgorithm,
    ])

    /// Options for `purposes` and `identities` at `verifyTime` under `profile`.
    package init(
        verifyTime: DERTime,
        profile: TrustProfile = .ssl,
        purposes: [KeyPurpose] = [],
        identities: [ServerIdentity] = [],
        signaturePolicy: SignaturePolicy = .default,
        requiredLeafKeyUsage: KeyUsage = [],
        allowsCommonNameFallback: Bool = false
    ) {
        self.verifyTime = verifyTime
        self.rules = profile.rules
        self.purposes = purposes
        self.identities = identities
        self.signaturePolicy = signaturePolicy
        self.requiredLeafKeyUsage = requiredLeafKeyUsage
        self.allowsCommonNameFallback = allowsCommonNameFallback
    }
}
