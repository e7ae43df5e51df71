import TrustCrypto
import TrustDER
import TrustX509

/// Everything a ``ServerTrust`` is configured with beyond `SecTrust`'s own surface (certificates,
/// policies, anchors, verify date): part of the one ``TrustConfiguration`` that ``ServerTrust``
/// holds, the transport's `TLSTrustSettings` embeds and `trustctl` builds, so a setting is never
/// copied field by field.
///
/// The options stay in force whatever policies a pinning evaluator, a security policy or a
/// challenge handler sets afterwards:
///
/// Apple expresses a profile and revocation checking as policies (`SecPolicyCreateRevocation`), and
/// Alamofire's evaluators replace a trust's policies with their own (`apply(policy:)` calls
/// `SecTrustSetPolicies` with one policy, `ServerTrustEvaluation.swift`). A setting kept only in the
/// policy list would be dropped by the first evaluator that judges the trust. Options are therefore
/// kept apart from the policies, and every evaluation applies them together:
///
/// - ``profile``: its rules are added to the rules of the policies (a union: nothing the policies
///   require is relaxed; `.webPKI` under an evaluator's `.ssl` policy checks both);
/// - ``revocation``: revocation is checked as if a `.revocation` policy with these flags were among
///   the policies (flags of several sources are united: hard fail stays hard fail).
///
/// ```swift
/// let trust = ServerTrust(certificates: presented)
/// trust.options.revocation = [.useAnyAvailableMethod, .requirePositiveResponse]
/// try PinnedSPKIHashesTrustEvaluator(pins: pins).evaluate(trust, forHost: "api.example.com")
/// // the pinning evaluator's own evaluation checked revocation too (hard fail)
/// ```
public struct TrustOptions: Hashable, Sendable {
    /// The settings, shared by copies until one of them changes (copy on write): the options ride
    /// in every configuration, snapshot and evaluation record, and copying them is then one
    /// reference count, not one per array and list in them.
    private var storage: Storage

