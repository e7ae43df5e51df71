import TrustDER

/// The generic shape of an X.509 AlgorithmIdentifier (RFC 5280 §4.1.1.2):
/// `SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY DEFINED BY algorithm OPTIONAL }`.
struct AlgorithmIdentifierSyntax {
    /// The algorithm OID.
    let oid: ASN1ObjectIdentifier
    /// The parameters element, or nil when absent.
    let parameters: DERElement?

    /// Splits `element` into OID and optional parameters; anything after the parameters is an error.
    init(_ element: DERElement) throws(DERError) {
        try self.init(element.indexed, in: element.encoded)
    }

    /// Splits `element` of `bytes` (walked by offsets) into OID and optional parameters; anything
    /// after the parameters is an error.
    init(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws(DERError) {
        try element.expect(.sequence)
        var reader = try element.children()
        oid = try reader.read(.objectIdentifier, in: bytes).objectIdentifier(in: bytes)
        parameters = try reader.next(in: bytes)?.element(in: bytes)
        try reader.finish()
    }

    /// Whether the parameters are exactly an (empty) NULL.
    var parametersAreNull: Bool { AlgorithmIdentifierSyntax.isNull(parameters) }

    /// Whether `parameters` is exactly an (empty) NULL.
    static func isNull(_ parameters: DERElement?) -> Bool {
        guard let parameters else { return false }
        return parameters.tag == .null && parameters.content.isEmpty
    }
}

/// Runs DER decoding in `body` and reports any ``DERError`` as a ``SignatureError`` built by `wrap`.
func decodingDER<T>(
    _ wrap: (String) -> SignatureError,
    _ body: () throws(DERError) -> T
) throws(SignatureError) -> T {
    do {
        return try body()
    } catch {
        throw wrap(String(describing: error))
    }
}
