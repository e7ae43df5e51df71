import Foundation
import TrustCore
import TrustDocuments

extension PinningConfiguration {
    /// Loads a TrustKit configuration: a property list (an `Info.plist` with `TSKConfiguration`, or
    /// the configuration dictionary itself, XML or binary) or the same dictionary as JSON (a
    /// document whose first non-blank character is `{`).
    ///
    /// What each key means here (TrustKit's `parseTrustKitConfiguration`; docs/pinning-configuration.md):
    /// - `TSKPinnedDomains` (required, not empty): each key is a domain, normalised as
    ///   ``HostPattern/normalize(_:)`` does; two keys naming the same domain are refused. Domains
    ///   are returned sorted by that name.
    /// - `TSKPublicKeyHashes` (required): bare base64 SHA-256 SPKI digests → one requirement of
    ///   scope ``PinScope/anyCertificate``; at least two distinct pins when enforced and one in
    ///   report-only mode (TrustKit's rule: one must be a backup key). Read as TrustKit reads them:
    ///   the bytes Foundation's `Data(base64Encoded:)` decodes are the pin, so padding bits set in
    ///   the last character (TrustKit's demo backup pin `BBBB…BBB=`) are accepted, with a
    ///   ``PinningConfigurationNote`` giving the canonical form; two texts of one digest are one pin.
    /// - `TSKIncludeSubdomains` (default NO) → ``SubdomainCoverage/anyDepth``; refused on a public
    ///   suffix, as TrustKit does.
    /// - `TSKEnforcePinning` (default YES) → ``PinEnforcement/enforce``, NO → ``PinEnforcement/reportOnly``.
    /// - `TSKExpirationDate` `yyyy-MM-dd` → the start of that day, UTC (TrustKit's formatter is UTC).
    ///   An invalid day is refused (TrustKit's formatter would return nil: no expiration).
    /// - `TSKReportUris`: absolute `http`/`https` URLs.
    /// - `kSKExcludeSubdomainFromParentPolicy` (TrustKit's spelling of
    ///   `kTSKExcludeSubdomainFromParentPolicy`) = YES → a policy for exactly that host with no
    ///   requirements, which wins over the parent as the more specific entry: the host is not
    ///   pinned (chain and host validation still apply). As in TrustKit, the entry may have no
    ///   other key, and a configured parent with `TSKIncludeSubdomains` must cover it.
    /// - Accepted and without effect: `TSKSwizzleNetworkDelegates` (nothing to swizzle);
    ///   `TSKIgnorePinningForUserDefinedTrustAnchors` (macOS: skip pins for user-installed roots;
    ///   SwiftTrust has no user-defined trust store, its anchors are the ones configured, so pins are
    ///   always checked); `TSKDisableDefaultReportUri` (SwiftTrust has no default report URI: reports
    ///   go to `TSKReportUris` only, whatever its value); `TSKPublicKeyAlgorithms` (deprecated by
    ///   TrustKit; digests cover the whole SPKI of any key type), though its values must be
    ///   TrustKit's algorithm names.
    /// - Any other key in the configuration or a domain's dictionary is refused; booleans must be
    ///   booleans (`<true/>`, JSON `true`), not integers or strings.
    ///
    /// - Parameters:
    ///   - data: The property list or JSON.
    ///   - file: The file's name, for errors.
    /// - Throws: ``PinningConfigurationLoadError`` naming the key path and rule; nothing is loaded
    ///   when any part is wrong.
    static func loadTrustKit(data: Data, file: String) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        let value =
            JSONText.startsWithObject(Array(data.prefix(maximumFileSize)))
            ? try PropertyListValue.parseJSON(data, file: file)
            : try PropertyListValue.parsePropertyList(data, file: file)
        let root = PropertyListReader(file: file, keyPath: "", value: value)
        let settings = try trustKitConfiguration(in: root).dictionary(allowedKeys: TrustKitKey.globalKeys)
        // Read for their types only: see the list above for why they change nothing here.
        _ = try settings.boolean(TrustKitKey.swizzleNetworkDelegates, default: false)
        _ = try settings.boolean(TrustKitKey.ignorePinningForUserDefinedTrustAnchors, default: true)

