import TrustDER

/// The extensions with typed views, recognised from their encoded OID bytes in O(1): id-ce
/// (2.5.29.n) is `55 1D n`, id-pe (1.3.6.1.5.5.7.1.n) is `2B 06 01 05 05 07 01 n`.
public enum ExtensionKind: Int, Hashable, Sendable {
    case basicConstraints, keyUsage, extendedKeyUsage, subjectAltName, issuerAltName, nameConstraints
    case authorityKeyIdentifier, subjectKeyIdentifier, certificatePolicies, policyMappings, policyConstraints
    case inhibitAnyPolicy, crlDistributionPoints, authorityInfoAccess, tlsFeature, sctList

    /// A distinct bit per kind, for the sets of kinds a certificate holds (and duplicate detection).
    @inlinable package var bit: UInt32 { 1 << UInt32(truncatingIfNeeded: rawValue) }

    /// id-ce (2.5.29) is `55 1D`; id-pe (1.3.6.1.5.5.7.1) is `2B 06 01 05 05 07 01`.
    private static let idPE: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01]
    private static let sct: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x02]

    /// The kind of the extension with encoded OID `oid`, or nil when it has no typed view.

    public init?(_ oid: ASN1ObjectIdentifier) {
        let bytes = oid.bytes
        let start = bytes.startIndex
        if bytes.count == 3, bytes[start] == 0x55, bytes[start + 1] == 0x1D {
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
        if bytes.count == 8, bytes.prefix(7).elementsEqual(ExtensionKind.idPE) {
            switch bytes[start + 7] {
            case 1: self = .authorityInfoAccess
            case 24: self = .tlsFeature
            default: return nil
            }
            return
        }
        if bytes.elementsEqual(ExtensionKind.sct) {
            self = .sctList
            return
        }
        return nil
    }
}
