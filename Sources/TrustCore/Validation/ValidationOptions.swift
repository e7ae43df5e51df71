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
    /// Mailboxes the leaf must name in rfc822Name subjectAltNames, every one of them.
    public var emailAddresses: [EmailAddress] = []
    /// The public suffixes a wildcard `dNSName` may not span when matching ``identity``.
    public var publicSuffixList: PublicSuffixList = .snapshot
    /// Whether a DNS identity may match the subject common name when the leaf has no SAN (legacy).
    public var allowsCommonNameFallback: Bool
    /// The most name-constraint comparisons one evaluation may make (bounded work).
    public var nameConstraintBudget: Int
    /// Revocation flags when a `.revocation` policy is in force; nil means no revocation checking.
    public var revocation: RevocationOptions?

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
