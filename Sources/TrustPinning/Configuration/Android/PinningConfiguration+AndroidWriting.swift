import TrustDocuments
import Foundation

extension PinningConfiguration {
    /// Writes the configuration as Android's `network_security_config.xml` (`trustctl pins convert
    /// --to android`): one `<domain-config>` per domain, in order, with a `<trustkit-config>`
    /// (`disableDefaultReportUri="true"`, so TrustKit-Android reports only where this configuration
    /// says) wherever enforcement, report URIs or pins need it. The output is deterministic, and
    /// ``loadAndroid(data:file:baseDirectory:)`` reads it back to an equal configuration.
    ///
    /// - Throws: ``PinningConfigurationExportError`` for what Android cannot express: subdomains one
    ///   level deep only (``SubdomainCoverage/oneLevel``), more than one requirement or a pin scope
    ///   other than the whole chain, an expiration that is not the start of a UTC day or has no pins
    ///   to expire, and anchor certificates (they would have to be written as `res/raw` files; only
    ///   the system store is written).
    func androidNetworkSecurityConfig() throws(PinningConfigurationExportError) -> Data {
        var lines = [#"<?xml version="1.0" encoding="utf-8"?>"#, "<network-security-config>"]
        for policy in domains {
            lines += try Self.androidDomainConfig(for: policy).map { "    " + $0 }
        }
        lines.append("</network-security-config>")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    private static func androidDomainConfig(for policy: DomainPinningPolicy) throws(PinningConfigurationExportError) -> [String] {
        func refuse(_ reason: String) -> PinningConfigurationExportError {
            PinningConfigurationExportError(format: .android, domain: policy.domain, reason: reason)
        }
        let includeSubdomains: String
        switch policy.subdomains {
        case .none: includeSubdomains = "false"
        case .anyDepth: includeSubdomains = "true"
        case .oneLevel: throw refuse("includeSubdomains covers subdomains at any depth; subdomains one level deep only cannot be expressed")
        }
        var lines = ["<domain-config>", #"    <domain includeSubdomains="\#(includeSubdomains)">\#(XMLEscaping.escape(policy.domain))</domain>"#]
        guard policy.requirements.count <= 1 else {
            throw refuse("a domain has one pin-set; \(policy.requirements.count) pin requirements that must all hold cannot be expressed")
        }
        if let requirement = policy.requirements.first {
            guard requirement.scope == .anyCertificate else {
                throw refuse(
                    "a pin-set matches any certificate of the chain; pins restricted to the \(requirement.scope == .leaf ? "leaf" : "CA certificates") cannot be expressed"
                )
            }
            var expiration = ""
            if let date = policy.expirationDate {
                guard let day = PinExpirationDay.exactDay(date) else {
                    throw refuse("pin-set expiration is a day; \(date) is not the start of a UTC day")
                }
                expiration = #" expiration="\#(day)""#
            }
            lines.append("    <pin-set\(expiration)>")
            lines += requirement.pins.map {
                #"        <pin digest="SHA-256">\#(XMLEscaping.escape(String($0.description.dropFirst(SPKIPin.prefix.count))))</pin>"#
            }
            lines.append("    </pin-set>")
        } else if policy.expirationDate != nil {
            throw refuse("an expiration belongs to a pin-set; a domain without pins cannot carry one")
        }
        if let anchors = policy.trustAnchors {
            guard anchors.allCertificates.isEmpty else {
                throw refuse("anchor certificates would have to be written as res/raw resources; only the system store can be written")
            }
            lines +=
                anchors.includesSystemStore
                ? ["    <trust-anchors>", #"        <certificates src="system"/>"#, "    </trust-anchors>"]
                : ["    <trust-anchors/>"]
        }
        if !policy.requirements.isEmpty || policy.enforcement == .reportOnly || !policy.reportURIs.isEmpty {
            let enforcePinning = policy.enforcement == .enforce ? "true" : "false"
            let start = #"    <trustkit-config enforcePinning="\#(enforcePinning)" disableDefaultReportUri="true""#
            if policy.reportURIs.isEmpty {
                lines.append(start + "/>")
            } else {
                lines.append(start + ">")
                lines += policy.reportURIs.map { "        <report-uri>\(XMLEscaping.escape($0.absoluteString))</report-uri>" }
                lines.append("    </trustkit-config>")
            }
        }
        lines.append("</domain-config>")
        return lines
    }
}
