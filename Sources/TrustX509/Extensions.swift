import TrustCrypto
import TrustDER

/// One extension as encoded: OID, criticality and the raw extnValue octets.
///
/// Kept compact (a certificate holds a dozen, for as long as it lives): the element's bytes once,
/// and where the OID and the value lie in them.
public struct Extension: Hashable, Sendable {
    /// The whole Extension element, in the certificate's (or CRL's) buffer.
    private let encoded: ArraySlice<UInt8>
    /// Where the OID's content octets start and how many there are, relative to `encoded`.
    private let oidStart: UInt32, oidLength: UInt32
    /// Where the extnValue contents start, relative to `encoded`; they run to the element's end
    /// (extnValue is the element's last field).
    private let valueStart: UInt32
    /// Whether it is marked critical.
    public let isCritical: Bool
    /// Which known extension this is, decided once from the OID bytes when parsed (or nil).
    public let kind: ExtensionKind?

    /// An extension read from `element` of `bytes`, its OID's and value's contents at `oid` and `value`.
    init(element: DERIndexedElement, oid: Range<Int>, value: Range<Int>, in bytes: ArraySlice<UInt8>,
         kind: ExtensionKind?, isCritical: Bool) {
        encoded = bytes[element.encodedRange]
        // Offsets inside the element, which parseList checked to be smaller than 4 GiB.
        oidStart = UInt32(truncatingIfNeeded: oid.lowerBound - element.offset)
        oidLength = UInt32(truncatingIfNeeded: oid.count)
        valueStart = UInt32(truncatingIfNeeded: value.lowerBound - element.offset)
        self.kind = kind
        self.isCritical = isCritical
    }

    /// The extension's OID.
    public var oid: ASN1ObjectIdentifier {
        let start = encoded.startIndex + Int(oidStart)
        return ASN1ObjectIdentifier(trusted: encoded[start..<(start + Int(oidLength))])
    }
    /// The extnValue contents (the DER of the extension's own structure).
    public var value: ArraySlice<UInt8> { encoded[(encoded.startIndex + Int(valueStart))...] }
    /// The absolute offset of the Extension element.
    public var offset: Int { encoded.startIndex }

    /// The extension's readable name, e.g. `basicConstraints`.
    public var name: String { OID.name(of: oid) }

    /// Equal when OID, criticality, value and offset are.
    public static func == (lhs: Extension, rhs: Extension) -> Bool {
        lhs.offset == rhs.offset && lhs.isCritical == rhs.isCritical && lhs.oid == rhs.oid && ByteComparison.equal(lhs.value, rhs.value)
    }

    /// Hashes the OID, criticality and offset (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(oid)
        hasher.combine(isCritical)
        hasher.combine(offset)
    }
}

/// A certificate's extensions: every one kept raw, plus typed views of the known ones.
///
/// Every known extension is checked when the certificate is parsed, and a malformed one makes the
/// certificate unreadable (fail closed) rather than silently absent. The views validation reads are
/// decoded then too; ``issuerAlternativeNames``, ``crlDistributionPoints`` and
/// ``authorityInformationAccess`` (read only to fetch revocation information, to diagnose and to
/// display) on first use. A small value over shared immutable storage: `certificate.extensions`
/// costs at most one reference count, not a copy, and none when another module reads a view through
/// the inlinable getters.
public struct Extensions: Hashable, Sendable {
    @usableFromInline let data: ExtensionsData

    /// No extensions (v1/v2 certificates).
    static let empty = Extensions(data: ExtensionsData(all: []))

    init(data: ExtensionsData) { self.data = data }

