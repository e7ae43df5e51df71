import Foundation
import TrustDocuments
import TrustX509

extension PinningConfigurationFormat {
    /// An ATS property list: a whole `Info.plist` (XML or binary) with
    /// `NSAppTransportSecurity` → `NSPinnedDomains`, or an `NSAppTransportSecurity` dictionary.
    public static let ats = PinningConfigurationFormat(ATSCodec())
}

/// App Transport Security's `NSPinnedDomains` (Security's `parseNSPinnedDomains`).
struct ATSCodec: PinningConfigurationCodec {
    let name = "ats"
    let displayName = "ATS (NSPinnedDomains)"
    let fileExtensions = ["plist"]
    let recognitionHint = "an ATS property list (\(ATSKey.appTransportSecurity) or \(ATSKey.pinnedDomains))"
    let notes =
        "leaf and CA pin lists, both matched when both are given (pin --emit-config writes \(ATSKey.pinnedCAIdentities) when every certificate is a CA, \(ATSKey.pinnedLeafIdentities) when none is); one level of subdomains; cannot express report-only mode, expiry, report URIs or anchors"
    /// Apple merges a host's entry with its parent's `NSIncludesSubdomains` entry.
    let policySelection = PinningConfiguration.PolicySelection.mergingExactAndParentEntries

    /// A property list whose top-level dictionary has `NSAppTransportSecurity` or `NSPinnedDomains`.
    func recognises(_ document: PinningConfigurationSniff) -> Bool {
        guard case let .propertyList(.dictionary(dictionary)) = document else { return false }
        return dictionary[ATSKey.appTransportSecurity] != nil || dictionary[ATSKey.pinnedDomains] != nil
    }

    func load(data: Data, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        try PinningConfiguration.loadATS(data: data, file: file)
    }

    func encode(_ configuration: PinningConfiguration) throws(PinningConfigurationExportError) -> Data {
        try configuration.atsPropertyList()
    }

    /// CA pins when every certificate is a CA, leaf pins when none is: ATS has no list that
    /// matches any certificate of the chain.
    func pinScope(forEmitting certificates: [Certificate]) throws(PinningConfigurationExportError) -> PinScope {
        if certificates.allSatisfy(\.isCA) { return .certificateAuthority }
        if !certificates.contains(where: \.isCA) { return .leaf }
        throw PinningConfigurationExportError(
            format: .ats, domain: nil,
            reason: "ATS lists leaf and CA pins separately and requires both lists to match: give only CA certificates, or only leaves")
    }

    /// The configuration applies the most specific domain alone, and ATS would merge.
    func policySelectionRefusal(domain: String, parent: String) -> String {
        "ATS would merge its pins with those of \(parent)'s \(ATSKey.includesSubdomains) entry (Apple parseNSPinnedDomains), and this configuration applies the most specific domain alone; list \(parent)'s pins under \(domain) too, or drop its subdomain coverage"
    }
}
