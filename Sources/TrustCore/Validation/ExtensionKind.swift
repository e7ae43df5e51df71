import TrustDER
import TrustX509

/// The extensions the validator looks at, recognised from their encoded OID bytes (no walk over
/// the `OID` globals, no hashing): id-ce (2.5.29.n) is `55 1D n`, id-pe (1.3.6.1.5.5.7.1.n) is
/// `2B 06 01 05 05 07 01 n`. Equality of encoded OID bytes is exactly `ASN1ObjectIdentifier` equality.
/// Every kind is one of ``PathValidator/understoodExtensions``.
enum ExtensionKind {
    case subjectKeyIdentifier, keyUsage, subjectAltName, issuerAltName, basicConstraints, nameConstraints
    case crlDistributionPoints, certificatePolicies, policyMappings, authorityKeyIdentifier
    case policyConstraints, extendedKeyUsage, inhibitAnyPolicy, authorityInfoAccess

    init?(_ oid: ASN1ObjectIdentifier) {
        let bytes = oid.bytes
        let start = bytes.startIndex
        if bytes.count == 3 {
            guard bytes[start] == 0x55, bytes[start + 1] == 0x1D else { return nil }
            switch bytes[start + 2] {
            case 14: self = .subjectKeyIdentifier
            case 15: self = .keyUsage
            case 17: self = .subjectAltName
            case 18: self = .issuerAltName
            case 19: self = .basicConstraints
            case 30: self = .nameConstraints
            case 31: self = .crlDistributionPoints
            case 32: self = .certificatePolicies
            case 33: self = .policyMappings
            case 35: self = .authorityKeyIdentifier
            case 36: self = .policyConstraints
            case 37: self = .extendedKeyUsage
            case 54: self = .inhibitAnyPolicy
            default: return nil
            }
            return
        }
        if bytes.count == 8, bytes[start] == 0x2B, bytes[start + 1] == 0x06, bytes[start + 2] == 0x01,
           bytes[start + 3] == 0x05, bytes[start + 4] == 0x05, bytes[start + 5] == 0x07, bytes[start + 6] == 0x01,
           bytes[start + 7] == 0x01 {
            self = .authorityInfoAccess
            return
        }
        return nil
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

    init(_ all: [Extension]) {
        for ext in all {
            guard let kind = ExtensionKind(ext.oid) else { continue }
            // Duplicates are rejected when parsing; keep the first anyway, as `Extensions[oid]` does.
            switch kind {
            case .authorityKeyIdentifier: if authorityKeyIdentifier == nil { authorityKeyIdentifier = ext.isCritical }
            case .subjectKeyIdentifier: if subjectKeyIdentifier == nil { subjectKeyIdentifier = ext.isCritical }
            case .basicConstraints: if basicConstraints == nil { basicConstraints = ext.isCritical }
            case .policyConstraints: if policyConstraints == nil { policyConstraints = ext.isCritical }
            case .authorityInfoAccess: if authorityInfoAccess == nil { authorityInfoAccess = ext.isCritical }
            case .subjectAltName: if subjectAltName == nil { subjectAltName = ext.isCritical }
            case .extendedKeyUsage: if extendedKeyUsage == nil { extendedKeyUsage = ext.isCritical }
            default: continue
            }
        }
    }
}
