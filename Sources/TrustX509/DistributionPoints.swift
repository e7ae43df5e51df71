import TrustDER

/// A DistributionPointName (RFC 5280 §4.2.1.13).
public enum DistributionPointName: Hashable, Sendable {
    /// `[0] fullName`.
    case fullName([GeneralName])
    /// `[1] nameRelativeToCRLIssuer` (kept raw).
    case nameRelativeToCRLIssuer(ArraySlice<UInt8>)

    /// Parses the DistributionPointName `element` of `bytes` (the bytes it was read from).
    static func parse(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws -> DistributionPointName {
        guard let name = try read(element, in: bytes, building: true) else {
            // Not reached: reading while building always yields a name.
            throw DERError(.unexpectedTag(expected: "DistributionPointName", found: element.tag.description), at: element.offset)
        }
        return name
    }

    /// Checks the DistributionPointName `element` of `bytes` and, when `building`, decodes it (nil otherwise).
    static func read(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>, building: Bool) throws -> DistributionPointName? {
        guard element.tag.tagClass == .contextSpecific, element.tag.isConstructed else {
            throw DERError(.unexpectedTag(expected: "DistributionPointName", found: element.tag.description), at: element.offset)
        }
        switch element.tag.number {
        case 0:
            var reader = try element.children()
            if reader.isAtEnd { throw X509Error.structure("fullName must not be empty", at: element.offset) }
            let names = try GeneralName.readEach(&reader, in: bytes, building: building)
            return building ? .fullName(names) : nil
        case 1:
            return building ? .nameRelativeToCRLIssuer(bytes[element.contentRange]) : nil
        default:
            throw DERError(.unexpectedTag(expected: "DistributionPointName", found: element.tag.description), at: element.offset)
        }
    }

    /// The names this distribution point name stands for (RFC 5280 §6.3.3 (b)(2)(i)): a fullName as
    /// it is; a nameRelativeToCRLIssuer as the directoryName formed by appending it to `issuer` (the
    /// CRL issuer's name). Empty when the appended name is not a valid Name.
    public func fullNames(relativeTo issuer: DistinguishedName) -> [GeneralName] {
        switch self {
        case let .fullName(names):
            return names
        case let .nameRelativeToCRLIssuer(relativeName):
            guard let issuerElement = try? DERReader.parseSingle(Array(issuer.der)) else { return [] }
            let appended = DERWriter.tlv(
                identifier: 0x30,
                content: Array(issuerElement.content) + DERWriter.tlv(identifier: 0x31, content: relativeName))
            guard let name = try? DistinguishedName(der: appended) else { return [] }
            return [.directoryName(name)]
        }
    }
}

/// One DistributionPoint of cRLDistributionPoints (RFC 5280 §4.2.1.13).
public struct DistributionPoint: Hashable, Sendable {
    /// Where the CRL is.
    public let name: DistributionPointName?
    /// The reasons the point covers, when only some (nil: every reason).
    public let reasons: RevocationReasons?
    /// Who issues the CRL, when not the certificate's issuer.
    public let crlIssuer: [GeneralName]?

    /// The URIs of the full name, e.g. `http://crl.example.com/ca.crl`.
    public var uris: [String] {
        guard case let .fullName(names) = name else { return [] }
        return names.compactMap { if case let .uniformResourceIdentifier(uri) = $0 { return uri } else { return nil } }
    }
}

/// The cRLDistributionPoints extension (RFC 5280 §4.2.1.13).
public struct CRLDistributionPoints: Hashable, Sendable {
    /// The distribution points.
    public let points: [DistributionPoint]

    /// Checks the extnValue `value` against every rule and, when `building`, decodes it (nil
    /// otherwise): checked when the certificate is parsed, decoded on first use (one code path).
    static func read(_ value: ArraySlice<UInt8>, building: Bool) throws -> CRLDistributionPoints? {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        if reader.isAtEnd { throw X509Error.structure("cRLDistributionPoints must not be empty", at: element.offset) }
        var points: [DistributionPoint] = []
        while let point = try reader.next(in: value) {
            try point.expect(.sequence)
            var fields = try point.children()
            let nameElement = try fields.readIfPresent(.context(0, constructed: true), in: value)
            let name = try nameElement.flatMap { element throws in
                var inner = try element.children()
                let read = try DistributionPointName.read(try inner.readAny(in: value), in: value, building: building)
                try inner.finish()
                return read
            }
            let reasons = try fields.readIfPresent(.context(1, constructed: false), in: value).map { element throws in
                try RevocationReasons.parse(element, in: value, tag: .context(1, constructed: false))
            }
            let issuerElement = try fields.readIfPresent(.context(2, constructed: true), in: value)
            let issuer = try issuerElement.map { element throws in
                var inner = try element.children()
                return try GeneralName.readEach(&inner, in: value, building: building)
            }
            try fields.finish()
            // RFC 5280 §4.2.1.13: either distributionPoint or cRLIssuer MUST be present.
            if nameElement == nil && issuerElement == nil {
                throw X509Error.structure("DistributionPoint needs a name or a cRLIssuer", at: point.offset)
            }
            if building { points.append(DistributionPoint(name: name, reasons: reasons, crlIssuer: issuer)) }
        }
        return building ? CRLDistributionPoints(points: points) : nil
    }
}
