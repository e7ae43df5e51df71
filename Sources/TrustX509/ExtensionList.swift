import TrustDER

extension Extension {
    /// Reads each Extension of the Extensions SEQUENCE `element` of `bytes` in encoded order,
    /// checking its DER (a valid OID, criticality TRUE or omitted, an OCTET STRING value), and hands
    /// it to `body`. The list's own rules (no duplicates, not empty) are ``ExtensionListCheck``'s.
    /// `oidsChecked`: the list passed this walk before (a parsed certificate's), so the OIDs' content
    /// rules are not checked again; the structure still is.
    ///
    /// `explicitCriticalFalse` is handed the offset of each `critical FALSE` written out and the
    /// extension's OID. By default it throws: DER omits a DEFAULT value (X.690 §11.5), and CRLs and
    /// OCSP responses are held to that. A certificate's list passes a closure that records a finding
    /// instead (``EncodingFinding/explicitCriticalFalse(extensionName:offset:)``), reading the flag
    /// as FALSE as Apple's `SecCertificateParse` (`DERParseBooleanWithDefault`), OpenSSL and Go do.
    /// (Not optional: an optional closure escapes, and capturing the caller's list would then
    /// allocate on every parse.) Always inlined: with two closures the optimiser does not otherwise
    /// specialise the walk per caller, and the unspecialised walk is far dearer on every parse.
    @inline(__always)
    static func forEach(
        in element: DERIndexedElement, of bytes: ArraySlice<UInt8>, oidsChecked: Bool = false,
        explicitCriticalFalse: (Int, ASN1ObjectIdentifier) throws -> Void = Extension.refuseExplicitCriticalFalse,
        _ body: (Extension) throws -> Void
    ) throws {
        try element.expect(.sequence)
        var reader = try element.children()
        while let located = try reader.next(in: bytes) {
            try located.expect(.sequence)
            // Extension keeps 32-bit offsets inside the element (a CRL has no size cap).
            guard located.encodedRange.count <= UInt32.max else { throw X509Error.structure("extension larger than 4 GiB", at: located.offset) }
            var fields = try located.children()
            let oidElement = try fields.read(.objectIdentifier, in: bytes)
            let oid =
                oidsChecked
                ? ASN1ObjectIdentifier(trusted: bytes[oidElement.contentRange])
                : try ASN1ObjectIdentifier(validating: bytes[oidElement.contentRange], at: oidElement.offset)
            var critical = false
            var valueElement = try fields.readAny(in: bytes)
            if valueElement.tag == .boolean {
                critical = try valueElement.boolean(in: bytes)
                // DEFAULT FALSE must be omitted in DER (X.690 §11.5): a finding in a certificate
                // (Apple SecCertificateParse reads it as FALSE), refused elsewhere.
                if !critical { try explicitCriticalFalse(valueElement.offset, oid) }
                valueElement = try fields.readAny(in: bytes)
            }
            try valueElement.expect(.octetString)
            try fields.finish()
            try body(
                Extension(
                    element: located, oid: oidElement.contentRange, value: valueElement.contentRange, in: bytes,
                    kind: ExtensionKind(oid), isCritical: critical))
        }
    }

    /// Refuses an explicit `critical FALSE` at `offset`: DER omits a DEFAULT value (X.690 §11.5).
    static func refuseExplicitCriticalFalse(at offset: Int, _ oid: ASN1ObjectIdentifier) throws {
        throw X509Error.structure("critical FALSE must be omitted (DEFAULT)", at: offset)
    }

    /// Parses an `Extensions` SEQUENCE into raw extensions (a CRL's, a CRL entry's, an OCSP
    /// response's): the DER of each, no duplicates (RFC 5280 §4.2), at least one entry (§4.1.2.9).
    static func parseList(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws -> [Extension] {
        var all: [Extension] = []
        all.reserveCapacity(8)
        var check = ExtensionListCheck()
        try forEach(in: element, of: bytes) { ext in
            try check.add(ext)
            all.append(ext)
        }
        try check.finish(element)
        return all
    }
}

/// The rules on an Extensions list as a whole, fed one extension at a time: at most one instance
/// of each extension (RFC 5280 §4.2) and at least one extension (§4.1.2.9). It also gathers which
/// known kinds are present and which are critical (a certificate keeps those two bit sets).
struct ExtensionListCheck {
    /// The known kinds seen (``ExtensionKind/bit``), and those of them marked critical.
    private(set) var presentKinds: UInt32 = 0, criticalKinds: UInt32 = 0
    /// Whether an extension without a typed view is marked critical.
    private(set) var hasUnknownCritical = false
    /// The OIDs without a typed view seen so far.
    private var seenUnknown: Set<ASN1ObjectIdentifier> = []
    /// How many extensions were added.
    private(set) var count = 0

    /// Adds `ext`, throwing when its OID was seen before. Known kinds are tracked in a bit set,
    /// others in a set hashed with the per-process seeded hasher: linear in the number of
    /// extensions, whatever OIDs an attacker picks.
    mutating func add(_ ext: Extension) throws {
        count += 1
        if let kind = ext.kind {
            if presentKinds & kind.bit != 0 { throw X509Error(.duplicateExtension(oid: ext.name, offset: ext.offset)) }
            presentKinds |= kind.bit
            if ext.isCritical { criticalKinds |= kind.bit }
            return
        }
        if !seenUnknown.insert(ext.oid).inserted { throw X509Error(.duplicateExtension(oid: ext.name, offset: ext.offset)) }
        if ext.isCritical { hasUnknownCritical = true }
    }

    /// Throws when the list `element` held no extension.
    func finish(_ element: DERIndexedElement) throws {
        if count == 0 { throw X509Error.structure("extensions must not be empty", at: element.offset) }
    }
}
