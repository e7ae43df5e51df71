import Foundation

/// One `<domain-config>` as declared, before inheritance: settings it leaves out are nil and
/// come from the enclosing domain-config, as on Android ("values not set in the nested
/// domain-config are taken from the parent"; NetworkSecurityConfig.Builder's parent chain), and
/// as in TrustKit-Android for `<trustkit-config>`.
struct AndroidDomainConfigEntry {
    /// A `<domain includeSubdomains="…">name</domain>`.
    struct Domain {
        /// The name as written, trimmed.
        let name: String
        /// `includeSubdomains` (default false; not inherited, it belongs to the domain element).
        let includesSubdomains: Bool
        /// The element, for errors.
        let context: AndroidElementContext
    }

    /// The index of the enclosing domain-config among all entries, or nil at the top level.
    let parent: Int?
    /// The domains, in document order.
    var domains: [Domain] = []
    /// The pin-set, if this domain-config declares one.
    var pinSet: AndroidPinSet?
    /// The trust anchors, if declared.
    var trustAnchors: AndroidTrustAnchorsDeclaration?
    /// The trustkit-config, if declared.
    var trustKit: AndroidTrustKitSettings?
}

/// The settings in force for one domain-config after inheritance.
struct AndroidEffectiveSettings {
    /// The nearest pin-set, own or inherited.
    var pinSet: AndroidPinSet?
    /// The nearest trust anchors, own or inherited from an enclosing domain-config or the base-config.
    var trustAnchors: AndroidTrustAnchorsDeclaration?
    /// The nearest `enforcePinning`.
    var enforcesPinning: Bool?
    /// The report URIs of the nearest `<trustkit-config>`.
    var reportURIs: [URL]?
    /// Whether ``trustAnchors`` are the base-config's (no domain-config on the way declares any).
    var inheritsBaseAnchors = false

    /// The settings of `entries[index]`, filling what it leaves out from its ancestors and, for
    /// trust anchors, from `baseAnchors` last.
    init(of index: Int, in entries: [AndroidDomainConfigEntry], baseAnchors: AndroidTrustAnchorsDeclaration?) {
        var next: Int? = index
        while let current = next {
            let entry = entries[current]
            pinSet = pinSet ?? entry.pinSet
            trustAnchors = trustAnchors ?? entry.trustAnchors
            enforcesPinning = enforcesPinning ?? entry.trustKit?.enforcesPinning
            reportURIs = reportURIs ?? entry.trustKit?.reportURIs
            // Parents come before their children in `entries`, so this walk always ends.
            next = entry.parent.flatMap { $0 < current ? $0 : nil }
        }
        if trustAnchors == nil, let baseAnchors {
            trustAnchors = baseAnchors
            inheritsBaseAnchors = true
        }
    }
}
