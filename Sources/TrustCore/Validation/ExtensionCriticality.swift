import TrustDER
import TrustX509

extension ExtensionKind {
    /// Whether the path validator processes this extension (so a critical instance is accepted).
    /// TLS feature and SCT lists are parsed but not processed: critical ones are rejected.
    var isProcessedByValidator: Bool {
        switch self {
        case .tlsFeature, .sctList: return false
        default: return true
        }
    }
}

/// Presence and criticality of the extensions the profile rules read, gathered in one pass over
/// the list (instead of one linear search per rule).
struct ExtensionCriticality {
    /// nil when absent, else whether it is critical.
    var authorityKeyIdentifier: Bool?
    var subjectKeyIdentifier: Bool?
    var basicConstraints: Bool?
    var policyConstraints: Bool?
    var authorityInfoAccess: Bool?
    var subjectAltName: Bool?
    var extendedKeyUsage: Bool?
    var nameConstraints: Bool?

    init(_ all: [Extension]) {
        for ext in all {
            guard let kind = ext.kind else { continue }
            // Duplicates are rejected when parsing; keep the first anyway, as `Extensions[oid]` does.
            switch kind {
            case .authorityKeyIdentifier: if authorityKeyIdentifier == nil { authorityKeyIdentifier = ext.isCritical }
            case .subjectKeyIdentifier: if subjectKeyIdentifier == nil { subjectKeyIdentifier = ext.isCritical }
            case .basicConstraints: if basicConstraints == nil { basicConstraints = ext.isCritical }
            case .policyConstraints: if policyConstraints == nil { policyConstraints = ext.isCritical }
            case .authorityInfoAccess: if authorityInfoAccess == nil { authorityInfoAccess = ext.isCritical }
            case .subjectAltName: if subjectAltName == nil { subjectAltName = ext.isCritical }
            case .extendedKeyUsage: if extendedKeyUsage == nil { extendedKeyUsage = ext.isCritical }
            case .nameConstraints: if nameConstraints == nil { nameConstraints = ext.isCritical }
            default: continue
            }
        }
    }
}
