import TrustDER

/// The authorityKeyIdentifier extension (RFC 5280 §4.2.1.1).
public struct AuthorityKeyIdentifier: Hashable, Sendable {
    /// `[0] keyIdentifier`.
    public let keyIdentifier: ArraySlice<UInt8>?
    /// `[1] authorityCertIssuer`.
    public let authorityCertIssuer: [GeneralName]?
    /// `[2] authorityCertSerialNumber`.
    public let authorityCertSerialNumber: ArraySlice<UInt8>?

    static func parse(_ value: ArraySlice<UInt8>) throws -> AuthorityKeyIdentifier {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        let keyID = try reader.readIfPresent(.context(0, constructed: false), in: value).map { value[$0.contentRange] }
        var issuer: [GeneralName]?
        if let names = try reader.readIfPresent(.context(1, constructed: true), in: value) {
            var inner = try names.children()
            issuer = try GeneralName.readEach(&inner, in: value, building: true)
        }
        let serial = try reader.readIfPresent(.context(2, constructed: false), in: value)
            .map { element throws in try element.integerBytes(in: value, tag: .context(2, constructed: false)) }
        try reader.finish()
        // RFC 5280 §4.2.1.1: issuer and serial come together or not at all.
        if (issuer == nil) != (serial == nil) {
            throw X509Error.structure("authorityCertIssuer and authorityCertSerialNumber must both be present or absent", at: element.offset)
        }
        return AuthorityKeyIdentifier(keyIdentifier: keyID, authorityCertIssuer: issuer, authorityCertSerialNumber: serial)
    }
}

/// The subjectKeyIdentifier extension (RFC 5280 §4.2.1.2).
public struct SubjectKeyIdentifier: Hashable, Sendable {
    /// The key identifier octets.
    public let keyIdentifier: ArraySlice<UInt8>

    static func parse(_ value: ArraySlice<UInt8>) throws -> SubjectKeyIdentifier {
        SubjectKeyIdentifier(keyIdentifier: try DERIndexReader.parseSingle(value).octetString(in: value))
    }
}
