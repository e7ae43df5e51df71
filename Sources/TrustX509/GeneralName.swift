import TrustDER

/// A GeneralName (RFC 5280 §4.2.1.6), as found in SAN, IAN, name constraints and AIA.
public enum GeneralName: Hashable, Sendable, CustomStringConvertible {
    /// `[0] otherName`: type id and the raw value (the encoding of the `ANY`, inside its `[0] EXPLICIT`
    /// wrapper, or as found when a nameConstraints base lacks the wrapper).
    case otherName(typeID: ASN1ObjectIdentifier, value: ArraySlice<UInt8>)
    /// `[1] rfc822Name`: an e-mail address (or constraint).
    case rfc822Name(String)
    /// `[2] dNSName`.
    case dnsName(String)
    /// `[3] x400Address`, kept raw.
    case x400Address(ArraySlice<UInt8>)
    /// `[4] directoryName`.
    case directoryName(DistinguishedName)
    /// `[5] ediPartyName`, kept raw.
    case ediPartyName(ArraySlice<UInt8>)
    /// `[6] uniformResourceIdentifier`.
    case uniformResourceIdentifier(String)
    /// `[7] iPAddress`: 4 or 16 octets in a SAN, 8 or 32 (address and mask) in a name constraint.
    case ipAddress(ArraySlice<UInt8>)
    /// `[8] registeredID`.
    case registeredID(ASN1ObjectIdentifier)

    /// Checks the GeneralName `element` of `bytes` against every rule and, when `building`, makes
    /// the value (nil otherwise): one code path, so a name checked at parse time and decoded later
    /// passes exactly the same checks. With `onNonASCIIDNSName`, a dNSName holding bytes outside
    /// IA5String is decoded (as UTF-8, invalid sequences replaced) and its offset reported there
    /// instead of being a parse error. With `onUnwrappedOtherNameValue`, an otherName whose value
    /// follows the type-id without its `[0] EXPLICIT` wrapper is read with that element as the value
    /// and the element's offset reported there (see ``EncodingFinding/unwrappedOtherNameValue(offset:)``).
    /// Every other name stays strict.
    static func read(
        _ element: DERIndexedElement, in bytes: ArraySlice<UInt8>, building: Bool,
        onNonASCIIDNSName: ((Int) -> Void)? = nil,
        onUnwrappedOtherNameValue: ((Int) -> Void)? = nil
    ) throws -> GeneralName? {
        let tag = element.tag
        guard tag.tagClass == .contextSpecific else {
            throw DERError(.unexpectedTag(expected: "GeneralName", found: tag.description), at: element.offset)
        }
        func primitive() throws -> ArraySlice<UInt8> {
            guard !tag.isConstructed else { throw DERError(.constructedMismatch, at: element.offset) }
            return bytes[element.contentRange]
        }
        func constructed() throws -> DERIndexReader {
            guard tag.isConstructed else { throw DERError(.constructedMismatch, at: element.offset) }
            return try element.children()
        }
        func ia5(lenient: Bool = false) throws -> String? {
            let content = try primitive()
            if !ASCIIScan.isASCII(content) {
                guard lenient, let onNonASCIIDNSName else {
                    throw DERError(.invalidString(type: "IA5String"), at: element.offset)
                }
                onNonASCIIDNSName(element.offset)
            }
            return building ? String(decoding: content, as: UTF8.self) : nil
        }
        switch tag.number {
        case 0:
            var reader = try constructed()
            let typeID = try reader.read(.objectIdentifier, in: bytes).objectIdentifier(in: bytes)
            // RFC 5280 §4.2.1.6: `value [0] EXPLICIT ANY DEFINED BY type-id`; the value kept is the
            // ANY's encoding either way.
            let value: ArraySlice<UInt8>
            if let explicit = try reader.readIfPresent(.context(0, constructed: true), in: bytes) {
                value = bytes[explicit.contentRange]
            } else if let onUnwrappedOtherNameValue, let bare = try reader.next(in: bytes) {
                onUnwrappedOtherNameValue(bare.offset)
                value = bytes[bare.encodedRange]
            } else {
                value = bytes[try reader.read(.context(0, constructed: true), in: bytes).contentRange] // strict: throws
            }
            try reader.finish()
            return building ? .otherName(typeID: typeID, value: value) : nil
        case 1: return try ia5().map { .rfc822Name($0) }
        case 2: return try ia5(lenient: true).map { .dnsName($0) }
        case 3: return building ? .x400Address(bytes[element.contentRange]) : nil
        case 4:
            // directoryName is EXPLICIT because Name is a CHOICE.
            var reader = try constructed()
            let name = try DistinguishedName(parsing: try reader.read(.sequence, in: bytes), in: bytes)
            try reader.finish()
            return building ? .directoryName(name) : nil
        case 5: return building ? .ediPartyName(bytes[element.contentRange]) : nil
        case 6: return try ia5().map { .uniformResourceIdentifier($0) }
        case 7:
            let address = try primitive()
            return building ? .ipAddress(address) : nil
        case 8:
            let oid = try ASN1ObjectIdentifier(validating: try primitive(), at: element.offset)
            return building ? .registeredID(oid) : nil
        default:
            throw DERError(.unexpectedTag(expected: "GeneralName", found: tag.description), at: element.offset)
        }
    }

