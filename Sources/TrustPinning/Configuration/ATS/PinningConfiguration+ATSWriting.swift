import TrustDocuments
import Foundation
import TrustDER

extension PinningConfiguration {
    /// The configuration as an `Info.plist` fragment (`NSAppTransportSecurity` → `NSPinnedDomains`),
    /// XML, keys in sorted order.
    ///
    /// ATS can express only part of the model, and a configuration it cannot express is refused,
    /// never weakened: subdomain coverage ``SubdomainCoverage/none`` or ``SubdomainCoverage/oneLevel``;
    /// at most one ``PinScope/leaf`` and one ``PinScope/certificateAuthority`` requirement and no
    /// ``PinScope/anyCertificate`` one (ATS ANDs its two lists, so "any certificate of the chain"
    /// has no equivalent); at least one requirement; ``PinEnforcement/enforce``; no expiration,
    /// report URIs or trust anchors; at least one domain.
    ///
    /// - Throws: ``PinningConfigurationExportError`` naming the domain and what ATS cannot express.
    func atsPropertyList() throws(PinningConfigurationExportError) -> Data {
        try checkPolicySelection(expressibleIn: .ats)
        guard !domains.isEmpty else {
            throw PinningConfigurationExportError(
                format: .ats, domain: nil, reason: "there are no domains, and an empty \(ATSKey.pinnedDomains) pins nothing")
        }
        var pinnedDomains: [String: PropertyListValue] = [:]
        for policy in domains {
            pinnedDomains[policy.domain] = try policy.atsEntry()
        }
        let document = PropertyListValue.dictionary([
            ATSKey.appTransportSecurity: .dictionary([ATSKey.pinnedDomains: .dictionary(pinnedDomains)])
        ])
        return try document.xmlPropertyListData(format: .ats)
    }
}

extension DomainPinningPolicy {
    /// This policy's `NSPinnedDomains` entry.
    fileprivate func atsEntry() throws(PinningConfigurationExportError) -> PropertyListValue {
        func refusal(_ reason: String) -> PinningConfigurationExportError {
            PinningConfigurationExportError(format: .ats, domain: domain, reason: reason)
        }
        guard enforcement == .enforce else { throw refusal("ATS always enforces its pins; it has no report-only mode") }
        guard expirationDate == nil else { throw refusal("ATS pins do not expire") }
        guard reportURIs.isEmpty else { throw refusal("ATS does not report pin failures") }
        guard trustAnchors == nil else { throw refusal("ATS pinning cannot configure trust anchors") }
        let includesSubdomains: Bool
        switch subdomains {
        case .none: includesSubdomains = false
        case .oneLevel: includesSubdomains = true
        case .anyDepth: throw refusal("\(ATSKey.includesSubdomains) covers subdomains one label deep only, not at any depth")
        }
        guard !requirements.isEmpty else {
            throw refusal("ATS requires \(ATSKey.pinnedLeafIdentities) or \(ATSKey.pinnedCAIdentities); a domain without pins cannot be written")
        }
        var entry: [String: PropertyListValue] = [ATSKey.includesSubdomains: .boolean(includesSubdomains)]
        for requirement in requirements {
            let key: String
            switch requirement.scope {
            case .leaf: key = ATSKey.pinnedLeafIdentities
            case .certificateAuthority: key = ATSKey.pinnedCAIdentities
            case .anyCertificate:
                throw refusal(
                    "ATS cannot pin \"any certificate of the chain\": \(ATSKey.pinnedLeafIdentities) pins the leaf, \(ATSKey.pinnedCAIdentities) a CA, and when both are given both must match"
                )
            }
            guard entry[key] == nil else {
                throw refusal(
                    "ATS has one \(key) list per domain; two \(requirement.scope.rawValue) requirements that must both hold cannot be written")
            }
            entry[key] = .array(
                requirement.pins.map { pin in
                    .dictionary([ATSKey.spkiSHA256Base64: .string(Base64.encode(pin.digest))])
                })
        }
        return .dictionary(entry)
    }
}
