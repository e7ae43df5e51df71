import TrustDocuments
import Foundation

/// Reads the element tree of a `network_security_config.xml` into a ``PinningConfiguration``.
///
/// Structure and rules follow Android's XmlConfigSource: at most one `<base-config>` and one
/// `<debug-overrides>`; `<domain-config>`s, which nest, each with at least one `<domain>`, at most
/// one `<pin-set>` and one `<trust-anchors>`; a domain at most once in the whole file. Where
/// Android skips unknown elements, this reader refuses them (TrustKit-Android's
/// `<trustkit-config>` is known), so a misspelt setting is never dropped silently.
struct AndroidNetworkSecurityConfigReader {
    /// Attributes Android reads that do not concern pinning: accepted, ignored.
    private static let nonPinningAttributes: Set<String> = ["cleartextTrafficPermitted", "hstsEnforced"]

    private let file: String
    private let baseDirectory: URL?
    private var entries: [AndroidDomainConfigEntry] = []
    private var baseAnchors: AndroidTrustAnchorsDeclaration?
    /// The normalised domains configured so far.
    private var seenDomains: Set<String> = []

    /// Reads `root`.
    static func read(_ root: XMLTreeElement, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        var reader = AndroidNetworkSecurityConfigReader(file: file, baseDirectory: baseDirectory)
        return try reader.read(root)
    }

    private init(file: String, baseDirectory: URL?) {
        self.file = file
        self.baseDirectory = baseDirectory
    }