        let pinnedDomains = try settings.required(TrustKitKey.pinnedDomains)
        let entries = try pinnedDomains.dictionary(allowedKeys: nil)
        guard !entries.values.isEmpty else {
            throw pinnedDomains.error(.invalidValue("{}", reason: "\(TrustKitKey.pinnedDomains) configures no domain, which TrustKit refuses"))
        }
        var collector = PinnedDomainCollector()
        var notes: [PinningConfigurationNote] = []
        var exclusions: [(domain: String, flag: PropertyListReader)] = []
        for (domain, entry) in entries.members {
            let domainSettings = try entry.dictionary(allowedKeys: TrustKitKey.domainKeys)
            let policy: DomainPinningPolicy
            if let flag = domainSettings.member(TrustKitKey.excludeSubdomainFromParentPolicy), try flag.boolean() {
                policy = try trustKitExclusion(domain: domain, settings: domainSettings, flag: flag)
                exclusions.append((policy.domain, flag))
            } else {
                policy = try trustKitDomainPolicy(domain: domain, settings: domainSettings, notes: &notes)
            }
            try collector.add(policy, at: entry)
        }
        for exclusion in exclusions
        where !TrustKitDomainRules.hasParentPolicy(for: exclusion.domain, among: collector.byDomain.values) {
            throw exclusion.flag.error(
                .invalidValue(
                    "true",
                    reason:
                        "no configured parent domain with \(TrustKitKey.includeSubdomains) covers \(exclusion.domain), so there is no policy to exclude it from"
                ))
        }
        return try collector.configuration(at: pinnedDomains, policySelection: .mostSpecificDomain).adding(notes: notes)
    }

    /// `TSKConfiguration` of an `Info.plist`, or the document when it is the configuration itself.
    private static func trustKitConfiguration(in root: PropertyListReader) throws(PinningConfigurationLoadError) -> PropertyListReader {
        let document = try root.dictionary(allowedKeys: nil)
        if let configuration = document.member(TrustKitKey.configuration) { return configuration }
        guard document.contains(TrustKitKey.pinnedDomains) else {
            throw root.error(.missingKey("\(TrustKitKey.configuration) (or \(TrustKitKey.pinnedDomains) at the top level)"))
        }
        return root
    }

    /// An entry with `kSKExcludeSubdomainFromParentPolicy` = YES: that host, unpinned.
    private static func trustKitExclusion(
        domain: String, settings: PropertyListDictionary,
        flag: PropertyListReader
    ) throws(PinningConfigurationLoadError) -> DomainPinningPolicy {
        if let other = settings.members.first(where: { $0.key != TrustKitKey.excludeSubdomainFromParentPolicy }) {
            throw other.reader.error(
                .invalidValue(
                    other.key, reason: "a domain with \(TrustKitKey.excludeSubdomainFromParentPolicy) takes no other key (TrustKit's rule)"))
        }
        return try settings.reader.validating { () throws(PinningConfigurationError) in
            try DomainPinningPolicy(domain: domain, requirements: [])
        }
    }

    /// A pinned domain's entry; notes on its pins go to `notes`.
    private static func trustKitDomainPolicy(
        domain: String, settings: PropertyListDictionary,
        notes: inout [PinningConfigurationNote]
    ) throws(PinningConfigurationLoadError) -> DomainPinningPolicy {
        let entry = settings.reader
        let includeSubdomains = try settings.boolean(TrustKitKey.includeSubdomains, default: false)
        let enforcement: PinEnforcement = try settings.boolean(TrustKitKey.enforcePinning, default: true) ? .enforce : .reportOnly
        _ = try settings.boolean(TrustKitKey.disableDefaultReportURI, default: false)
        if let algorithms = settings.member(TrustKitKey.publicKeyAlgorithms) {
            for algorithm in try algorithms.array() {
                let name = try algorithm.string()
                guard TrustKitKey.publicKeyAlgorithmNames.contains(name) else {
                    throw algorithm.error(
                        .invalidValue(
                            name,
                            reason: "not one of TrustKit's algorithm names (\(TrustKitKey.publicKeyAlgorithmNames.sorted().joined(separator: ", ")))")
                    )
                }
            }
        }
        var expirationDate: Date?
        if let expiration = settings.member(TrustKitKey.expirationDate) {
            expirationDate = try expiration.expirationDay()
        }
        var reportURIs: [URL] = []
        if let uris = settings.member(TrustKitKey.reportURIs) {
            for uri in try uris.array() {
                reportURIs.append(try uri.reportURI())
            }
        }
        let hashes = try settings.required(TrustKitKey.publicKeyHashes)
        var pins: [SPKIPin] = []
        for hash in try hashes.array() {
            pins.append(try hash.trustKitPin(domain: domain, notes: &notes))
        }
        let distinct = pins.uniqued()
        let minimum = TrustKitDomainRules.minimumPins(for: enforcement)
        guard distinct.count >= minimum else {
            throw hashes.error(.tooFewPins(domain: domain, count: distinct.count, minimum: minimum))
        }
        let requirement = try hashes.validating { () throws(PinningConfigurationError) in
            try PinRequirement(scope: .anyCertificate, pins: distinct)
        }
        let policy = try entry.validating { () throws(PinningConfigurationError) in
            try DomainPinningPolicy(
                domain: domain, subdomains: includeSubdomains ? .anyDepth : .none, requirements: [requirement],
                expirationDate: expirationDate, enforcement: enforcement, reportURIs: reportURIs)
        }
        if includeSubdomains, let flag = settings.member(TrustKitKey.includeSubdomains),
            let refusal = TrustKitDomainRules.subdomainRefusal(domain: policy.domain)
        {
            throw flag.error(.invalidValue("true", reason: refusal))
        }
        return policy
    }
}