    /// Parses the `Extensions` SEQUENCE `element` of `bytes` (the content of tbsCertificate's `[3]`).
    init(parsing element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws {
        data = try ExtensionsData(parsing: element, in: bytes)
    }

    /// Parses an `Extensions` SEQUENCE into raw extensions (see ``ExtensionsData``).
    static func parseList(_ element: DERElement) throws -> [Extension] {
        try ExtensionsData.parseList(element.indexed, in: element.encoded)
    }

    /// Every extension, in encoded order.
    public var all: [Extension] { data.all }
    /// basicConstraints (RFC 5280 §4.2.1.9).
    @inlinable public var basicConstraints: BasicConstraints? { data.basicConstraints }
    /// keyUsage (RFC 5280 §4.2.1.3).
    @inlinable public var keyUsage: KeyUsage? { data.keyUsage }
    /// extKeyUsage (RFC 5280 §4.2.1.12).
    @inlinable public var extendedKeyUsage: ExtendedKeyUsage? { data.extendedKeyUsage }
    /// subjectAltName entries (RFC 5280 §4.2.1.6).
    @inlinable public var subjectAlternativeNames: [GeneralName]? { data.subjectAlternativeNames }
    /// issuerAltName entries (RFC 5280 §4.2.1.7).
    public var issuerAlternativeNames: [GeneralName]? { data.issuerAlternativeNames }
    /// nameConstraints (RFC 5280 §4.2.1.10).
    @inlinable public var nameConstraints: NameConstraints? { data.nameConstraints }
    /// authorityKeyIdentifier (RFC 5280 §4.2.1.1).
    @inlinable public var authorityKeyIdentifier: AuthorityKeyIdentifier? { data.authorityKeyIdentifier }
    /// subjectKeyIdentifier (RFC 5280 §4.2.1.2).
    @inlinable public var subjectKeyIdentifier: SubjectKeyIdentifier? { data.subjectKeyIdentifier }
    /// The authorityKeyIdentifier's keyIdentifier alone: read in place, without copying the whole
    /// view (issuer and serial included) as ``authorityKeyIdentifier`` does; chain building reads it
    /// for every issuer candidate.
    @inlinable package var authorityKeyID: ArraySlice<UInt8>? { data.authorityKeyIdentifier?.keyIdentifier }
    /// certificatePolicies (RFC 5280 §4.2.1.4).
    @inlinable public var certificatePolicies: CertificatePolicies? { data.certificatePolicies }
    /// policyMappings (RFC 5280 §4.2.1.5).
    public var policyMappings: PolicyMappings? { data.policyMappings }
    /// policyConstraints (RFC 5280 §4.2.1.11).
    public var policyConstraints: PolicyConstraints? { data.policyConstraints }
    /// inhibitAnyPolicy (RFC 5280 §4.2.1.14).
    public var inhibitAnyPolicy: InhibitAnyPolicy? { data.inhibitAnyPolicy }
    /// cRLDistributionPoints (RFC 5280 §4.2.1.13).
    public var crlDistributionPoints: CRLDistributionPoints? { data.crlDistributionPoints }
    /// authorityInfoAccess (RFC 5280 §4.2.2.1).
    public var authorityInformationAccess: AuthorityInformationAccess? { data.authorityInformationAccess }
    /// TLS feature (RFC 7633).
    public var tlsFeature: TLSFeature? { data.tlsFeature }
    /// The raw SignedCertificateTimestampList (RFC 6962 §3.3), not decoded.
    public var signedCertificateTimestamps: ArraySlice<UInt8>? { data.signedCertificateTimestamps }

    /// The extension with `oid`, if present.
    public subscript(oid: ASN1ObjectIdentifier) -> Extension? { all.first { $0.oid == oid } }

    /// Critical extensions whose OID is not in `understood`.
    public func criticalExtensions(notIn understood: Set<ASN1ObjectIdentifier>) -> [Extension] {
        all.filter { $0.isCritical && !understood.contains($0.oid) }
    }

    /// Equal when the raw extensions are equal (the views are derived from them).
    public static func == (lhs: Extensions, rhs: Extensions) -> Bool { lhs.data === rhs.data || lhs.data.all == rhs.data.all }

    /// Hashes the raw extensions' count and OIDs.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data.all.count)
        for ext in data.all { hasher.combine(ext.oid) }
    }
}

