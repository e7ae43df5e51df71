/// A semantic defect of a CRL whose DER structure is sound.
///
/// Such a CRL parses (so a person can inspect it, and so an evaluation that was handed it can say
/// why it is not used), records its defects in ``CertificateRevocationList/semanticDefects``, and
/// is never used as revocation evidence: an evaluation given it by the caller fails closed, naming
/// the CRL and the defect (RFC 5280 §5: a CRL that cannot be processed fully proves nothing).
public enum CRLDefect: Hashable, Sendable, CustomStringConvertible {
    /// tbsCertList.signature and the outer signatureAlgorithm name different algorithms
    /// (RFC 5280 §5.1.1.2), compared as algorithms.
    case signatureAlgorithmMismatch(tbsCertList: AlgorithmIdentifier, certList: AlgorithmIdentifier, offset: Int)
    /// The signatureValue BIT STRING has unused bits: no signature algorithm produces a partial
    /// octet (RFC 5280 §5.1.1.3), so the signature cannot verify.
    case signatureNotWholeOctets(offset: Int)
    /// A revoked-certificate entry carries a critical extension this library does not process
    /// (RFC 5280 §5.3: such a CRL must not be used to determine any certificate's status).
    case unhandledCriticalEntryExtension(oid: String, offset: Int)
    /// An entry names its certificate issuer (certificateIssuer, RFC 5280 §5.3.3) in a CRL that is
    /// not indirect: only indirect CRLs may list other issuers' certificates.
    case certificateIssuerInDirectCRL(offset: Int)

    /// The byte offset in the CRL's DER where the defect is.
    public var offset: Int {
        switch self {
        case let .signatureAlgorithmMismatch(_, _, offset), let .signatureNotWholeOctets(offset),
            let .unhandledCriticalEntryExtension(_, offset), let .certificateIssuerInDirectCRL(offset):
            return offset
        }
    }

    /// One line naming the defect, the rule it breaks and where it is.
    public var description: String {
        switch self {
        case let .signatureAlgorithmMismatch(inner, outer, offset):
            return "signatureAlgorithm \(outer) differs from tbsCertList.signature \(inner) (RFC 5280 §5.1.1.2) at byte \(offset)"
        case let .signatureNotWholeOctets(offset):
            return "signatureValue is not whole octets (RFC 5280 §5.1.1.3) at byte \(offset)"
        case let .unhandledCriticalEntryExtension(oid, offset):
            return "unhandled critical CRL entry extension \(oid) (RFC 5280 §5.3) at byte \(offset)"
        case let .certificateIssuerInDirectCRL(offset):
            return "certificateIssuer entry extension in a CRL that is not indirect (RFC 5280 §5.3.3) at byte \(offset)"
        }
    }
}
