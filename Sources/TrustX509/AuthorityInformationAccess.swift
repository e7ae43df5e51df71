import TrustDER

/// The authorityInfoAccess extension (RFC 5280 §4.2.2.1).
public struct AuthorityInformationAccess: Hashable, Sendable {
    /// One AccessDescription.
    public struct AccessDescription: Hashable, Sendable {
        /// id-ad-ocsp, id-ad-caIssuers, or another method.
        public let method: ASN1ObjectIdentifier
        /// Where to go.
        public let location: GeneralName
    }

    /// The access descriptions, in order.
    public let descriptions: [AccessDescription]

    /// OCSP responder URIs.
    public var ocspURIs: [String] { uris(for: OID.accessOCSP) }
    /// CA issuer certificate URIs.
    public var caIssuersURIs: [String] { uris(for: OID.accessCAIssuers) }

    private func uris(for method: ASN1ObjectIdentifier) -> [String] {
        descriptions.compactMap { description in
            guard description.method == method, case let .uniformResourceIdentifier(uri) = description.location else { return nil }
            return uri
        }
    }

    /// Checks the extnValue `value` against every rule and, when `building`, decodes it (nil
    /// otherwise): checked when the certificate is parsed, decoded on first use (one code path).
    static func read(_ value: ArraySlice<UInt8>, building: Bool) throws -> AuthorityInformationAccess? {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        if reader.isAtEnd { throw X509Error.structure("authorityInfoAccess must not be empty", at: element.offset) }
        var descriptions: [AccessDescription] = []
        if building { descriptions.reserveCapacity(2) } // typically one OCSP responder and one caIssuers URI
        while let next = try reader.next(in: value) {
            try next.expect(.sequence)
            var fields = try next.children()
            let methodElement = try fields.read(.objectIdentifier, in: value)
            try methodElement.validateObjectIdentifier(in: value)
            let location = try GeneralName.read(try fields.readAny(in: value), in: value, building: building)
            try fields.finish()
            if let location {
                let method = ASN1ObjectIdentifier(trusted: value[methodElement.contentRange])
                descriptions.append(AccessDescription(method: method, location: location))
            }
        }
        return building ? AuthorityInformationAccess(descriptions: descriptions) : nil
    }
}

/// The TLS feature extension (RFC 7633).
public struct TLSFeature: Hashable, Sendable {
    /// The TLS extension numbers the certificate requires (5 = status_request, i.e. must-staple).
    public let features: [Int]

    /// Whether OCSP must-staple (status_request) is required.
    public var requiresOCSPStapling: Bool { features.contains(5) }

    /// Checks the extnValue `value` against every rule and, when `building`, decodes it (nil
    /// otherwise): checked when the certificate is parsed, decoded on first use (one code path).
    static func read(_ value: ArraySlice<UInt8>, building: Bool) throws -> TLSFeature? {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        var features: [Int] = []
        while let next = try reader.next(in: value) {
            let feature = Int(try next.integer(as: UInt16.self, in: value))
            if building { features.append(feature) }
        }
        return building ? TLSFeature(features: features) : nil
    }
}
