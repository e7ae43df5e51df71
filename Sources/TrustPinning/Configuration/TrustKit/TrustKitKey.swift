/// The keys of a TrustKit configuration, spelt as TrustKit reads them (the string values of its
/// `kTSK…` constants in TSKTrustKitConfig.m, not the constants' names).
enum TrustKitKey {
    /// The `Info.plist` key TrustKit reads its configuration from.
    static let configuration = "TSKConfiguration"

    // Global keys.
    /// Whether TrustKit swizzles `NSURLSession` delegates (default NO).
    static let swizzleNetworkDelegates = "TSKSwizzleNetworkDelegates"
    /// macOS only: skip pinning for chains anchored at a user-installed root (default YES).
    static let ignorePinningForUserDefinedTrustAnchors = "TSKIgnorePinningForUserDefinedTrustAnchors"
    /// The dictionary of domain policies.
    static let pinnedDomains = "TSKPinnedDomains"

    // Domain keys.
    /// The base64 SHA-256 SPKI digests.
    static let publicKeyHashes = "TSKPublicKeyHashes"
    /// Whether the policy covers every subdomain (default NO).
    static let includeSubdomains = "TSKIncludeSubdomains"
    /// Whether a mismatch blocks the connection (default YES) or is only reported.
    static let enforcePinning = "TSKEnforcePinning"
    /// `yyyy-MM-dd` (UTC) after which the pins are not enforced.
    static let expirationDate = "TSKExpirationDate"
    /// Where pin failures are reported.
    static let reportURIs = "TSKReportUris"
    /// Whether TrustKit's built-in report URI is skipped (default NO).
    static let disableDefaultReportURI = "TSKDisableDefaultReportUri"
    /// Deprecated: the key algorithms to compute SPKI digests for.
    static let publicKeyAlgorithms = "TSKPublicKeyAlgorithms"
    /// Excludes a subdomain from its parent's `TSKIncludeSubdomains` policy. TrustKit's constant
    /// `kTSKExcludeSubdomainFromParentPolicy` has the value `kSKExcludeSubdomainFromParentPolicy`
    /// (sic), and that is the key TrustKit reads.
    static let excludeSubdomainFromParentPolicy = "kSKExcludeSubdomainFromParentPolicy"

    /// The only keys of the configuration dictionary.
    static let globalKeys: Set<String> = [swizzleNetworkDelegates, ignorePinningForUserDefinedTrustAnchors, pinnedDomains]
    /// The only keys of a domain's dictionary.
    static let domainKeys: Set<String> = [
        publicKeyHashes, includeSubdomains, enforcePinning, expirationDate, reportURIs, disableDefaultReportURI,
        publicKeyAlgorithms, excludeSubdomainFromParentPolicy,
    ]
    /// The values `TSKPublicKeyAlgorithms` took (`kTSKAlgorithm…`).
    static let publicKeyAlgorithmNames: Set<String> = [
        "TSKAlgorithmRsa2048", "TSKAlgorithmRsa4096", "TSKAlgorithmEcDsaSecp256r1", "TSKAlgorithmEcDsaSecp384r1",
    ]
}
