import TrustDER
import TrustX509

extension ExtensionKind {
    /// Whether the path validator processes this extension (so a critical instance is accepted).
    /// TLS feature and SCT lists are parsed but not processed: critical ones are rejected.
    var isProcessedByValidator: Bool { ExtensionKind.unprocessedKinds & bit == 0 }

    /// The kinds the path validator does not process (a critical instance is rejected), as bits.
    static var unprocessedKinds: UInt32 { ExtensionKind.tlsFeature.bit | ExtensionKind.sctList.bit }
}

/// Presence and criticality of the extensions the profile rules read, from the bit sets the
/// certificate keeps (no walk over the list, no linear search per rule).
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

    init(_ extensions: Extensions) {
        func criticality(_ kind: ExtensionKind) -> Bool? { extensions.contains(kind) ? extensions.isCritical(kind) : nil }
        authorityKeyIdentifier = criticality(.authorityKeyIdentifier)
        subjectKeyIdentifier = criticality(.subjectKeyIdentifier)
        basicConstraints = criticality(.basicConstraints)
        policyConstraints = criticality(.policyConstraints)
        authorityInfoAccess = criticality(.authorityInfoAccess)
        subjectAltName = criticality(.subjectAltName)
        extendedKeyUsage = criticality(.extendedKeyUsage)
        nameConstraints = criticality(.nameConstraints)
    }
}
