/// The `Info.plist` keys of App Transport Security's identity pinning (Apple, Information Property
/// List → `NSAppTransportSecurity` → `NSPinnedDomains`; iOS 14, macOS 11).
enum ATSKey {
    /// The `Info.plist` key of the ATS dictionary.
    static let appTransportSecurity = "NSAppTransportSecurity"
    /// The ATS key whose dictionary maps domain names to their pins.
    static let pinnedDomains = "NSPinnedDomains"
    /// Whether a pinned domain's entry also covers subdomains one label deep (default NO).
    static let includesSubdomains = "NSIncludesSubdomains"
    /// Pins the leaf must match.
    static let pinnedLeafIdentities = "NSPinnedLeafIdentities"
    /// Pins a CA or sub-CA certificate of the chain must match.
    static let pinnedCAIdentities = "NSPinnedCAIdentities"
    /// The key of each identity: the base64 SHA-256 of the certificate's DER SubjectPublicKeyInfo.
    static let spkiSHA256Base64 = "SPKI-SHA256-BASE64"

    /// The only keys a pinned domain's dictionary may have.
    static let domainKeys: Set<String> = [includesSubdomains, pinnedLeafIdentities, pinnedCAIdentities]

    /// The identity lists and the certificates their pins may match, in the order they are read:
    /// when both are given "both must produce a match" (Apple), so each becomes its own requirement.
    static let identityLists: [(key: String, scope: PinScope)] = [
        (pinnedLeafIdentities, .leaf),
        (pinnedCAIdentities, .certificateAuthority),
    ]
}
