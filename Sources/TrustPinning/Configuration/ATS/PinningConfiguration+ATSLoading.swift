import TrustDocuments
import Foundation

extension PinningConfiguration {
    /// Loads the `NSPinnedDomains` of App Transport Security from a whole `Info.plist` (XML or
    /// binary) or from the `NSAppTransportSecurity` dictionary itself.
    ///
    /// What each key means here (docs/pinning-configuration.md):
    /// - Each key of `NSPinnedDomains` is a domain (a DNS name or an IP address), normalised as
    ///   ``HostPattern/normalize(_:)`` does (case, IDNA, trailing dot); two keys naming the same
    ///   domain are refused. Domains are returned sorted by that name (a dictionary has no order).
    /// - `NSIncludesSubdomains` (boolean, default NO) → ``SubdomainCoverage/oneLevel``: Apple applies
    ///   the entry to "subdomains … that have one additional path component", and Security's
    ///   `parseNSPinnedDomains` compares the entry with the host's parent domain only.
    /// - `NSPinnedLeafIdentities` → a requirement of scope ``PinScope/leaf``;
    ///   `NSPinnedCAIdentities` → a requirement of scope ``PinScope/certificateAuthority``; both
    ///   given → both requirements must hold ("if you include both, then both must produce a match").
    /// - Enforcement is always ``PinEnforcement/enforce``; ATS has no expiration, report URIs or
    ///   trust anchors.
    /// - Other keys of `NSAppTransportSecurity` (`NSAllowsArbitraryLoads`, `NSExceptionDomains`, …)
    ///   and of the `Info.plist` are not pinning and are ignored.
    ///
    /// Stricter than ATS, which skips what it cannot use (Security's `parseNSPinnedDomains`): this
    /// loader refuses, so that a mistake cannot silently unpin a domain —
    /// - a key in a domain's dictionary other than the three above, or in an identity other than
    ///   `SPKI-SHA256-BASE64`;
    /// - a domain with neither identity list (``PinningConfigurationRule/noPins(domain:)``; ATS
    ///   then does not pin it), and an empty identity list: ATS's check then matches nothing and
    ///   rejects every connection to the domain (Security's `SecPolicyCheckLeafSPKISHA256`), except
    ///   under `SecTrustPinningRequired`, where two empty lists exempt the host from pinning — a
    ///   file meaning either is a mistake;
    /// - a digest that is not canonical base64 of 32 bytes (ATS drops it, which can leave the list
    ///   empty);
    /// - a non-boolean `NSIncludesSubdomains` (ATS treats anything but `<true/>` as NO);
    /// - an `NSPinnedDomains` without domains, and a document without `NSPinnedDomains`.
    ///
    /// Which entries apply to a host is Apple's (``PinningConfiguration/PolicySelection/mergingExactAndParentEntries``):
    /// a host's own entry merged with its parent's `NSIncludesSubdomains` entry, per identity type.
    /// Still different from Apple: keys are normalised (Apple compares them case-insensitively but
    /// never matches a key ending in a dot, nor an IDNA U-label with its A-label), keys differing
    /// only in case are refused (Apple merges both), and IP addresses have no parent entry (Apple
    /// removes the first label of `10.0.0.1` too).
    ///
    /// - Parameters:
    ///   - data: The property list.
    ///   - file: The file's name, for errors.
    /// - Throws: ``PinningConfigurationLoadError`` naming the key path and rule; nothing is loaded
    ///   when any part is wrong.
    static func loadATS(data: Data, file: String) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        let root = PropertyListReader(file: file, keyPath: "", value: try PropertyListValue.parsePropertyList(data, file: file))
        let pinnedDomains = try atsPinnedDomains(in: root)
        let entries = try pinnedDomains.dictionary(allowedKeys: nil)
        guard !entries.values.isEmpty else {
            throw pinnedDomains.error(.invalidValue("{}", reason: "\(ATSKey.pinnedDomains) configures no domain"))
        }
        var collector = PinnedDomainCollector()
        for (domain, entry) in entries.members {
            try collector.add(try atsDomainPolicy(domain: domain, entry: entry), at: entry)
        }
        return try collector.configuration(at: pinnedDomains, policySelection: .mergingExactAndParentEntries)
    }

    /// `NSAppTransportSecurity.NSPinnedDomains` of an `Info.plist`, or `NSPinnedDomains` of an
    /// `NSAppTransportSecurity` dictionary.
    private static func atsPinnedDomains(in root: PropertyListReader) throws(PinningConfigurationLoadError) -> PropertyListReader {
        let document = try root.dictionary(allowedKeys: nil)
        if let appTransportSecurity = document.member(ATSKey.appTransportSecurity) {
            return try appTransportSecurity.dictionary(allowedKeys: nil).required(ATSKey.pinnedDomains)
        }
        if let pinnedDomains = document.member(ATSKey.pinnedDomains) { return pinnedDomains }
        throw root.error(.missingKey("\(ATSKey.appTransportSecurity) (with \(ATSKey.pinnedDomains))"))
    }

    /// One `NSPinnedDomains` entry.
    private static func atsDomainPolicy(domain: String, entry: PropertyListReader) throws(PinningConfigurationLoadError) -> DomainPinningPolicy {
        let settings = try entry.dictionary(allowedKeys: ATSKey.domainKeys)
        let includesSubdomains = try settings.boolean(ATSKey.includesSubdomains, default: false)
        var requirements: [PinRequirement] = []
        for (key, scope) in ATSKey.identityLists {
            guard let list = settings.member(key) else { continue }
            let identities = try list.nonEmptyArray(
                reason:
                    "an empty \(key) matches no certificate (ATS then rejects every connection to the domain); list at least one identity or remove the key"
            )
            var pins: [SPKIPin] = []
            for identity in identities {
                let digest = try identity.dictionary(allowedKeys: [ATSKey.spkiSHA256Base64]).required(ATSKey.spkiSHA256Base64)
                pins.append(try digest.bareBase64Pin())
            }
            requirements.append(
                try list.validating { () throws(PinningConfigurationError) in
                    try PinRequirement(scope: scope, pins: pins)
                })
        }
        guard !requirements.isEmpty else { throw entry.error(.noPins(domain: domain)) }
        return try entry.validating { () throws(PinningConfigurationError) in
            try DomainPinningPolicy(domain: domain, subdomains: includesSubdomains ? .oneLevel : .none, requirements: requirements)
        }
    }
}
