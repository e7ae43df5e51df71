import TrustDER

/// An AlgorithmIdentifier (RFC 5280 §4.1.1.2) kept as parsed OID plus raw parameters.
public struct AlgorithmIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The whole encoded AlgorithmIdentifier.
    public let der: ArraySlice<UInt8>
    /// The algorithm OID.
    public let oid: ASN1ObjectIdentifier
    /// The encoded parameters element (whole TLV), if present.
    public let parameters: ArraySlice<UInt8>?

    static func parse(_ element: DERElement) throws -> AlgorithmIdentifier {
        try element.expect(.sequence)
        var reader = try element.children()
        let oid = try reader.read(.objectIdentifier).objectIdentifier()
        let parameters = try reader.next()?.encoded
        try reader.finish()
        return AlgorithmIdentifier(der: element.encoded, oid: oid, parameters: parameters)
    }

    /// Equal when the encodings are identical (RFC 5280 §4.1.1.2 requires the two copies to match).
    public static func == (lhs: AlgorithmIdentifier, rhs: AlgorithmIdentifier) -> Bool { lhs.der.elementsEqual(rhs.der) }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { for byte in der { hasher.combine(byte) } }

    /// The algorithm's common name, e.g. `ecdsa-with-SHA256`.
    public var description: String { AlgorithmIdentifier.names[oid] ?? oid.dotted }

    static let names: [ASN1ObjectIdentifier: String] = [
        "1.2.840.113549.1.1.1": "rsaEncryption", "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
        "1.2.840.113549.1.1.11": "sha256WithRSAEncryption", "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
        "1.2.840.113549.1.1.13": "sha512WithRSAEncryption", "1.2.840.113549.1.1.10": "rsassaPss",
        "1.2.840.113549.1.1.4": "md5WithRSAEncryption",
        "1.2.840.10045.2.1": "id-ecPublicKey", "1.2.840.10045.4.1": "ecdsa-with-SHA1",
        "1.2.840.10045.4.3.2": "ecdsa-with-SHA256", "1.2.840.10045.4.3.3": "ecdsa-with-SHA384",
        "1.2.840.10045.4.3.4": "ecdsa-with-SHA512", "1.3.101.112": "Ed25519", "1.3.101.113": "Ed448",
        "1.2.840.10040.4.1": "dsa", "1.2.840.10040.4.3": "dsa-with-SHA1",
    ]
}