/// The decoded extensions, shared by every copy of an ``Extensions`` value.
@usableFromInline final class ExtensionsData: Sendable {
    /// Every extension, in encoded order.
    let all: [Extension]
    /// basicConstraints (RFC 5280 §4.2.1.9).
    @usableFromInline let basicConstraints: BasicConstraints?
    /// keyUsage (RFC 5280 §4.2.1.3).
    @usableFromInline let keyUsage: KeyUsage?
    /// extKeyUsage (RFC 5280 §4.2.1.12).
    @usableFromInline let extendedKeyUsage: ExtendedKeyUsage?
    /// subjectAltName entries (RFC 5280 §4.2.1.6).
    @usableFromInline let subjectAlternativeNames: [GeneralName]?
    /// nameConstraints (RFC 5280 §4.2.1.10).
    @usableFromInline let nameConstraints: NameConstraints?
    /// authorityKeyIdentifier (RFC 5280 §4.2.1.1).
    @usableFromInline let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// subjectKeyIdentifier (RFC 5280 §4.2.1.2).
    @usableFromInline let subjectKeyIdentifier: SubjectKeyIdentifier?
    /// certificatePolicies (RFC 5280 §4.2.1.4).
    @usableFromInline let certificatePolicies: CertificatePolicies?
    /// policyMappings (RFC 5280 §4.2.1.5).
    let policyMappings: PolicyMappings?
    /// policyConstraints (RFC 5280 §4.2.1.11).
    let policyConstraints: PolicyConstraints?
    /// inhibitAnyPolicy (RFC 5280 §4.2.1.14).
    let inhibitAnyPolicy: InhibitAnyPolicy?
    /// TLS feature (RFC 7633).
    let tlsFeature: TLSFeature?
    /// The raw SignedCertificateTimestampList (RFC 6962 §3.3), not decoded.
    let signedCertificateTimestamps: ArraySlice<UInt8>?
    /// Semantic defects found in the known extensions (e.g. a non-ASCII dNSName).
    let defects: [CertificateDefect]
    /// The views validation does not read, decoded on first use.
    private let deferred = ComputedOnce<DeferredViews>()

    /// The views only revocation fetching, diagnostics and display read: issuerAltName,
    /// cRLDistributionPoints and authorityInfoAccess. Their extensions are checked against every
    /// rule when the certificate is parsed (a malformed one is a parse error), by the same code
    /// that decodes them here on first use, so decoding cannot fail; were it ever to, the view
    /// would read as absent, which is what a certificate without the extension presents anyway.
    final class DeferredViews: Sendable {
        let issuerAlternativeNames: [GeneralName]?
        let crlDistributionPoints: CRLDistributionPoints?
        let authorityInformationAccess: AuthorityInformationAccess?

        init(_ all: [Extension]) {
            var issuerAlternativeNames: [GeneralName]?, crlDistributionPoints: CRLDistributionPoints?
            var authorityInformationAccess: AuthorityInformationAccess?
            for ext in all {
                switch ext.kind {
                case .issuerAltName: issuerAlternativeNames = try? GeneralName.readSequence(ext.value, building: true)
                case .crlDistributionPoints: crlDistributionPoints = (try? CRLDistributionPoints.read(ext.value, building: true)) ?? nil
                case .authorityInfoAccess:
                    authorityInformationAccess = (try? AuthorityInformationAccess.read(ext.value, building: true)) ?? nil
                default: continue
                }
            }
            self.issuerAlternativeNames = issuerAlternativeNames
            self.crlDistributionPoints = crlDistributionPoints
            self.authorityInformationAccess = authorityInformationAccess
        }
    }

    private var deferredViews: DeferredViews { deferred.value { DeferredViews(all) } }
    /// issuerAltName entries (RFC 5280 §4.2.1.7), decoded on first use.
    var issuerAlternativeNames: [GeneralName]? { deferredViews.issuerAlternativeNames }
    /// cRLDistributionPoints (RFC 5280 §4.2.1.13), decoded on first use.
    var crlDistributionPoints: CRLDistributionPoints? { deferredViews.crlDistributionPoints }
    /// authorityInfoAccess (RFC 5280 §4.2.2.1), decoded on first use.
    var authorityInformationAccess: AuthorityInformationAccess? { deferredViews.authorityInformationAccess }