    private mutating func read(_ root: XMLTreeElement) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        let context = AndroidElementContext(file: file, root: root)
        guard root.name == "network-security-config" else {
            throw context.error(.unrecognisedFormat("the root element is <\(root.name)>, expected <network-security-config>"))
        }
        try context.checkAttributes([])
        for child in try context.children(allowed: ["base-config", "domain-config", "debug-overrides"], once: ["base-config", "debug-overrides"]) {
            switch child.element.name {
            case "base-config": try readBaseConfig(child)
            case "domain-config": try readDomainConfig(child, parent: nil)
            default: try readDebugOverrides(child)
            }
        }
        return try buildConfiguration()
    }

    /// `<base-config>`: only trust anchors (Android refuses a pin-set or domain there). Its anchors
    /// become those of every domain-config without its own, wherever the base-config is in the file.
    private mutating func readBaseConfig(_ context: AndroidElementContext) throws(PinningConfigurationLoadError) {
        try context.checkAttributes(Self.nonPinningAttributes)
        for child in try context.children(allowed: ["trust-anchors"], once: ["trust-anchors"]) {
            let anchors = try AndroidTrustAnchorsDeclaration(child, defaultOverridePins: false, loadsResources: true, baseDirectory: baseDirectory)
            // A PinningConfiguration has anchors per configured domain only; anchors for every
            // other host (what a base-config also sets) cannot be expressed, so only the platform
            // default is accepted here rather than silently trusting something else for those hosts.
            guard anchors.isSystemDefault else {
                throw child.error(
                    .invalidValue(
                        "<base-config><trust-anchors>",
                        reason:
                            "base-config anchors other than the system store would also apply to hosts no domain-config lists, which a SwiftTrust pinning configuration cannot express; declare them in the domain-configs that need them"
                    ))
            }
            baseAnchors = anchors
        }
    }

    /// `<domain-config>` and the domain-configs nested in it (entries in pre-order: parents first).
    private mutating func readDomainConfig(_ context: AndroidElementContext, parent: Int?) throws(PinningConfigurationLoadError) {
        try context.checkAttributes(Self.nonPinningAttributes)
        let index = entries.count
        entries.append(AndroidDomainConfigEntry(parent: parent))
        let children = try context.children(
            allowed: ["domain", "pin-set", "trust-anchors", "trustkit-config", "domain-config"],
            once: ["pin-set", "trust-anchors", "trustkit-config"])
        for child in children {
            switch child.element.name {
            case "domain": entries[index].domains.append(try readDomain(child))
            case "pin-set": entries[index].pinSet = try AndroidPinSet(child)
            case "trust-anchors":
                entries[index].trustAnchors = try AndroidTrustAnchorsDeclaration(
                    child, defaultOverridePins: false, loadsResources: true, baseDirectory: baseDirectory)
            case "trustkit-config": entries[index].trustKit = try AndroidTrustKitSettings(child)
            default: try readDomainConfig(child, parent: index)
            }
        }
        guard !entries[index].domains.isEmpty else { throw context.error(.missingKey("<domain> in <domain-config>")) }
    }

    private mutating func readDomain(_ context: AndroidElementContext) throws(PinningConfigurationLoadError) -> AndroidDomainConfigEntry.Domain {
        try context.checkAttributes(["includeSubdomains"])
        let includesSubdomains = try context.booleanAttribute("includeSubdomains") ?? false
        let name = try context.textValue()
        guard !name.isEmpty else { throw context.error(.missingKey("the domain name in <domain>")) }
        guard let normalized = HostPattern.normalize(name) else {
            throw context.error(.invalidPin(.invalidHostPattern(name, reason: "not a valid host name or IP address")))
        }
        // Android refuses a domain named twice anywhere in the file, with or without includeSubdomains.
        guard seenDomains.insert(normalized).inserted else { throw context.error(.duplicateDomain(normalized)) }
        return AndroidDomainConfigEntry.Domain(name: name, includesSubdomains: includesSubdomains, context: context)
    }

    /// `<debug-overrides>` applies to debuggable builds only, so it never applies here; it is still
    /// checked (only `<trust-anchors>`, well-formed `<certificates>`), but its resources are not read.
    private func readDebugOverrides(_ context: AndroidElementContext) throws(PinningConfigurationLoadError) {
        try context.checkAttributes(Self.nonPinningAttributes)
        for child in try context.children(allowed: ["trust-anchors"], once: ["trust-anchors"]) {
            _ = try AndroidTrustAnchorsDeclaration(child, defaultOverridePins: true, loadsResources: false, baseDirectory: baseDirectory)
        }
    }

    /// One policy per `<domain>`, with its domain-config's settings after inheritance.
    private func buildConfiguration() throws(PinningConfigurationLoadError) -> PinningConfiguration {
        var policies: [DomainPinningPolicy] = []
        for index in entries.indices {
            let settings = AndroidEffectiveSettings(of: index, in: entries, baseAnchors: baseAnchors)
            for domain in entries[index].domains {
                policies.append(try policy(for: domain, settings: settings))
            }
        }
        do { return try PinningConfiguration(domains: policies) } catch {
            // Duplicates were refused with their line while reading; this keeps the error typed.
            throw PinningConfigurationLoadError(file: file, rule: .invalidPin(error))
        }
    }

    private func policy(for domain: AndroidDomainConfigEntry.Domain, settings: AndroidEffectiveSettings) throws(PinningConfigurationLoadError)
        -> DomainPinningPolicy
    {
        var requirements: [PinRequirement] = []
        if let pinSet = settings.pinSet {
            // Android treats an empty pin-set as "no pinning"; refusing it keeps a pin-set whose pins
            // were all removed by mistake from switching pinning off unnoticed.
            guard !pinSet.pins.isEmpty else {
                throw pinSet.context.error(.tooFewPins(domain: domain.name, count: 0, minimum: 1))
            }
            if let overriding = settings.trustAnchors?.systemOverridingPins {
                let rule = PinningConfigurationRule.invalidValue(
                    "true",
                    reason:
                        "overridePins on the system store exempts every publicly trusted chain from the pins of \(domain.name), which a SwiftTrust pinning configuration cannot express; remove the pin-set or the override"
                )
                throw overriding.context.element.attribute("overridePins").map { overriding.context.error(at: $0, rule) }
                    ?? overriding.context.error(rule)
            }
            do { requirements = [try PinRequirement(scope: .anyCertificate, pins: pinSet.pins)] } catch {
                throw pinSet.context.error(.invalidPin(error))
            }
        }
        // The base-config may only declare the platform default, which is what a policy without
        // anchors keeps; anchors declared in a domain-config are the policy's own.
        let trustAnchors = settings.inheritsBaseAnchors ? nil : settings.trustAnchors?.trustAnchors
        do {
            return try DomainPinningPolicy(
                domain: domain.name, subdomains: domain.includesSubdomains ? .anyDepth : .none, requirements: requirements,
                expirationDate: settings.pinSet?.expirationDate,
                enforcement: settings.enforcesPinning == false ? .reportOnly : .enforce,
                reportURIs: settings.reportURIs ?? [], trustAnchors: trustAnchors)
        } catch {
            throw domain.context.error(.invalidPin(error))
        }
    }
}
