import TrustCrypto
import TrustDER

/// A certificate's extensions: every one kept raw, plus typed views of the known ones.
///
/// Every known extension is checked when the certificate is parsed, and a malformed one makes the
/// certificate unreadable (fail closed) rather than silently absent. What is kept is the encoded
/// list, which known extensions it holds and which are critical, where their values and the two key
/// identifiers lie, and the views that allocate nothing (``basicConstraints``, ``keyUsage``,
/// ``policyConstraints``, ``inhibitAnyPolicy``); the other views are decoded on first use, once, and shared by every
/// copy. A small value over shared immutable storage: `certificate.extensions` costs at most one
/// reference count, not a copy, and none when another module reads a view through the inlinable
/// getters.
public struct Extensions: Hashable, Sendable {
    @usableFromInline let data: ExtensionsData

    /// No extensions (v1/v2 certificates).
    static let empty = Extensions(data: ExtensionsData())

    init(data: ExtensionsData) { self.data = data }

    /// Parses the `Extensions` SEQUENCE `element` of `bytes` (the content of tbsCertificate's `[3]`).
    init(parsing element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws {
        data = try ExtensionsData(parsing: element, in: bytes)
    }

    /// Parses an `Extensions` SEQUENCE into raw extensions (see ``Extension/parseList(_:in:)``).
    static func parseList(_ element: DERElement) throws -> [Extension] {
        try Extension.parseList(element.indexed, in: element.encoded)
    }

    /// Every extension, in encoded order (built on first use).
    public var all: [Extension] { data.all }
    /// basicConstraints (RFC 5280 §4.2.1.9).
    @inlinable public var basicConstraints: BasicConstraints? { data.basicConstraints }
    /// keyUsage (RFC 5280 §4.2.1.3).
    @inlinable public var keyUsage: KeyUsage? { data.keyUsage }
    /// extKeyUsage (RFC 5280 §4.2.1.12).
    @inlinable public var extendedKeyUsage: ExtendedKeyUsage? { data.validationView(.extendedKeyUsage) { $0.extendedKeyUsage } }
    /// subjectAltName entries (RFC 5280 §4.2.1.6).
    @inlinable public var subjectAlternativeNames: [GeneralName]? {
        data.validationView(.subjectAltName) { $0.subjectAlternativeNames }
    }
    /// issuerAltName entries (RFC 5280 §4.2.1.7).
    public var issuerAlternativeNames: [GeneralName]? { data.contains(.issuerAltName) ? data.other.issuerAlternativeNames : nil }
    /// nameConstraints (RFC 5280 §4.2.1.10).
    @inlinable public var nameConstraints: NameConstraints? { data.validationView(.nameConstraints) { $0.nameConstraints } }
    /// authorityKeyIdentifier (RFC 5280 §4.2.1.1).
    @inlinable public var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        data.validationView(.authorityKeyIdentifier) { $0.authorityKeyIdentifier }
    }
    /// subjectKeyIdentifier (RFC 5280 §4.2.1.2).
    @inlinable public var subjectKeyIdentifier: SubjectKeyIdentifier? { data.subjectKeyID.map(SubjectKeyIdentifier.init(keyIdentifier:)) }
    /// The authorityKeyIdentifier's keyIdentifier alone, located at parse time: chain building reads
    /// it for every issuer candidate, without decoding the whole view (issuer and serial included)
    /// as ``authorityKeyIdentifier`` does.
    @inlinable package var authorityKeyID: ArraySlice<UInt8>? { data.authorityKeyID }
    /// The subjectKeyIdentifier's octets, located at parse time (what ``subjectKeyIdentifier`` wraps).
    @inlinable package var subjectKeyID: ArraySlice<UInt8>? { data.subjectKeyID }
    /// certificatePolicies (RFC 5280 §4.2.1.4).
    @inlinable public var certificatePolicies: CertificatePolicies? {
        data.validationView(.certificatePolicies) { $0.certificatePolicies }
    }
    /// policyMappings (RFC 5280 §4.2.1.5).
    public var policyMappings: PolicyMappings? { data.validationView(.policyMappings) { $0.policyMappings } }
    /// policyConstraints (RFC 5280 §4.2.1.11).
    public var policyConstraints: PolicyConstraints? { data.policyConstraints }
    /// inhibitAnyPolicy (RFC 5280 §4.2.1.14).
    public var inhibitAnyPolicy: InhibitAnyPolicy? { data.inhibitAnyPolicy }
    /// cRLDistributionPoints (RFC 5280 §4.2.1.13).
    public var crlDistributionPoints: CRLDistributionPoints? {
        data.contains(.crlDistributionPoints) ? data.other.crlDistributionPoints : nil
    }
    /// authorityInfoAccess (RFC 5280 §4.2.2.1).
    public var authorityInformationAccess: AuthorityInformationAccess? {
        data.contains(.authorityInfoAccess) ? data.other.authorityInformationAccess : nil
    }
    /// TLS feature (RFC 7633).
    public var tlsFeature: TLSFeature? { data.contains(.tlsFeature) ? data.other.tlsFeature : nil }
    /// The raw SignedCertificateTimestampList (RFC 6962 §3.3), not decoded.
    public var signedCertificateTimestamps: ArraySlice<UInt8>? {
        data.contains(.sctList) ? data.other.signedCertificateTimestamps : nil
    }

    /// Whether an extension of `kind` is present.
    @inlinable package func contains(_ kind: ExtensionKind) -> Bool { data.contains(kind) }
    /// Whether the extension of `kind` is present and marked critical.
    @inlinable package func isCritical(_ kind: ExtensionKind) -> Bool { data.criticalKinds & kind.bit != 0 }
    /// nil when no extension of `kind` is present, else whether it is marked critical (from the bit
    /// sets kept at parse time: no walk over the list).
    @inlinable package func criticality(of kind: ExtensionKind) -> Bool? { contains(kind) ? isCritical(kind) : nil }
    /// Whether an extension without a typed view (an ``ExtensionKind``) is marked critical.
    @inlinable package var hasCriticalUnknownExtension: Bool { data.hasUnknownCritical }
    /// The name of the first extension validation reads whose value did not decode on first use, if
    /// any. Never expected (its value passed the same code at parse time); path validation rejects
    /// the certificate if it happens, rather than reading the view as absent.
    package var undecodableValidationView: String? {
        guard let kind = data.undecodableValidationView else { return nil }
        return all.first { $0.kind == kind }?.name ?? "\(kind)"
    }
    /// Whether ``all`` holds every extension the parse counted (never expected to be false).
    package var listIsComplete: Bool { data.listIsComplete }
    /// The known kinds present that are marked critical, as ``ExtensionKind/bit``s.
    @inlinable package var criticalKnownKinds: UInt32 { data.criticalKinds }

    /// The extension with `oid`, if present.
    public subscript(oid: ASN1ObjectIdentifier) -> Extension? { all.first { $0.oid == oid } }

    /// Critical extensions whose OID is not in `understood`.
    public func criticalExtensions(notIn understood: Set<ASN1ObjectIdentifier>) -> [Extension] {
        all.filter { $0.isCritical && !understood.contains($0.oid) }
    }

    /// Equal when the raw extensions are equal (the views are derived from them): the same
    /// encoded list at the same offset (DER is canonical, so equal extensions are equal bytes).
    public static func == (lhs: Extensions, rhs: Extensions) -> Bool {
        lhs.data === rhs.data
            || (lhs.data.encoded.startIndex == rhs.data.encoded.startIndex && ByteComparison.equal(lhs.data.encoded, rhs.data.encoded))
    }

    /// Hashes the encoded list (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        data.encoded.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