    init(all: [Extension]) {
        self.all = all
        defects = []
        basicConstraints = nil; keyUsage = nil; extendedKeyUsage = nil; subjectAlternativeNames = nil
        nameConstraints = nil; authorityKeyIdentifier = nil
        subjectKeyIdentifier = nil; certificatePolicies = nil; policyMappings = nil; policyConstraints = nil
        inhibitAnyPolicy = nil; tlsFeature = nil; signedCertificateTimestamps = nil
    }

    /// Parses an `Extensions` SEQUENCE into raw extensions: no duplicates (RFC 5280 §4.2), DER
    /// criticality (FALSE omitted), at least one entry (§4.1.2.9).
    static func parseList(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws -> [Extension] {
        try element.expect(.sequence)
        var reader = try element.children()
        var all: [Extension] = []
        all.reserveCapacity(12)
        var seenKnown: UInt32 = 0
        var seenUnknown: Set<ASN1ObjectIdentifier> = []
        while let located = try reader.next(in: bytes) {
            try located.expect(.sequence)
            // Extension keeps 32-bit offsets inside the element (a CRL has no size cap).
            guard located.encodedRange.count <= UInt32.max else { throw X509Error.structure("extension larger than 4 GiB", at: located.offset) }
            var fields = try located.children()
            let oidElement = try fields.read(.objectIdentifier, in: bytes)
            let oid = try ASN1ObjectIdentifier(validating: bytes[oidElement.contentRange], at: oidElement.offset)
            var critical = false
            var valueElement = try fields.readAny(in: bytes)
            if valueElement.tag == .boolean {
                critical = try valueElement.boolean(in: bytes)
                // DEFAULT FALSE must be omitted in DER (X.690 §11.5).
                if !critical { throw X509Error.structure("critical FALSE must be omitted (DEFAULT)", at: valueElement.offset) }
                valueElement = try fields.readAny(in: bytes)
            }
            try valueElement.expect(.octetString)
            try fields.finish()
            // RFC 5280 §4.2: at most one instance of each extension. Known ones are tracked in a
            // bit set, others in a set hashed with the per-process seeded hasher: linear in the
            // number of extensions, whatever OIDs an attacker picks.
            let kind = ExtensionKind(oid)
            if let kind {
                let bit: UInt32 = 1 << kind.bitIndex
                if seenKnown & bit != 0 { throw X509Error(.duplicateExtension(oid: OID.name(of: oid), offset: located.offset)) }
                seenKnown |= bit
            } else if !seenUnknown.insert(oid).inserted {
                throw X509Error(.duplicateExtension(oid: OID.name(of: oid), offset: located.offset))
            }
            all.append(Extension(element: located, oid: oidElement.contentRange, value: valueElement.contentRange, in: bytes,
                                 kind: kind, isCritical: critical))
        }
        if all.isEmpty { throw X509Error.structure("extensions must not be empty", at: element.offset) }
        return all
    }

    /// Parses the `Extensions` SEQUENCE `element` of `bytes` (the content of tbsCertificate's `[3]`).
    init(parsing element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws {
        let all = try ExtensionsData.parseList(element, in: bytes)
        self.all = all
        var basicConstraints: BasicConstraints?, keyUsage: KeyUsage?, extendedKeyUsage: ExtendedKeyUsage?
        var subjectAlternativeNames: [GeneralName]?
        var nameConstraints: NameConstraints?, authorityKeyIdentifier: AuthorityKeyIdentifier?
        var subjectKeyIdentifier: SubjectKeyIdentifier?, certificatePolicies: CertificatePolicies?
        var policyMappings: PolicyMappings?, policyConstraints: PolicyConstraints?, inhibitAnyPolicy: InhibitAnyPolicy?
        var tlsFeature: TLSFeature?, signedCertificateTimestamps: ArraySlice<UInt8>?
        var defects: [CertificateDefect] = []
        // One pass, dispatching on the OID's encoded bytes (no per-view scan of the list).
        for ext in all {
            guard let kind = ext.kind else { continue }
            do {
                let value = ext.value
                switch kind {
                case .basicConstraints: basicConstraints = try BasicConstraints.parse(value)
                case .keyUsage: keyUsage = try KeyUsage.parse(value)
                case .extendedKeyUsage: extendedKeyUsage = try ExtendedKeyUsage.parse(value)
                case .subjectAltName:
                    // A non-ASCII dNSName is a defect judged by validation, not a parse error
                    // (OpenSSL, pyca/cryptography and Chromium read such certificates).
                    subjectAlternativeNames = try GeneralName.parseSequence(value) { offset in
                        defects.append(.nonASCIIDNSName(offset: offset))
                    }
                // issuerAltName, cRLDistributionPoints and authorityInfoAccess: checked now, decoded
                // on first use (see DeferredViews).
                case .issuerAltName: _ = try GeneralName.readSequence(value, building: false)
                case .nameConstraints: nameConstraints = try NameConstraints.parse(value)
                case .authorityKeyIdentifier: authorityKeyIdentifier = try AuthorityKeyIdentifier.parse(value)
                case .subjectKeyIdentifier: subjectKeyIdentifier = try SubjectKeyIdentifier.parse(value)
                case .certificatePolicies: certificatePolicies = try CertificatePolicies.parse(value)
                case .policyMappings: policyMappings = try PolicyMappings.parse(value)
                case .policyConstraints: policyConstraints = try PolicyConstraints.parse(value)
                case .inhibitAnyPolicy: inhibitAnyPolicy = try InhibitAnyPolicy.parse(value)
                case .crlDistributionPoints: _ = try CRLDistributionPoints.read(value, building: false)
                case .authorityInfoAccess: _ = try AuthorityInformationAccess.read(value, building: false)
                case .tlsFeature: tlsFeature = try TLSFeature.parse(value)
                case .sctList: signedCertificateTimestamps = try DERIndexReader.parseSingle(value).octetString(in: value)
                }
            } catch {
                let underlying = (error as? CustomStringConvertible)?.description ?? "\(error)"
                throw X509Error(.malformedExtension(name: ext.name, underlying: underlying, offset: ext.offset))
            }
        }
        self.basicConstraints = basicConstraints
        self.keyUsage = keyUsage
        self.extendedKeyUsage = extendedKeyUsage
        self.subjectAlternativeNames = subjectAlternativeNames
        self.nameConstraints = nameConstraints
        self.authorityKeyIdentifier = authorityKeyIdentifier
        self.subjectKeyIdentifier = subjectKeyIdentifier
        self.certificatePolicies = certificatePolicies
        self.policyMappings = policyMappings
        self.policyConstraints = policyConstraints
        self.inhibitAnyPolicy = inhibitAnyPolicy
        self.tlsFeature = tlsFeature
        self.signedCertificateTimestamps = signedCertificateTimestamps
        self.defects = defects
    }
}

/// The extensions with typed views, recognised from their encoded OID bytes in O(1): id-ce
/// (2.5.29.n) is `55 1D n`, id-pe (1.3.6.1.5.5.7.1.n) is `2B 06 01 05 05 07 01 n`.
public enum ExtensionKind: Int, Hashable, Sendable {
    case basicConstraints, keyUsage, extendedKeyUsage, subjectAltName, issuerAltName, nameConstraints
    case authorityKeyIdentifier, subjectKeyIdentifier, certificatePolicies, policyMappings, policyConstraints
    case inhibitAnyPolicy, crlDistributionPoints, authorityInfoAccess, tlsFeature, sctList

    /// A distinct bit position per kind (for duplicate detection).
    var bitIndex: UInt32 { UInt32(rawValue) }

    /// The kind of the extension with encoded OID `oid`, or nil when it has no typed view.

    /// id-ce (2.5.29) is `55 1D`; id-pe (1.3.6.1.5.5.7.1) is `2B 06 01 05 05 07 01`.
    private static let idPE: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01]
    private static let sct: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x02]

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
