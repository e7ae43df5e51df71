import TrustDER

/// One extension as encoded: OID, criticality and the raw extnValue octets.
public struct Extension: Hashable, Sendable {
    /// The extension's OID.
    public let oid: ASN1ObjectIdentifier
    /// Whether it is marked critical.
    public let isCritical: Bool
    /// The extnValue contents (the DER of the extension's own structure).
    public let value: ArraySlice<UInt8>
    /// The absolute offset of the Extension element.
    public let offset: Int

    /// The extension's readable name, e.g. `basicConstraints`.
    public var name: String { OID.name(of: oid) }
}

/// A certificate's extensions: every one kept raw, plus typed views of the known ones.
///
/// Known extensions are decoded when the certificate is parsed; a malformed known extension
/// makes the certificate unreadable (fail closed) rather than silently absent.
public struct Extensions: Hashable, Sendable {
    /// Every extension, in encoded order.
    public let all: [Extension]
    /// basicConstraints (RFC 5280 §4.2.1.9).
    public let basicConstraints: BasicConstraints?
    /// keyUsage (RFC 5280 §4.2.1.3).
    public let keyUsage: KeyUsage?
    /// extKeyUsage (RFC 5280 §4.2.1.12).
    public let extendedKeyUsage: ExtendedKeyUsage?
    /// subjectAltName entries (RFC 5280 §4.2.1.6).
    public let subjectAlternativeNames: [GeneralName]?
    /// issuerAltName entries (RFC 5280 §4.2.1.7).
    public let issuerAlternativeNames: [GeneralName]?
    /// nameConstraints (RFC 5280 §4.2.1.10).
    public let nameConstraints: NameConstraints?
    /// authorityKeyIdentifier (RFC 5280 §4.2.1.1).
    public let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// subjectKeyIdentifier (RFC 5280 §4.2.1.2).
    public let subjectKeyIdentifier: SubjectKeyIdentifier?
    /// certificatePolicies (RFC 5280 §4.2.1.4).
    public let certificatePolicies: CertificatePolicies?
    /// policyMappings (RFC 5280 §4.2.1.5).
    public let policyMappings: PolicyMappings?
    /// policyConstraints (RFC 5280 §4.2.1.11).
    public let policyConstraints: PolicyConstraints?
    /// inhibitAnyPolicy (RFC 5280 §4.2.1.14).
    public let inhibitAnyPolicy: InhibitAnyPolicy?
    /// cRLDistributionPoints (RFC 5280 §4.2.1.13).
    public let crlDistributionPoints: CRLDistributionPoints?
    /// authorityInfoAccess (RFC 5280 §4.2.2.1).
    public let authorityInformationAccess: AuthorityInformationAccess?
    /// TLS feature (RFC 7633).
    public let tlsFeature: TLSFeature?
    /// The raw SignedCertificateTimestampList (RFC 6962 §3.3), not decoded.
    public let signedCertificateTimestamps: ArraySlice<UInt8>?

    /// No extensions (v1/v2 certificates).
    static let empty = Extensions(all: [])

    /// The extension with `oid`, if present.
    public subscript(oid: ASN1ObjectIdentifier) -> Extension? { all.first { $0.oid == oid } }

    /// Critical extensions whose OID is not in `understood`.
    public func criticalExtensions(notIn understood: Set<ASN1ObjectIdentifier>) -> [Extension] {
        all.filter { $0.isCritical && !understood.contains($0.oid) }
    }

    init(all: [Extension]) {
        self.all = all
        basicConstraints = nil; keyUsage = nil; extendedKeyUsage = nil; subjectAlternativeNames = nil
        issuerAlternativeNames = nil; nameConstraints = nil; authorityKeyIdentifier = nil
        subjectKeyIdentifier = nil; certificatePolicies = nil; policyMappings = nil; policyConstraints = nil
        inhibitAnyPolicy = nil; crlDistributionPoints = nil; authorityInformationAccess = nil
        tlsFeature = nil; signedCertificateTimestamps = nil
    }

    /// Parses an `Extensions` SEQUENCE into raw extensions: no duplicates (RFC 5280 §4.2), DER
    /// criticality (FALSE omitted), at least one entry (§4.1.2.9).
    static func parseList(_ element: DERElement) throws -> [Extension] {
        try element.expect(.sequence)
        var reader = try element.children()
        var all: [Extension] = []
        while let next = try reader.next() {
            try next.expect(.sequence)
            var fields = try next.children()
            let oid = try fields.read(.objectIdentifier).objectIdentifier()
            var critical = false
            if let flag = try fields.readIfPresent(.boolean) {
                critical = try flag.boolean()
                // DEFAULT FALSE must be omitted in DER (X.690 §11.5).
                if !critical { throw X509Error.structure("critical FALSE must be omitted (DEFAULT)", at: flag.offset) }
            }
            let value = try fields.read(.octetString).content
            try fields.finish()
            if all.contains(where: { $0.oid == oid }) {
                throw X509Error(.duplicateExtension(oid: OID.name(of: oid), offset: next.offset))
            }
            all.append(Extension(oid: oid, isCritical: critical, value: value, offset: next.offset))
        }
        if all.isEmpty { throw X509Error.structure("extensions must not be empty", at: element.offset) }
        return all
    }

    /// Parses the `Extensions` SEQUENCE (the content of tbsCertificate's `[3]`).
    init(parsing element: DERElement) throws {
        let all = try Extensions.parseList(element)
        self.all = all

        func view<T>(_ oid: ASN1ObjectIdentifier, _ parse: (ArraySlice<UInt8>) throws -> T) throws -> T? {
            guard let found = all.first(where: { $0.oid == oid }) else { return nil }
            do {
                return try parse(found.value)
            } catch {
                let underlying = (error as? CustomStringConvertible)?.description ?? "\(error)"
                throw X509Error(.malformedExtension(name: found.name, underlying: underlying, offset: found.offset))
            }
        }
        basicConstraints = try view(OID.basicConstraints, BasicConstraints.parse)
        keyUsage = try view(OID.keyUsage, KeyUsage.parse)
        extendedKeyUsage = try view(OID.extendedKeyUsage, ExtendedKeyUsage.parse)
        subjectAlternativeNames = try view(OID.subjectAltName) { try GeneralName.parseSequence(DERReader.parseSingle($0)) }
        issuerAlternativeNames = try view(OID.issuerAltName) { try GeneralName.parseSequence(DERReader.parseSingle($0)) }
        nameConstraints = try view(OID.nameConstraints, NameConstraints.parse)
        authorityKeyIdentifier = try view(OID.authorityKeyIdentifier, AuthorityKeyIdentifier.parse)
        subjectKeyIdentifier = try view(OID.subjectKeyIdentifier, SubjectKeyIdentifier.parse)
        certificatePolicies = try view(OID.certificatePolicies, CertificatePolicies.parse)
        policyMappings = try view(OID.policyMappings, PolicyMappings.parse)
        policyConstraints = try view(OID.policyConstraints, PolicyConstraints.parse)
        inhibitAnyPolicy = try view(OID.inhibitAnyPolicy, InhibitAnyPolicy.parse)
        crlDistributionPoints = try view(OID.crlDistributionPoints, CRLDistributionPoints.parse)
        authorityInformationAccess = try view(OID.authorityInfoAccess, AuthorityInformationAccess.parse)
        tlsFeature = try view(OID.tlsFeature, TLSFeature.parse)
        signedCertificateTimestamps = try view(OID.sctList) { try DERReader.parseSingle($0).octetString() }
    }
}
