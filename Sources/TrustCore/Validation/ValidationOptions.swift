import TrustCrypto
import TrustDER
import TrustX509

/// Everything the path validator checks against, derived from a ``ServerTrust``'s policies.
public struct ValidationOptions: Sendable {
    /// The instant validity is checked at.
    public var verifyTime: DERTime
    /// The profile rules applied on top of RFC 5280 path validation (those of every policy's profile).
    public var rules: ProfileRuleSet
    /// The purposes the leaf must allow (checked against extendedKeyUsage); every one is required.
    public var purposes: [KeyPurpose]
    /// The host names, IP addresses or mailboxes the leaf must be valid for; every one is required.
    public var identities: [ServerIdentity]
    /// Which signature algorithms and key sizes are accepted.
    public var signaturePolicy: SignaturePolicy
    /// Key usages the leaf must assert when it has a keyUsage extension (e.g. from a test vector).
    public var requiredLeafKeyUsage: KeyUsage
    /// Mailboxes the leaf must name in rfc822Name subjectAltNames, every one of them.
    public var emailAddresses: [EmailAddress] = []
    /// The public suffixes a wildcard `dNSName` may not span when matching ``identity``.
    public var publicSuffixList: PublicSuffixList = .snapshot
    /// Whether a DNS identity may match the subject common name when the leaf has no SAN (legacy).
    public var allowsCommonNameFallback: Bool
    /// Revocation flags when a `.revocation` policy is in force; nil means no revocation checking.
    public var revocation: RevocationOptions?
    /// RFC 5280 §6.1.1 (c) user-initial-policy-set: the certificate policies acceptable to the
    /// caller (default: anyPolicy, any policy will do).
    public var initialPolicySet: Set<ASN1ObjectIdentifier> = ValidationOptions.anyPolicyOnly
    /// RFC 5280 §6.1.1 (f) initial-explicit-policy: the path must be valid for at least one policy
    /// of ``initialPolicySet``.
    public var initialExplicitPolicy = false
    /// RFC 5280 §6.1.1 (e) initial-policy-mapping-inhibit: policy mappings are not honoured.
    public var initialPolicyMappingInhibit = false
    /// RFC 5280 §6.1.1 (g) initial-any-policy-inhibit: anyPolicy in a certificate matches nothing
    /// (except in self-issued intermediates).
    public var initialAnyPolicyInhibit = false

    /// The default initial policy set, {anyPolicy}, built once: a set literal allocates and hashes
    /// on every use, and every ``ServerTrust`` and every evaluation starts from this one.
    static let anyPolicyOnly: Set<ASN1ObjectIdentifier> = [OID.anyPolicy]

    /// The rules that enforce a trust anchor's own constraints (RFC 5937 §3): validity, basicConstraints
    /// cA and keyCertSign, critical extensions and extendedKeyUsage.
    public static let anchorConstraintRules = ProfileRuleSet([
        .anchorValidity, .anchorIsCA, .anchorProfile, .anchorExtendedKeyUsage,
    ])

    /// Options for `purposes` and `identities` at `verifyTime` under `profile`.
    public init(
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
