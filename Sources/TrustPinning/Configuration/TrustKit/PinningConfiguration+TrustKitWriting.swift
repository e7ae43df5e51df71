import TrustDocuments
import Foundation
import TrustDER

extension PinningConfiguration {
    /// The configuration as an `Info.plist` fragment (`TSKConfiguration`), XML, keys in sorted order.
    ///
    /// - Throws: ``PinningConfigurationExportError`` for what TrustKit cannot express (see
    ///   ``trustKitConfigurationValue()``).
    func trustKitPropertyList() throws(PinningConfigurationExportError) -> Data {
        try PropertyListValue.dictionary([TrustKitKey.configuration: trustKitConfigurationValue()])
            .xmlPropertyListData(format: .trustkit)
    }

    /// The configuration dictionary as JSON (what `TrustKit.initSharedInstance(withConfiguration:)`
    /// takes), pretty-printed with sorted keys.
    ///
    /// - Throws: ``PinningConfigurationExportError`` for what TrustKit cannot express (see
    ///   ``trustKitConfigurationValue()``).
    func trustKitJSON() throws(PinningConfigurationExportError) -> Data {
        try trustKitConfigurationValue().jsonData(format: .trustkit)
    }

    /// The TrustKit configuration dictionary. TrustKit can express only part of the model, and a
    /// configuration it cannot express is refused, never weakened: one ``PinScope/anyCertificate``
    /// requirement per domain with at least two distinct pins (one when report-only); subdomain
    /// coverage ``SubdomainCoverage/none`` or ``SubdomainCoverage/anyDepth`` (not on a public
    /// suffix); an expiration that is exactly the start of a UTC day; `http`/`https` report URIs;
    /// no trust anchors. A domain with no requirements is written as
    /// `kSKExcludeSubdomainFromParentPolicy` when TrustKit means the same by it: exact host,
    /// enforced, nothing else set, and covered by another domain's `TSKIncludeSubdomains`.
    ///
    /// Every domain gets `TSKDisableDefaultReportUri` = YES, so that TrustKit, like SwiftTrust,
    /// reports to the listed URIs only; `TSKSwizzleNetworkDelegates` is written as NO (TrustKit's
    /// default, and a required key in TrustKit before 1.5).
    func trustKitConfigurationValue() throws(PinningConfigurationExportError) -> PropertyListValue {
        guard !domains.isEmpty else {
            throw PinningConfigurationExportError(format: .trustkit, domain: nil, reason: "there are no domains, which TrustKit refuses")
        }
        var pinnedDomains: [String: PropertyListValue] = [:]
        for policy in domains {
            pinnedDomains[policy.domain] =
                policy.requirements.isEmpty
                ? try policy.trustKitExclusionEntry(in: self)
                : try policy.trustKitEntry()
        }
        return .dictionary([
            TrustKitKey.swizzleNetworkDelegates: .boolean(false),
            TrustKitKey.pinnedDomains: .dictionary(pinnedDomains),
        ])
    }
}

extension DomainPinningPolicy {
    fileprivate func trustKitRefusal(_ reason: String) -> PinningConfigurationExportError {
        PinningConfigurationExportError(format: .trustkit, domain: domain, reason: reason)
    }

    /// This pinned domain's `TSKPinnedDomains` entry.
    fileprivate func trustKitEntry() throws(PinningConfigurationExportError) -> PropertyListValue {
        guard trustAnchors == nil else { throw trustKitRefusal("TrustKit cannot configure trust anchors") }
        guard requirements.count == 1, let requirement = requirements.first, requirement.scope == .anyCertificate else {
            throw trustKitRefusal(
                "TrustKit has one pin set per domain that may match any certificate of the chain; leaf-only, CA-only or several requirements cannot be written"
            )
        }
        let minimum = TrustKitDomainRules.minimumPins(for: enforcement)
        guard requirement.pins.count >= minimum else {
            throw trustKitRefusal(
                "TrustKit requires at least \(minimum) distinct pins for a\(enforcement == .enforce ? "n enforced" : " report-only") domain, one a backup key"
            )
        }
        let includeSubdomains: Bool
        switch subdomains {
        case .none: includeSubdomains = false
        case .anyDepth: includeSubdomains = true
        case .oneLevel: throw trustKitRefusal("\(TrustKitKey.includeSubdomains) covers subdomains at any depth; one level only cannot be written")
        }
        if includeSubdomains, let refusal = TrustKitDomainRules.subdomainRefusal(domain: domain) {
            throw trustKitRefusal(refusal)
        }
        var entry: [String: PropertyListValue] = [
            TrustKitKey.publicKeyHashes: .array(requirement.pins.map { .string(Base64.encode($0.digest)) }),
            TrustKitKey.includeSubdomains: .boolean(includeSubdomains),
            TrustKitKey.enforcePinning: .boolean(enforcement == .enforce),
            TrustKitKey.disableDefaultReportURI: .boolean(true),
        ]
        if let expirationDate {
            guard let day = PinExpirationDay.exactDay(expirationDate) else {
                throw trustKitRefusal(
                    "\(TrustKitKey.expirationDate) is a day (yyyy-MM-dd, from midnight UTC); \(expirationDate) is not the start of a UTC day")
            }
            entry[TrustKitKey.expirationDate] = .string(day)
        }
        if let invalid = reportURIs.first(where: { !$0.isPinningReportURI }) {
            throw trustKitRefusal("report URI \(invalid.absoluteString) is not an absolute http or https URL")
        }
        if !reportURIs.isEmpty {
            entry[TrustKitKey.reportURIs] = .array(reportURIs.map { .string($0.absoluteString) })
        }
        return .dictionary(entry)
    }

    /// This unpinned domain's entry: `kSKExcludeSubdomainFromParentPolicy`, TrustKit's only way to
    /// leave a host unpinned, which means the same only under the conditions checked here.
    fileprivate func trustKitExclusionEntry(in configuration: PinningConfiguration) throws(PinningConfigurationExportError) -> PropertyListValue {
        guard subdomains == .none, enforcement == .enforce, expirationDate == nil, reportURIs.isEmpty, trustAnchors == nil else {
            throw trustKitRefusal(
                "a domain without pins is written as \(TrustKitKey.excludeSubdomainFromParentPolicy), which covers the exact host and takes no other setting"
            )
        }
        guard TrustKitDomainRules.hasParentPolicy(for: domain, among: configuration.domains) else {
            throw trustKitRefusal(
                "a domain without pins can be written only as an exclusion from a parent domain with \(TrustKitKey.includeSubdomains), and none covers it"
            )
        }
        return .dictionary([TrustKitKey.excludeSubdomainFromParentPolicy: .boolean(true)])
    }
}
