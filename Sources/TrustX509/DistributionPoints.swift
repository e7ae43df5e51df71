import TrustDER

/// A DistributionPointName (RFC 5280 §4.2.1.13).
public enum DistributionPointName: Hashable, Sendable {
    /// `[0] fullName`.
    case fullName([GeneralName])
    /// `[1] nameRelativeToCRLIssuer` (kept raw).
    case nameRelativeToCRLIssuer(ArraySlice<UInt8>)

    /// Parses the DistributionPointName `element` of `bytes` (the bytes it was read from).
    static func parse(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws -> DistributionPointName {
        guard element.tag.tagClass == .contextSpecific, element.tag.isConstructed else {
            throw DERError(.unexpectedTag(expected: "DistributionPointName", found: element.tag.description), at: element.offset)
        }
        switch element.tag.number {
        case 0:
            var reader = try element.children()
            let names = try GeneralName.parseEach(&reader, in: bytes)
            if names.isEmpty { throw X509Error.structure("fullName must not be empty", at: element.offset) }
            return .fullName(names)
        case 1:
            return .nameRelativeToCRLIssuer(bytes[element.contentRange])
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
            let appended = DERWriter.tlv(identifier: 0x30,
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

    static func parse(_ value: ArraySlice<UInt8>) throws -> CRLDistributionPoints {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        var points: [DistributionPoint] = []
        while let point = try reader.next(in: value) {
            try point.expect(.sequence)
            var fields = try point.children()
            let name = try fields.readIfPresent(.context(0, constructed: true), in: value).map { element throws in
                var inner = try element.children()
                let parsed = try DistributionPointName.parse(try inner.readAny(in: value), in: value)
                try inner.finish()
                return parsed
            }
            let reasons = try fields.readIfPresent(.context(1, constructed: false), in: value).map { element throws in
                try RevocationReasons.parse(element, in: value, tag: .context(1, constructed: false))
            }
            let issuer = try fields.readIfPresent(.context(2, constructed: true), in: value).map { element throws in
                var inner = try element.children()
                return try GeneralName.parseEach(&inner, in: value)
            }
            try fields.finish()
            // RFC 5280 §4.2.1.13: either distributionPoint or cRLIssuer MUST be present.
            if name == nil && issuer == nil {
                throw X509Error.structure("DistributionPoint needs a name or a cRLIssuer", at: point.offset)
            }
            points.append(DistributionPoint(name: name, reasons: reasons, crlIssuer: issuer))
        }
        if points.isEmpty { throw X509Error.structure("cRLDistributionPoints must not be empty", at: element.offset) }
        return CRLDistributionPoints(points: points)
    }
}
