import TrustCrypto
import TrustDER

/// A certificate's extensions as kept: the Extensions SEQUENCE in the certificate's buffer, which
/// known kinds it holds and which are critical, the small views every evaluation reads, and the
/// rest decoded on first use. Shared by every copy of an ``Extensions`` value.
///
/// A parsed certificate keeps its DER and where things lie in it; views that allocate
/// (arrays, strings) are decoded when first read, so a certificate that is parsed and never
/// evaluated, or evaluated through the verdict cache, does not hold them. Every structural rule is
/// still checked once, here, at parse time.
@usableFromInline final class ExtensionsData: Sendable {
    /// The Extensions SEQUENCE, in the certificate's buffer (empty when there are none).
    @usableFromInline let encoded: ArraySlice<UInt8>
    /// The known kinds present (``ExtensionKind/bit``), and those of them marked critical.
    @usableFromInline let presentKinds: UInt32
    @usableFromInline let criticalKinds: UInt32
    /// Whether an extension without a typed view is marked critical.
    @usableFromInline let hasUnknownCritical: Bool
    /// How many extensions the list holds.
    let count: Int
    /// Where each known extension's extnValue lies in the certificate's buffer, by kind: the views
    /// decoded on first use read their value from here, without walking the list again.
    private let valueLocations: ValueLocations
    /// basicConstraints (RFC 5280 §4.2.1.9).
    @usableFromInline let basicConstraints: BasicConstraints?
    /// keyUsage (RFC 5280 §4.2.1.3).
    @usableFromInline let keyUsage: KeyUsage?
    /// Where the authorityKeyIdentifier's keyIdentifier (RFC 5280 §4.2.1.1) and the
    /// subjectKeyIdentifier (§4.2.1.2) lie: chain building reads them for every candidate issuer.
    @usableFromInline let authorityKeyIDLocation: ValueLocation?
    @usableFromInline let subjectKeyIDLocation: ValueLocation?
    /// policyConstraints (RFC 5280 §4.2.1.11).
    let policyConstraints: PolicyConstraints?
    /// inhibitAnyPolicy (RFC 5280 §4.2.1.14).
    let inhibitAnyPolicy: InhibitAnyPolicy?
    /// Semantic defects found in the known extensions (e.g. a non-ASCII dNSName).
    let defects: [CertificateDefect]
    /// Encodings read as Apple reads them though DER or RFC 5280 do not allow them (``EncodingFinding``:
    /// DEFAULT values written out, an otherName constraint without its `[0] EXPLICIT`), in encoding
    /// order; empty (no allocation) for a certificate without any.
    let encodingFindings: [EncodingFinding]
    /// The views validation reads, decoded on first use.
    @usableFromInline let validationViews = ComputedOnce<ValidationViews>()
    /// The views revocation fetching, diagnostics and display read, decoded on first use.
    private let otherViews = ComputedOnce<OtherViews>()
    /// Every extension as an ``Extension``, built on first use.
    private let list = ComputedOnce<ExtensionList>()

    /// Where one extnValue lies in the certificate's buffer: 4 bytes, as a certificate is at most
    /// 64 KiB (``Certificate/maximumEncodedSize``).
    @usableFromInline struct ValueLocation: Sendable {
        @usableFromInline let start: UInt16, count: UInt16
    }

    /// One ``ValueLocation`` per ``ExtensionKind`` (its raw value indexes it), inline: 64 bytes
    /// instead of an array's allocation. (A fixed tuple, as `InlineArray` needs Swift 6.2 and, on
    /// Apple platforms, macOS 26.)
    struct ValueLocations: Sendable {
        /// Each location as `start << 16 | count`; 0 for none (no value starts at offset 0, where
        /// the certificate's own header is).
        private var packed:
            (
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        /// How many kinds there is room for.
        static var count: Int { 16 }

        /// The location of the kind with raw value `index`, if one was stored (nil for an index
        /// without a slot).
        subscript(index: Int) -> ValueLocation? {
            get {
                guard index >= 0, index < ValueLocations.count else { return nil }
                let word = withUnsafeBytes(of: packed) { $0.load(fromByteOffset: index * 4, as: UInt32.self) }
                guard word != 0 else { return nil }
                return ValueLocation(start: UInt16(truncatingIfNeeded: word >> 16), count: UInt16(truncatingIfNeeded: word))
            }
            set {
                guard index >= 0, index < ValueLocations.count else { return }
                let word = newValue.map { UInt32($0.start) << 16 | UInt32($0.count) } ?? 0
                withUnsafeMutableBytes(of: &packed) { $0.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self) }
            }
        }
    }

