import TrustCrypto
import TrustDER
import TrustX509

/// What the path validator checks a chain against: the instant, the rules, the purposes and
/// identities the policies require, the revocation flags in force, and the caller's
/// ``TrustOptions``, read through the accessors below. Every field is given when it is made (no
/// default of its own), so a setting the caller made cannot be lost on the way to the validator.
package struct ValidationRequest: Sendable {
    /// The instant validity is checked at.
    package let verifyTime: DERTime
    /// The profile rules applied on top of RFC 5280 path validation (those of the policies, the
    /// options' profile, and the anchor constraints when the options enforce them).
    package let rules: ProfileRuleSet
    /// The purposes the leaf must allow (checked against extendedKeyUsage); every one is required.
    package let purposes: [KeyPurpose]
    /// The host names, IP addresses or mailboxes the leaf must be valid for, each prepared for
    /// matching once (for every chain of the evaluation); every one is required.
    package let identities: [PreparedIdentity]
    /// Mailboxes the leaf must name in rfc822Name subjectAltNames, every one of them.
    package let emailAddresses: [EmailAddress]
    /// Revocation flags when revocation is checked; nil means no revocation checking.
    package let revocation: RevocationOptions?
    /// The caller's options: what the accessors below read.
    package let options: TrustOptions

    /// A request for exactly these inputs.
    package init(
        verifyTime: DERTime, rules: ProfileRuleSet, purposes: [KeyPurpose], identities: [PreparedIdentity],
        emailAddresses: [EmailAddress], revocation: RevocationOptions?, options: TrustOptions
    ) {
        self.verifyTime = verifyTime
        self.rules = rules
        self.purposes = purposes
        self.identities = identities
        self.emailAddresses = emailAddresses
        self.revocation = revocation
        self.options = options
    }

    /// Which signature algorithms and key sizes are accepted (``TrustOptions/signaturePolicy``).
    package var signaturePolicy: SignaturePolicy { options.signaturePolicy }
    /// The key usage the leaf must assert when it has a keyUsage extension (``TrustOptions/requiredLeafKeyUsage``).
    package var requiredLeafKeyUsage: LeafKeyUsageRequirement { options.requiredLeafKeyUsage }
    /// The SPKI SHA-256 digests the leaf's must be among (``TrustOptions/leafSPKISHA256``); nil: not checked.
    package var leafSPKISHA256: [[UInt8]]? { options.leafSPKISHA256 }
    /// The SPKI SHA-256 digests some CA certificate's must be among (``TrustOptions/caSPKISHA256``); nil: not checked.
    package var caSPKISHA256: [[UInt8]]? { options.caSPKISHA256 }
    /// The public suffixes a wildcard `dNSName` may not span (``TrustOptions/publicSuffixList``).
    package var publicSuffixList: PublicSuffixList { options.publicSuffixList }
    /// Whether a DNS identity may match the subject common name when the leaf has no SAN
    /// (``TrustOptions/allowsCommonNameFallback``).
    package var allowsCommonNameFallback: Bool { options.allowsCommonNameFallback }
    /// RFC 5280 §6.1.1 (c) user-initial-policy-set (``TrustOptions/initialPolicySet``).
    package var initialPolicySet: Set<ASN1ObjectIdentifier> { options.initialPolicySet }
    /// RFC 5280 §6.1.1 (f) initial-explicit-policy (``TrustOptions/initialExplicitPolicy``).
    package var initialExplicitPolicy: Bool { options.initialExplicitPolicy }
    /// RFC 5280 §6.1.1 (e) initial-policy-mapping-inhibit (``TrustOptions/initialPolicyMappingInhibit``).
    package var initialPolicyMappingInhibit: Bool { options.initialPolicyMappingInhibit }
    /// RFC 5280 §6.1.1 (g) initial-any-policy-inhibit (``TrustOptions/initialAnyPolicyInhibit``).
    package var initialAnyPolicyInhibit: Bool { options.initialAnyPolicyInhibit }

    /// The request a CRL signer's own path is validated under (RFC 5280 §6.3.3 (f)), derived from
    /// this one: the same instant, signature policy and revocation flags, the RFC 5280 rules plus the
    /// anchor constraints this request enforces, for no particular purpose or name and with the
    /// default certificate-policy inputs (the signer's path is not the caller's chain).
    package func crlSignerRequest() -> ValidationRequest {
        var signerOptions = TrustOptions()
        signerOptions.signaturePolicy = options.signaturePolicy
        return ValidationRequest(
            verifyTime: verifyTime,
            rules: TrustProfile.rfc5280.rules.union(ProfileRuleSet(ProfileRuleRegistry.anchorConstraintRules.filter(rules.contains))),
            purposes: [], identities: [], emailAddresses: [], revocation: revocation, options: signerOptions)
    }

    /// The default initial policy set, {anyPolicy}, built once: a set literal allocates and hashes
    /// on every use, and every ``ServerTrust`` and every evaluation starts from this one.
    static let anyPolicyOnly: Set<ASN1ObjectIdentifier> = [OID.anyPolicy]
}
