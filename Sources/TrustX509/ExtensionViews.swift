import TrustDER

// The typed views of a certificate's extensions that allocate (arrays, strings), decoded on first
// use from the extension values located in the certificate's buffer when it was parsed (a parsed
// certificate holds its DER and offsets; views decode on first use). Every extension was
// checked against every rule when the certificate was parsed, by the same code that decodes it here
// (each parser's `building` flag), so decoding cannot fail. Were it ever to, a validation view
// records its kind as undecodable and path validation rejects the certificate (fail closed); an
// other view reads as absent, as for a certificate without the extension.

/// The views path validation reads: extKeyUsage, subjectAltName, nameConstraints,
/// certificatePolicies, policyMappings and the whole authorityKeyIdentifier (its keyIdentifier
/// alone is located at parse time).
@usableFromInline final class ValidationViews: Sendable {
    @usableFromInline let authorityKeyIdentifier: AuthorityKeyIdentifier?
    @usableFromInline let extendedKeyUsage: ExtendedKeyUsage?
    @usableFromInline let subjectAlternativeNames: [GeneralName]?
    @usableFromInline let nameConstraints: NameConstraints?
    @usableFromInline let certificatePolicies: CertificatePolicies?
    @usableFromInline let policyMappings: PolicyMappings?
    /// The first kind present whose value did not decode (nil normally; see the note above).
    let undecodable: ExtensionKind?

    /// The kinds these views decode, as ``ExtensionKind/bit``s (a computed constant: a `static let`
    /// is a lazily initialised global).
    static var kinds: UInt32 {
        ExtensionKind.authorityKeyIdentifier.bit | ExtensionKind.extendedKeyUsage.bit | ExtensionKind.subjectAltName.bit
            | ExtensionKind.nameConstraints.bit | ExtensionKind.certificatePolicies.bit | ExtensionKind.policyMappings.bit
    }

    /// Decodes the views of the kinds in `present` (``ExtensionKind/bit``s) from `values`, the
    /// extnValue of each: those a certificate located when it was parsed.
    init(present: UInt32, values: (ExtensionKind) -> ArraySlice<UInt8>?) {
        var undecodable: ExtensionKind?
        func decode<View>(_ kind: ExtensionKind, _ read: (ArraySlice<UInt8>) throws -> View?) -> View? {
            guard present & kind.bit != 0 else { return nil }
            if let value = values(kind), let view = try? read(value) { return view }
            if undecodable == nil { undecodable = kind }
            return nil
        }
        authorityKeyIdentifier = decode(.authorityKeyIdentifier) { try AuthorityKeyIdentifier.read($0, building: true).view }
        extendedKeyUsage = decode(.extendedKeyUsage) { try ExtendedKeyUsage.read($0, building: true) }
        // Leniently, as when parsed: a non-ASCII dNSName is a recorded defect, not an error.
        subjectAlternativeNames = decode(.subjectAltName) { try GeneralName.readSequence($0, building: true) { _ in } }
        nameConstraints = decode(.nameConstraints) { try NameConstraints.read($0, building: true) }
        certificatePolicies = decode(.certificatePolicies) { try CertificatePolicies.read($0, building: true) }
        policyMappings = decode(.policyMappings) { try PolicyMappings.read($0, building: true) }
        self.undecodable = undecodable
    }
}

/// The views only revocation fetching, diagnostics and display read: issuerAltName,
/// cRLDistributionPoints, authorityInfoAccess, the TLS feature and the SCT list.
final class OtherViews: Sendable {
    let issuerAlternativeNames: [GeneralName]?
    let crlDistributionPoints: CRLDistributionPoints?
    let authorityInformationAccess: AuthorityInformationAccess?
    let tlsFeature: TLSFeature?
    let signedCertificateTimestamps: ArraySlice<UInt8>?

    /// Decodes the views from the extension values `data` located when it was parsed.
    init(_ data: ExtensionsData) {
        issuerAlternativeNames = data.value(of: .issuerAltName).flatMap { try? GeneralName.readSequence($0, building: true) }
        crlDistributionPoints = data.value(of: .crlDistributionPoints).flatMap { try? CRLDistributionPoints.read($0, building: true) }
        authorityInformationAccess = data.value(of: .authorityInfoAccess)
            .flatMap { try? AuthorityInformationAccess.read($0, building: true) }
        tlsFeature = data.value(of: .tlsFeature).flatMap { try? TLSFeature.read($0, building: true) }
        signedCertificateTimestamps = data.value(of: .sctList).flatMap { try? ExtensionsData.signedCertificateTimestamps(in: $0) }
    }
}

/// Every extension of a certificate as ``Extension`` values, built on first use of
/// ``Extensions/all`` (validation reads the bit sets and views instead).
final class ExtensionList: Sendable {
    let all: [Extension]

    /// The extensions `data` was parsed from.
    init(_ data: ExtensionsData) {
        var all: [Extension] = []
        // The known kinds, plus room for a few others: one allocation for typical certificates.
        all.reserveCapacity(data.presentKinds.nonzeroBitCount + 4)
        ExtensionsData.forEach(in: data.encoded) { all.append($0) }
        self.all = all
    }
}
