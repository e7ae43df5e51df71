import TrustDER

/// The authorityKeyIdentifier extension (RFC 5280 §4.2.1.1).
public struct AuthorityKeyIdentifier: Hashable, Sendable {
    /// `[0] keyIdentifier`.
    public let keyIdentifier: ArraySlice<UInt8>?
    /// `[1] authorityCertIssuer`.
    public let authorityCertIssuer: [GeneralName]?
    /// `[2] authorityCertSerialNumber`.
    public let authorityCertSerialNumber: ArraySlice<UInt8>?

    /// Checks the extnValue `value` against every rule and returns its keyIdentifier and, when
    /// `building`, the whole view (nil otherwise): checked when the certificate is parsed, which
    /// keeps only where the keyIdentifier lies (chain building reads it for every candidate
    /// issuer), decoded on first use (one code path).
    static func read(_ value: ArraySlice<UInt8>, building: Bool) throws -> (keyIdentifier: ArraySlice<UInt8>?, view: AuthorityKeyIdentifier?) {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        let keyID = try reader.readIfPresent(.context(0, constructed: false), in: value).map { value[$0.contentRange] }
        var issuer: [GeneralName]?
        if let names = try reader.readIfPresent(.context(1, constructed: true), in: value) {
            var inner = try names.children()
            issuer = try GeneralName.readEach(&inner, in: value, building: building)
        }
        let serial = try reader.readIfPresent(.context(2, constructed: false), in: value)
            .map { element throws in try element.integerBytes(in: value, tag: .context(2, constructed: false)) }
        try reader.finish()
        // RFC 5280 §4.2.1.1: issuer and serial come together or not at all.
        if (issuer == nil) != (serial == nil) {
            throw X509Error.structure("authorityCertIssuer and authorityCertSerialNumber must both be present or absent", at: element.offset)
        }
        return (keyID, building ? AuthorityKeyIdentifier(keyIdentifier: keyID, authorityCertIssuer: issuer, authorityCertSerialNumber: serial) : nil)
    }
}

/// The subjectKeyIdentifier extension (RFC 5280 §4.2.1.2).
public struct SubjectKeyIdentifier: Hashable, Sendable {
    /// The key identifier octets.
    public let keyIdentifier: ArraySlice<UInt8>

    /// A view of `keyIdentifier` (the octets the certificate located when parsed).
    @usableFromInline init(keyIdentifier: ArraySlice<UInt8>) { self.keyIdentifier = keyIdentifier }

    static func parse(_ value: ArraySlice<UInt8>) throws -> SubjectKeyIdentifier {
        SubjectKeyIdentifier(keyIdentifier: try DERIndexReader.parseSingle(value).octetString(in: value))
    }
}