    /// The storage, copied first when another value shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    /// Equal when every setting is.
    public static func == (lhs: TrustOptions, rhs: TrustOptions) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes every setting.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }

    /// The settings' values.
    private struct Fields: Hashable {
        var profile: TrustProfile?
        var revocation: RevocationOptions?
        var maximumDepth: Int = ServerTrust.defaultMaximumDepth
        var signaturePolicy: SignaturePolicy = SignaturePolicy.default
        var budget: VerificationBudget = VerificationBudget.default
        var requiredLeafKeyUsage: LeafKeyUsageRequirement = LeafKeyUsageRequirement()
        var leafSPKISHA256: [[UInt8]]?
        var caSPKISHA256: [[UInt8]]?
        var allowsCommonNameFallback: Bool = false
        var enforcesAnchorConstraints: Bool = false
        var initialPolicySet: Set<ASN1ObjectIdentifier> = ValidationRequest.anyPolicyOnly
        var initialExplicitPolicy: Bool = false
        var initialPolicyMappingInhibit: Bool = false
        var initialAnyPolicyInhibit: Bool = false
        var publicSuffixList: PublicSuffixList = PublicSuffixList.snapshot
        var fetchesMissingIssuers: Bool = true
    }

    /// Changed only while uniquely referenced (``unique()``), so never while shared between threads;
    /// the run-time exclusivity checks, which every evaluation's reads would pay, are not needed.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) { self.fields = fields }

        /// The defaults, shared by every `TrustOptions()` (an evaluation record makes one).
        static let defaults = Storage(Fields())
    }

    /// A profile whose rules every evaluation applies besides its policies'; nil adds none.
    public var profile: TrustProfile? {
        get { storage.fields.profile }
        set { unique().fields.profile = newValue }
    }
    /// Revocation checking every evaluation performs (Apple's `kSecRevocation*` flags); nil checks
    /// only what `.revocation` policies ask for.
    public var revocation: RevocationOptions? {
        get { storage.fields.revocation }
        set { unique().fields.revocation = newValue }
    }
    /// The most intermediate CAs between leaf and anchor (self-issued ones not counted); default
    /// ``ServerTrust/defaultMaximumDepth``, no limit but the budget's path length, as Apple's. Negative
    /// values count as zero.
    public var maximumDepth: Int {
        get { storage.fields.maximumDepth }
        set { unique().fields.maximumDepth = max(0, newValue) }
    }
    /// Which signature algorithms and key sizes are accepted (default: Apple's, SHA-1 and RSA ≥ 1024
    /// verify and the profile decides; `.legacy` is `trustctl --allow-legacy-algorithms`, `.modern`
    /// refuses them in every signature).
    public var signaturePolicy: SignaturePolicy {
        get { storage.fields.signaturePolicy }
        set { unique().fields.signaturePolicy = newValue }
    }
    /// Limits on all the work one evaluation may do (path building, name constraints, policy
    /// processing, revocation).
    public var budget: VerificationBudget {
        get { storage.fields.budget }
        set { unique().fields.budget = newValue }
    }
    /// The key usage the leaf must assert when it carries a keyUsage extension (default: none):
    /// Apple's `SecPolicyCreateSSLWithKeyUsage`, read as trustd's `SecPolicyCheckKeyUsage` reads it
    /// (``LeafKeyUsageRequirement``). A leaf that lacks it fails with the recoverable
    /// ``TrustFailureReason/requiredKeyUsageMissing(required:present:)``. Apple sets it on the SSL
    /// policy; as an option, every evaluation applies it, so no judge that replaces the policies
    /// drops it (`trustctl --key-usage` takes it with the ssl and webpki profiles only).
    public var requiredLeafKeyUsage: LeafKeyUsageRequirement {
        get { storage.fields.requiredLeafKeyUsage }
        set { unique().fields.requiredLeafKeyUsage = newValue }
    }
    /// SHA-256 digests of DER SubjectPublicKeyInfos, one of which must be the leaf's: Apple's SSL
    /// policy option `kSecPolicyCheckLeafSPKISHA256` (`SecPolicyCheckLeafSPKISHA256`,
    /// SecPolicyServer.c). nil (the default) checks nothing; an empty list matches nothing, so every
    /// chain fails, as Apple's. A leaf that has none fails with the recoverable
    /// ``TrustFailureReason/leafSPKISHA256NotPinned(spkiSHA256:pinned:)``. Beside the pinning
    /// evaluators of TrustPinning, which stay as they are: this is a rule of the evaluation itself,
    /// which every evaluation applies whatever policies a judge sets.
    public var leafSPKISHA256: [[UInt8]]? {
        get { storage.fields.leafSPKISHA256 }
        set { unique().fields.leafSPKISHA256 = newValue }
    }
    /// SHA-256 digests of DER SubjectPublicKeyInfos, one of which must be that of a CA certificate of
    /// the chain: Apple's `kSecPolicyCheckCAspkiSHA256` (`SecPolicyCheckCAspkiSHA256`,
    /// SecPolicyServer.c), which looks at every certificate above the leaf, the anchor included, and
    /// fails a chain of the leaf alone. nil (the default) checks nothing; an empty list matches
    /// nothing. A chain with none fails with the recoverable
    /// ``TrustFailureReason/caSPKISHA256NotPinned(pinned:examined:)``.
    public var caSPKISHA256: [[UInt8]]? {
        get { storage.fields.caSPKISHA256 }
        set { unique().fields.caSPKISHA256 = newValue }
    }
    /// Whether a DNS host name may match the subject common name of a leaf without SANs (legacy, off).
    public var allowsCommonNameFallback: Bool {
        get { storage.fields.allowsCommonNameFallback }
        set { unique().fields.allowsCommonNameFallback = newValue }
    }
    /// Whether the trust anchor's own validity, basicConstraints, keyUsage, critical extensions and
    /// extendedKeyUsage are checked like an intermediate's (RFC 5937 §3), whatever the profile.
    public var enforcesAnchorConstraints: Bool {
        get { storage.fields.enforcesAnchorConstraints }
        set { unique().fields.enforcesAnchorConstraints = newValue }
    }
    /// The certificate policies acceptable to the caller (RFC 5280 §6.1.1 (c); default anyPolicy).
    public var initialPolicySet: Set<ASN1ObjectIdentifier> {
        get { storage.fields.initialPolicySet }
        set { unique().fields.initialPolicySet = newValue }
    }
    /// Whether the chain must be valid for a policy of ``initialPolicySet`` (RFC 5280 §6.1.1 (f)).
    public var initialExplicitPolicy: Bool {
        get { storage.fields.initialExplicitPolicy }
        set { unique().fields.initialExplicitPolicy = newValue }
    }
    /// Whether policy mappings are ignored (RFC 5280 §6.1.1 (e)).
    public var initialPolicyMappingInhibit: Bool {
        get { storage.fields.initialPolicyMappingInhibit }
        set { unique().fields.initialPolicyMappingInhibit = newValue }
    }
    /// Whether anyPolicy in a certificate matches nothing (RFC 5280 §6.1.1 (g)).
    public var initialAnyPolicyInhibit: Bool {
        get { storage.fields.initialAnyPolicyInhibit }
        set { unique().fields.initialAnyPolicyInhibit = newValue }
    }
    /// Which domains are public suffixes, so that a wildcard spanning one (`*.co.uk`) never
    /// matches (default: the shipped ``PublicSuffixList/snapshot``).
    public var publicSuffixList: PublicSuffixList {
        get { storage.fields.publicSuffixList }
        set { unique().fields.publicSuffixList = newValue }
    }
    /// Whether a fetching evaluation (``ServerTrust/evaluate(fetching:within:)``, a TLS
    /// handshake) downloads an intermediate the peer left out from the authorityInfoAccess caIssuers
    /// URL of the certificate whose issuer is missing, as Apple's trustd does (`kSecCAIssuerSource`,
    /// `SecCAIssuerCopyParents`), Chrome and Android too. Default true. Only `http://` URLs, only
    /// while the chain lacks an issuer, at most ``VerificationBudget/issuerFetches`` per evaluation,
    /// never to local addresses unless the fetcher allows them; `evaluate()` never fetches.
    public var fetchesMissingIssuers: Bool {
        get { storage.fields.fetchesMissingIssuers }
        set { unique().fields.fetchesMissingIssuers = newValue }
    }

    /// The defaults, with `profile` and `revocation` (none beyond what the policies ask).
    public init(profile: TrustProfile? = nil, revocation: RevocationOptions? = nil) {
        storage = Storage.defaults
        if profile != nil { self.profile = profile }
        if revocation != nil { self.revocation = revocation }
    }

    /// The rules these options add to `rules`.
    package func rules(adding rules: ProfileRuleSet) -> ProfileRuleSet {
        guard let profile else { return rules }
        return rules.union(profile.rules)
    }

    /// The revocation flags in force when the policies ask for `policyRevocation`: the union of
    /// both, nil when neither asks.
    package func revocation(adding policyRevocation: RevocationOptions?) -> RevocationOptions? {
        switch (revocation, policyRevocation) {
        case (nil, nil): return nil
        case let (own?, nil): return own
        case let (nil, policy?): return policy
        case let (own?, policy?): return own.union(policy)
        }
    }
}
