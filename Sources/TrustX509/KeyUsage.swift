import TrustDER

/// The keyUsage extension (RFC 5280 §4.2.1.3).
public struct KeyUsage: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bits, numbered as in RFC 5280 (bit 0 = digitalSignature).
    public let rawValue: UInt16
    /// Creates a set from raw bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// digitalSignature (0).
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// nonRepudiation / contentCommitment (1).
    public static let contentCommitment = KeyUsage(rawValue: 1 << 1)
    /// keyEncipherment (2).
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// dataEncipherment (3).
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// keyAgreement (4).
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// keyCertSign (5).
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// cRLSign (6).
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// encipherOnly (7).
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// decipherOnly (8).
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    static let bitNames = [
        "digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment",
        "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly",
    ]

    /// Comma-separated names of the set bits.
    public var description: String { names.joined(separator: ", ") }

    /// The names of the set bits, in bit order (RFC 5280 §4.2.1.3's, bit 1 as `nonRepudiation`).
    package var names: [String] {
        KeyUsage.bitNames.enumerated().filter { rawValue & (1 << $0.offset) != 0 }.map(\.element)
    }

    /// The bit RFC 5280 §4.2.1.3 names `name` (`nonRepudiation` also as X.509's later
    /// `contentCommitment`), or nil.
    package static func named(_ name: String) -> KeyUsage? {
        if name == "contentCommitment" { return .contentCommitment }
        return bitNames.firstIndex(of: name).map { KeyUsage(rawValue: 1 << UInt16($0)) }
    }

    static func parse(_ value: ArraySlice<UInt8>) throws -> KeyUsage {
        let element = try DERIndexReader.parseSingle(value)
        let bits = try element.bitString(in: value)
        // X.690 §11.2.2 wants trailing zero bits dropped, but deployed roots (e.g. Trustwave Global
        // ECC P384) carry them; they do not change the value, so they are tolerated. Set bits beyond
        // decipherOnly (8) are not: their meaning is unknown.
        var raw: UInt16 = 0
        for bit in 0..<bits.bitCount where bits.isSet(bit) {
            guard bit < 9 else { throw X509Error.structure("keyUsage has unknown bit \(bit) set", at: element.offset) }
            raw |= 1 << UInt16(bit)
        }
        // RFC 5280 §4.2.1.3: at least one bit must be set.
        if raw == 0 { throw X509Error.structure("keyUsage has no bit set", at: element.offset) }
        return KeyUsage(rawValue: raw)
    }
}

/// The extKeyUsage extension (RFC 5280 §4.2.1.12).
public struct ExtendedKeyUsage: Hashable, Sendable {
    /// The key purposes, in order.
    public let purposes: [ASN1ObjectIdentifier]

    /// Whether `purpose` is listed (anyExtendedKeyUsage is not treated as a wildcard here).
    public func contains(_ purpose: ASN1ObjectIdentifier) -> Bool { purposes.contains(purpose) }

    /// Checks the extnValue `value` against every rule and, when `building`, decodes it (nil
    /// otherwise): checked when the certificate is parsed, decoded on first use (one code path).
    static func read(_ value: ArraySlice<UInt8>, building: Bool) throws -> ExtendedKeyUsage? {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        var purposes: [ASN1ObjectIdentifier] = []
        var count = 0
        while let next = try reader.next(in: value) {
            let purpose = try next.objectIdentifier(in: value)
            if building { purposes.append(purpose) }
            count += 1
        }
        if count == 0 { throw X509Error.structure("extKeyUsage must list at least one purpose", at: element.offset) }
        return building ? ExtendedKeyUsage(purposes: purposes) : nil
    }
}
