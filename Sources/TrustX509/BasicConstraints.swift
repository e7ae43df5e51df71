import TrustDER

/// The basicConstraints extension (RFC 5280 §4.2.1.9).
public struct BasicConstraints: Hashable, Sendable {
    /// Whether the subject is a CA.
    public let isCA: Bool
    /// The maximum number of non-self-issued intermediates that may follow, when limited.
    public let pathLengthConstraint: Int?

    /// Parses the extnValue `value`. `cA FALSE` written out (DER omits a DEFAULT, X.690 §11.5) is
    /// read as not a CA, as Apple's `SecCEPBasicConstraints` (`DERParseBooleanWithDefault`), OpenSSL
    /// and Go read it, and its offset is handed to `explicitFalse` (a finding, see
    /// ``EncodingFinding/explicitCAFalse(offset:)``). A BOOLEAN other than 0x00 or 0xFF is refused.
    static func parse(_ value: ArraySlice<UInt8>, explicitFalse: (Int) -> Void) throws -> BasicConstraints {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        var isCA = false
        if let ca = try reader.readIfPresent(.boolean, in: value) {
            isCA = try ca.boolean(in: value)
            if !isCA { explicitFalse(ca.offset) }
        }
        var pathLength: Int?
        if let length = try reader.readIfPresent(.integer, in: value) {
            pathLength = Int(try length.integer(as: UInt32.self, in: value))
        }
        try reader.finish()
        return BasicConstraints(isCA: isCA, pathLengthConstraint: pathLength)
    }
}
