import TrustDER

/// A SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
public struct SubjectPublicKeyInfo: Hashable, Sendable {
    /// The whole encoded SPKI: what SPKI pins hash and what libcrypto decodes.
    public let der: ArraySlice<UInt8>
    /// The key algorithm and its parameters.
    public let algorithm: AlgorithmIdentifier
    /// Where the subjectPublicKey octets start, relative to `der` (they run to its end).
    private let keyStart: UInt32

    /// The subjectPublicKey BIT STRING octets.
    public var keyBytes: ArraySlice<UInt8> { der[(der.startIndex + Int(keyStart))...] }

    /// Parses the SubjectPublicKeyInfo `element` of `bytes` (the bytes it was read from).
    static func parse(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws -> SubjectPublicKeyInfo {
        try element.expect(.sequence)
        // The SPKI keeps a 32-bit offset inside the element (certificates are capped at 64 KiB; the
        // check keeps the offset exact whatever a future caller parses).
        guard element.encodedRange.count <= UInt32.max else {
            throw X509Error.structure("SubjectPublicKeyInfo larger than 4 GiB", at: element.offset)
        }
        var reader = try element.children()
        let algorithmElement = try reader.read(.sequence, in: bytes)
        let algorithm = try AlgorithmIdentifier.parse(algorithmElement, in: bytes)
        // RFC 8410 §3: for Ed25519 and Ed448 "the parameters MUST be absent". A structural rule,
        // so the certificate is refused when read, not accepted by inspect and rejected by verify.
        if algorithm.parameters != nil, let name = edwardsCurveKeyNames.first(where: { $0.oid == algorithm.oid })?.name {
            throw X509Error.structure("\(name) key algorithm parameters must be absent (RFC 8410 §3)", at: algorithmElement.offset)
        }
        let key = try reader.read(.bitString, in: bytes).bitString(in: bytes)
        try reader.finish()
        guard key.unusedBits == 0 else { throw X509Error.structure("subjectPublicKey must be whole octets", at: element.offset) }
        // The BIT STRING is the last element: its octets run to the end of the SPKI.
        return SubjectPublicKeyInfo(
            der: bytes[element.encodedRange], algorithm: algorithm,
            keyStart: UInt32(truncatingIfNeeded: key.bytes.startIndex - element.offset))
    }

    /// The Edwards-curve key algorithms whose AlgorithmIdentifier has no parameters (RFC 8410 §3);
    /// compared by bytes, cheaper than hashing every key's OID for a dictionary.
    private static let edwardsCurveKeyNames: [(oid: ASN1ObjectIdentifier, name: String)] = [("1.3.101.112", "Ed25519"), ("1.3.101.113", "Ed448")]

    /// Equal when the encodings are identical.
    public static func == (lhs: SubjectPublicKeyInfo, rhs: SubjectPublicKeyInfo) -> Bool { ByteComparison.equal(lhs.der, rhs.der) }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(der.count); for byte in der.suffix(32) { hasher.combine(byte) } }
}
