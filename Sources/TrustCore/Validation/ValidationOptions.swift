import TrustCrypto
import TrustDER
import TrustX509

/// Everything the path validator checks against, derived from a ``ServerTrust``'s policies.
public struct ValidationOptions: Sendable {
    /// The instant validity is checked at.
    public var verifyTime: DERTime
    /// The purpose the leaf must allow, if any (checked against extendedKeyUsage).
    public var purpose: KeyPurpose?
    /// The host name or IP address the leaf must be valid for, if any.
    public var identity: ServerIdentity?
    /// Whether to apply the web-PKI (CA/Browser Forum) profile on top of RFC 5280.
    public var webPKIProfile: Bool
    /// Which signature algorithms and key sizes are accepted.
    public var signaturePolicy: SignaturePolicy
    /// Key usages the leaf must assert when it has a keyUsage extension (e.g. from a test vector).
    public var requiredLeafKeyUsage: KeyUsage
    /// Whether a DNS identity may match the subject common name when the leaf has no SAN (legacy).
    public var allowsCommonNameFallback: Bool
    /// The most name-constraint comparisons one evaluation may make (bounded work).
    public var nameConstraintBudget: Int
    /// Revocation flags when a `.revocation` policy is in force; nil means no revocation checking.
    public var revocation: RevocationOptions?
    /// RFC 5280 §6.1.1 (c) user-initial-policy-set: the certificate policies acceptable to the
    /// caller (default: anyPolicy, any policy will do).
    public var initialPolicySet: Set<ASN1ObjectIdentifier> = [OID.anyPolicy]
    /// RFC 5280 §6.1.1 (f) initial-explicit-policy: the path must be valid for at least one policy
    /// of ``initialPolicySet``.
    public var initialExplicitPolicy = false
    /// RFC 5280 §6.1.1 (e) initial-policy-mapping-inhibit: policy mappings are not honoured.
    public var initialPolicyMappingInhibit = false
    /// RFC 5280 §6.1.1 (g) initial-any-policy-inhibit: anyPolicy in a certificate matches nothing
    /// (except in self-issued intermediates).
    public var initialAnyPolicyInhibit = false
    /// The most policy-graph nodes and edges one chain's policy processing may create (bounded work).
    public var policyProcessingBudget = 100_000

    /// Options for `purpose` at `verifyTime` with the web-PKI profile on.
    public init(
        verifyTime: DERTime,
        purpose: KeyPurpose? = nil,
        identity: ServerIdentity? = nil,
        webPKIProfile: Bool = true,
        signaturePolicy: SignaturePolicy = .default,
        requiredLeafKeyUsage: KeyUsage = [],
        allowsCommonNameFallback: Bool = false,
        nameConstraintBudget: Int = 250_000
    ) {
        self.verifyTime = verifyTime
        self.purpose = purpose
        self.identity = identity
        self.webPKIProfile = webPKIProfile
        self.signaturePolicy = signaturePolicy
        self.requiredLeafKeyUsage = requiredLeafKeyUsage
        self.allowsCommonNameFallback = allowsCommonNameFallback
        self.nameConstraintBudget = nameConstraintBudget
    }
}
