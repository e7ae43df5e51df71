import TrustCrypto
import TrustDER

/// An AlgorithmIdentifier (RFC 5280 §4.1.1.2) kept as parsed OID plus raw parameters.
///
/// Kept compact (a certificate holds three): the encoding once, and where the OID's content and
/// the parameters lie in it.
public struct AlgorithmIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The whole encoded AlgorithmIdentifier.
    public let der: ArraySlice<UInt8>
    /// Where the OID's content octets start and end, relative to `der`; the parameters element,
    /// when present, runs from the OID element's end (`oidEnd`) to the end of `der`.
    private let oidStart: UInt32, oidEnd: UInt32

    /// The algorithm OID.
    public var oid: ASN1ObjectIdentifier {
        ASN1ObjectIdentifier(trusted: der[(der.startIndex + Int(oidStart))..<(der.startIndex + Int(oidEnd))])
    }
    /// The encoded parameters element (whole TLV), if present.
    public var parameters: ArraySlice<UInt8>? {
        let start = der.startIndex + Int(oidEnd)
        return start < der.endIndex ? der[start...] : nil
    }

    static func parse(_ element: DERElement) throws -> AlgorithmIdentifier {
        try parse(element.indexed, in: element.encoded)
    }

    /// Parses the AlgorithmIdentifier `element` of `bytes` (the bytes it was read from).
    static func parse(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws -> AlgorithmIdentifier {
        try element.expect(.sequence)
        // The identifier keeps 32-bit offsets inside the element (CRLs and OCSP responses have no size cap).
        guard element.encodedRange.count <= UInt32.max else { throw X509Error.structure("AlgorithmIdentifier larger than 4 GiB", at: element.offset) }
        var reader = try element.children()
        let oid = try reader.read(.objectIdentifier, in: bytes)
        try oid.validateObjectIdentifier(in: bytes)
        // The parameters, when present: any one element, read whole now (RSA-PSS parameters hold
        // OIDs) although they are decoded only when the signature is checked.
        try reader.next(in: bytes)?.validateSubtree(in: bytes)
        try reader.finish()
        return AlgorithmIdentifier(der: bytes[element.encodedRange], oidContent: oid.contentRange)
    }

    /// An identifier over `der` whose OID content octets are at `oidContent` (absolute indices)
    /// and end the OID element.
    private init(der: ArraySlice<UInt8>, oidContent: Range<Int>) {
        self.der = der
        // Offsets inside the element, which parse checked to be smaller than 4 GiB.
        oidStart = UInt32(truncatingIfNeeded: oidContent.lowerBound - der.startIndex)
        oidEnd = UInt32(truncatingIfNeeded: oidContent.upperBound - der.startIndex)
    }

    /// The signature algorithm this identifier names, under ``SignatureAlgorithm/init(algorithmIdentifier:)``'s
    /// rules, from the OID and parameters that parsing already split (the structure is not decoded again).
    func signatureAlgorithm() throws(SignatureError) -> SignatureAlgorithm {
        var parameterElement: DERElement?
        if let parameters {
            do { parameterElement = try DERReader.parseSingle(parameters) } catch { throw .malformedAlgorithmParameters("\(error)") }
        }
        return try SignatureAlgorithm(oid: oid, parameters: parameterElement)
    }

    /// Equal when the encodings are identical (RFC 5280 §4.1.1.2 requires the two copies to match).
    public static func == (lhs: AlgorithmIdentifier, rhs: AlgorithmIdentifier) -> Bool { ByteComparison.equal(lhs.der, rhs.der) }

    /// Whether `self` and `other` name the same algorithm, as RFC 5280 §4.1.1.2 requires of a
    /// certificate's two copies: identical encodings, or the same RSASSA-PKCS1-v1_5 OID with
    /// parameters each NULL or absent (RFC 4055 §5: "Implementations MUST accept the parameters
    /// being absent as well as present"; Chromium and Apple compare so). Everything else, RSA-PSS
    /// parameters included, must match byte for byte.
    public func isSameAlgorithm(as other: AlgorithmIdentifier) -> Bool {
        if self == other { return true }
        return oid == other.oid && AlgorithmIdentifier.pkcs1Signatures.contains(oid)
            && hasNullOrAbsentParameters && other.hasNullOrAbsentParameters
    }

    /// Whether the parameters are absent or exactly an empty NULL (`05 00`).
    var hasNullOrAbsentParameters: Bool {
        guard let parameters else { return true }
        return parameters.elementsEqual([0x05, 0x00])
    }

    /// id-RSASSA-PSS (RFC 4055 §3.1).
    static let rsassaPSS: ASN1ObjectIdentifier = "1.2.840.113549.1.1.10"

    /// The RSASSA-PKCS1-v1_5 signature OIDs (RFC 3279 §2.2.1, RFC 4055 §5).
    static let pkcs1Signatures: Set<ASN1ObjectIdentifier> = [
        "1.2.840.113549.1.1.2", "1.2.840.113549.1.1.4", "1.2.840.113549.1.1.5", "1.2.840.113549.1.1.14",
        "1.2.840.113549.1.1.11", "1.2.840.113549.1.1.12", "1.2.840.113549.1.1.13",
    ]

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
