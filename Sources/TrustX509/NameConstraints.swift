import TrustDER

/// The nameConstraints extension (RFC 5280 §4.2.1.10).
public struct NameConstraints: Hashable, Sendable {
    /// Permitted subtrees (`[0]`); empty when absent.
    public let permittedSubtrees: [GeneralName]
    /// Excluded subtrees (`[1]`); empty when absent.
    public let excludedSubtrees: [GeneralName]
    /// Whether the permitted list was present at all.
    public let hasPermittedSubtrees: Bool

    /// Checks the extnValue `value` against every rule and, when `building`, decodes it (nil
    /// otherwise): checked when the certificate is parsed, decoded on first use (one code path).
    /// What is read as Apple's `parseGeneralSubtrees` reads it though DER or RFC 5280 do not allow
    /// it is handed to `finding`: each GeneralSubtree `minimum 0` written out
    /// (``EncodingFinding/explicitSubtreeMinimumZero(offset:)``) and each otherName base whose value
    /// lacks its `[0] EXPLICIT` wrapper (``EncodingFinding/unwrappedOtherNameValue(offset:)``).
    static func read(_ value: ArraySlice<UInt8>, building: Bool, finding: (EncodingFinding) -> Void = { _ in }) throws -> NameConstraints? {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        let permitted = try reader.readIfPresent(.context(0, constructed: true), in: value)
        let excluded = try reader.readIfPresent(.context(1, constructed: true), in: value)
        try reader.finish()
        // RFC 5280 §4.2.1.10: the extension MUST NOT be an empty sequence.
        if permitted == nil && excluded == nil {
            throw X509Error.structure("nameConstraints must have permitted or excluded subtrees", at: element.offset)
        }
        let permittedSubtrees = try permitted.map { element throws in try readSubtrees(element, in: value, building: building, finding: finding) }
        let excludedSubtrees = try excluded.map { element throws in try readSubtrees(element, in: value, building: building, finding: finding) }
        guard building else { return nil }
        return NameConstraints(
            permittedSubtrees: permittedSubtrees ?? [], excludedSubtrees: excludedSubtrees ?? [],
            hasPermittedSubtrees: permitted != nil)
    }

    /// Checks a GeneralSubtrees element, returning the base names when `building` (empty otherwise).
    private static func readSubtrees(
        _ element: DERIndexedElement, in bytes: ArraySlice<UInt8>, building: Bool,
        finding: (EncodingFinding) -> Void
    ) throws -> [GeneralName] {
        var reader = try element.children()
        var names: [GeneralName] = []
        var count = 0
        while let subtree = try reader.next(in: bytes) {
            try subtree.expect(.sequence)
            var fields = try subtree.children()
            // An otherName value without its [0] EXPLICIT wrapper is read as the value, as Apple reads
            // it: parseGeneralSubtrees (SecCertificate.c) keeps each base undecoded, and no
            // name-constraint code of trustd decodes an otherName (nameconstraints.c compares only
            // rfc822Name, dNSName, directoryName, URI and iPAddress). A finding, not a parse error.
            var unwrappedValue: Int?
            let base = try GeneralName.read(
                try fields.readAny(in: bytes), in: bytes, building: building,
                onUnwrappedOtherNameValue: { unwrappedValue = $0 })
            if let unwrappedValue { finding(.unwrappedOtherNameValue(offset: unwrappedValue)) }
            // RFC 5280 §4.2.1.10: minimum MUST be zero (so DER omits it, X.690 §11.5); maximum MUST be
            // absent. An explicit minimum 0 is read as the DEFAULT, as Apple's parseGeneralSubtrees
            // (SecCertificate.c) does: a finding. Any other minimum is refused, as Apple refuses it.
            if let minimum = try fields.readIfPresent(.context(0, constructed: false), in: bytes) {
                let octets = try minimum.integerBytes(in: bytes, tag: .context(0, constructed: false))
                guard octets.count == 1, octets.first == 0 else {
                    throw X509Error.structure("GeneralSubtree minimum must be 0 (RFC 5280 §4.2.1.10)", at: minimum.offset)
                }
                finding(.explicitSubtreeMinimumZero(offset: minimum.offset))
            }
            if let maximum = try fields.readIfPresent(.context(1, constructed: false), in: bytes) {
                throw X509Error.structure("GeneralSubtree maximum must be absent", at: maximum.offset)
            }
            try fields.finish()
            if let base { names.append(base) }
            count += 1
        }
        if count == 0 { throw X509Error.structure("GeneralSubtrees must not be empty", at: element.offset) }
        return names
    }
}