    /// No extensions.
    init() {
        encoded = []
        presentKinds = 0; criticalKinds = 0; hasUnknownCritical = false; count = 0
        valueLocations = ValueLocations()
        basicConstraints = nil; keyUsage = nil; authorityKeyIDLocation = nil; subjectKeyIDLocation = nil
        policyConstraints = nil; inhibitAnyPolicy = nil
        defects = []
        encodingFindings = []
    }

    /// Parses the `Extensions` SEQUENCE `element` of `bytes` (the content of tbsCertificate's
    /// `[3]`): the list's rules, and every known extension against its own, in one pass.
    init(parsing element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws {
        encoded = bytes[element.encodedRange]
        var check = ExtensionListCheck()
        var basicConstraints: BasicConstraints?, keyUsage: KeyUsage?
        var authorityKeyIDLocation: ValueLocation?, subjectKeyIDLocation: ValueLocation?
        var policyConstraints: PolicyConstraints?
        var inhibitAnyPolicy: InhibitAnyPolicy?
        var defects: [CertificateDefect] = []
        var findings: [EncodingFinding] = []
        var valueLocations = ValueLocations()
        try Extension.forEach(
            in: element, of: bytes,
            explicitCriticalFalse: { offset, oid in
                findings.append(.explicitCriticalFalse(extensionName: OID.name(of: oid), offset: offset))
            }
        ) { ext in
            try check.add(ext)
            guard let kind = ext.kind else { return }
            let value = ext.value
            // Unreachable for a certificate (at most 64 KiB, ExtensionKindSetTests covers the
            // table's size), but never trusted: an extension whose value is not located is refused.
            func location(_ bytes: ArraySlice<UInt8>) throws -> ValueLocation {
                guard let start = UInt16(exactly: bytes.startIndex), let count = UInt16(exactly: bytes.count) else {
                    throw X509Error.structure("extension beyond the 64 KiB a certificate may have", at: ext.offset)
                }
                return ValueLocation(start: start, count: count)
            }
            guard kind.rawValue < ValueLocations.count else { throw X509Error.structure("extension kind without a slot", at: ext.offset) }
            valueLocations[kind.rawValue] = try location(value)
            var authorityKeyID: ArraySlice<UInt8>?, subjectKeyID: ArraySlice<UInt8>?
            do {
                switch kind {
                case .basicConstraints:
                    basicConstraints = try BasicConstraints.parse(value) { findings.append(.explicitCAFalse(offset: $0)) }
                case .keyUsage: keyUsage = try KeyUsage.parse(value)
                case .authorityKeyIdentifier: authorityKeyID = try AuthorityKeyIdentifier.read(value, building: false).keyIdentifier
                case .subjectKeyIdentifier: subjectKeyID = try SubjectKeyIdentifier.parse(value).keyIdentifier
                case .policyConstraints: policyConstraints = try PolicyConstraints.parse(value)
                case .inhibitAnyPolicy: inhibitAnyPolicy = try InhibitAnyPolicy.parse(value)
                // Checked now, decoded on first use (see ValidationViews and OtherViews).
                case .extendedKeyUsage: _ = try ExtendedKeyUsage.read(value, building: false)
                case .subjectAltName:
                    // A non-ASCII dNSName is a defect judged by validation, not a parse error
                    // (OpenSSL, pyca/cryptography and Chromium read such certificates).
                    _ = try GeneralName.readSequence(value, building: false) { offset in
                        defects.append(.nonASCIIDNSName(offset: offset))
                    }
                case .nameConstraints:
                    _ = try NameConstraints.read(value, building: false) { findings.append($0) }
                case .certificatePolicies: _ = try CertificatePolicies.read(value, building: false)
                case .policyMappings: _ = try PolicyMappings.read(value, building: false)
                case .issuerAltName: _ = try GeneralName.readSequence(value, building: false)
                case .crlDistributionPoints: _ = try CRLDistributionPoints.read(value, building: false)
                case .authorityInfoAccess: _ = try AuthorityInformationAccess.read(value, building: false)
                case .tlsFeature: _ = try TLSFeature.read(value, building: false)
                case .sctList: _ = try ExtensionsData.signedCertificateTimestamps(in: value)
                }
            } catch {
                let underlying = (error as? CustomStringConvertible)?.description ?? "\(error)"
                throw X509Error(.malformedExtension(name: ext.name, underlying: underlying, offset: ext.offset))
            }
            if let authorityKeyID { authorityKeyIDLocation = try location(authorityKeyID) }
            if let subjectKeyID { subjectKeyIDLocation = try location(subjectKeyID) }
        }
        try check.finish(element)
        presentKinds = check.presentKinds
        criticalKinds = check.criticalKinds
        hasUnknownCritical = check.hasUnknownCritical
        count = check.count
        self.valueLocations = valueLocations
        self.basicConstraints = basicConstraints
        self.keyUsage = keyUsage
        self.authorityKeyIDLocation = authorityKeyIDLocation
        self.subjectKeyIDLocation = subjectKeyIDLocation
        self.policyConstraints = policyConstraints
        self.inhibitAnyPolicy = inhibitAnyPolicy
        self.defects = defects
        encodingFindings = findings
    }

    /// The SignedCertificateTimestampList's octets (RFC 6962 §3.3): an OCTET STRING inside the
    /// extnValue, not decoded further.
    static func signedCertificateTimestamps(in value: ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
        try DERIndexReader.parseSingle(value).octetString(in: value)
    }

    /// The extnValue of the extension of `kind`, if present.
    func value(of kind: ExtensionKind) -> ArraySlice<UInt8>? {
        guard contains(kind) else { return nil }
        // A present kind always has a location (set by the same parse step); were one missing,
        // the empty value fails to decode and the view is reported undecodable (fail closed).
        guard let location = valueLocations[kind.rawValue] else { return encoded[encoded.startIndex..<encoded.startIndex] }
        return bytes(at: location)
    }

    /// The authorityKeyIdentifier's keyIdentifier, if present (inlinable: chain building reads it
    /// for every candidate issuer, and so borrows this object rather than retaining it).
    @inlinable var authorityKeyID: ArraySlice<UInt8>? { authorityKeyIDLocation.map(bytes(at:)) }
    /// The subjectKeyIdentifier's octets, if present (inlinable, as ``authorityKeyID``).
    @inlinable var subjectKeyID: ArraySlice<UInt8>? { subjectKeyIDLocation.map(bytes(at:)) }

    /// The bytes at `location` in the certificate's buffer.
    @inlinable func bytes(at location: ValueLocation) -> ArraySlice<UInt8> {
        let start = Int(location.start), end = start + Int(location.count)
        // Within `encoded` by construction; checked anyway rather than trusted. Out of range, the
        // bytes are empty: a view then fails to decode (reported, never read as absent) and an
        // empty key identifier matches no other (fail closed).
        guard start >= encoded.startIndex, start <= end, end <= encoded.endIndex else {
            return encoded[encoded.startIndex..<encoded.startIndex]
        }
        return encoded[start..<end]
    }

    /// Each extension of `encoded`, a list checked when it was parsed, in encoded order.
    static func forEach(in encoded: ArraySlice<UInt8>, _ body: (Extension) -> Void) {
        // Cannot fail: the same bytes passed the same walk at parse time (empty: no extensions).
        guard let element = try? DERIndexReader.parseSingle(encoded) else { return }
        try? Extension.forEach(in: element, of: encoded, oidsChecked: true, explicitCriticalFalse: { _, _ in }, body)
    }

    /// Whether an extension of `kind` is present.
    @inlinable func contains(_ kind: ExtensionKind) -> Bool { presentKinds & kind.bit != 0 }

    /// `body` applied to the validation views (decoded on first use) when an extension of `kind`
    /// is present, nil otherwise: a certificate without the extension never decodes the views for it.
    @inlinable func validationView<View>(_ kind: ExtensionKind, _ body: (ValidationViews) -> View?) -> View? {
        guard contains(kind) else { return nil }
        return validationViews.withValue(orCompute: makeValidationViews, body)
    }

    @usableFromInline func makeValidationViews() -> ValidationViews { ValidationViews(present: presentKinds, values: value(of:)) }

    /// The first validation view present whose value did not decode, if any (decoding the views).
    var undecodableValidationView: ExtensionKind? {
        guard presentKinds & ValidationViews.kinds != 0 else { return nil }
        return validationViews.withValue(orCompute: makeValidationViews) { $0.undecodable }
    }

    /// The other views, decoded on first use.
    var other: OtherViews { otherViews.value { OtherViews(self) } }

    /// Every extension, built on first use.
    var all: [Extension] { list.value { ExtensionList(self) }.all }
    /// Whether ``all`` holds every extension the parse counted (never expected to be false: the
    /// same bytes passed the same walk at parse time).
    var listIsComplete: Bool { list.value { ExtensionList(self) }.all.count == count }
}