    /// Parses a whole extnValue that is a GeneralNames SEQUENCE (SAN, IAN, a CRL entry's
    /// certificateIssuer). `onNonASCIIDNSName` as in ``read(_:in:building:onNonASCIIDNSName:)``.
    static func parseSequence(_ value: ArraySlice<UInt8>, onNonASCIIDNSName: ((Int) -> Void)? = nil) throws -> [GeneralName] {
        try readSequence(value, building: true, onNonASCIIDNSName: onNonASCIIDNSName)
    }

    /// Checks a whole extnValue that is a GeneralNames SEQUENCE (at least one entry, RFC 5280
    /// §4.2.1.6), decoding the names when `building` (the result is empty otherwise).
    static func readSequence(_ value: ArraySlice<UInt8>, building: Bool, onNonASCIIDNSName: ((Int) -> Void)? = nil) throws -> [GeneralName] {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        if reader.isAtEnd { throw X509Error.structure("GeneralNames must not be empty", at: element.offset) }
        return try readEach(&reader, in: value, building: building, onNonASCIIDNSName: onNonASCIIDNSName)
    }

    /// Checks every remaining element of `reader` as a GeneralName, decoding them when `building`
    /// (the result is empty otherwise).
    static func readEach(
        _ reader: inout DERIndexReader, in bytes: ArraySlice<UInt8>, building: Bool,
        onNonASCIIDNSName: ((Int) -> Void)? = nil
    ) throws -> [GeneralName] {
        var names: [GeneralName] = []
        while let next = try reader.next(in: bytes) {
            if let name = try read(next, in: bytes, building: building, onNonASCIIDNSName: onNonASCIIDNSName) { names.append(name) }
        }
        return names
    }

    /// A display form such as `DNS:www.example.com` or `IP:192.0.2.1`.
    public var description: String {
        switch self {
        case let .otherName(typeID, _): return "othername:\(typeID.dotted)"
        case let .rfc822Name(value): return "email:\(value)"
        case let .dnsName(value): return "DNS:\(value)"
        case .x400Address: return "X400Name"
        case let .directoryName(name): return "DirName:\(name)"
        case .ediPartyName: return "EdiPartyName"
        case let .uniformResourceIdentifier(value): return "URI:\(value)"
        case let .ipAddress(bytes): return "IP:\(GeneralName.formatIP(bytes))"
        case let .registeredID(oid): return "RID:\(oid.dotted)"
        }
    }

    /// Formats 4/16-octet addresses, and 8/32-octet address/mask pairs as `addr/mask`.
    package static func formatIP(_ bytes: ArraySlice<UInt8>) -> String {
        let b = Array(bytes)
        switch b.count {
        case 4: return b.map(String.init).joined(separator: ".")
        case 16: return formatIPv6(b)
        case 8: return formatIP(b[0..<4]) + "/" + formatIP(b[4..<8])
        case 32: return formatIP(b[0..<16]) + "/" + formatIP(b[16..<32])
        default: return "<\(b.count) octets>"
        }
    }

    private static func formatIPv6(_ b: [UInt8]) -> String {
        var groups: [UInt16] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(UInt16(b[i]) << 8 | UInt16(b[i + 1])) }
        // RFC 5952: compress the longest run (length ≥ 2) of zero groups.
        var bestStart = -1, bestLength = 0, runStart = -1
        for i in 0...8 {
            if i < 8 && groups[i] == 0 {
                if runStart < 0 { runStart = i }
            } else if runStart >= 0 {
                if i - runStart > bestLength { bestStart = runStart; bestLength = i - runStart }
                runStart = -1
            }
        }
        func hex(_ range: Range<Int>) -> String { groups[range].map { String($0, radix: 16) }.joined(separator: ":") }
        if bestLength < 2 { return hex(0..<8) }
        return hex(0..<bestStart) + "::" + hex((bestStart + bestLength)..<8)
    }
}
