import TrustDER

/// The DER form of an ECDSA signature value (RFC 5480 §2.2 / RFC 3279 §2.2.3):
/// `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`.
enum ECDSASignatureEncoding {
    /// Throws ``SignatureError/invalidSignature`` unless `signature` is exactly one DER
    /// SEQUENCE of two minimal, positive INTEGERs no longer than the curve's order.
    ///
    /// This runs before libcrypto so that BER variants, trailing bytes and out-of-range
    /// scalars are rejected by one strict parser rather than by libcrypto's tolerance.
    static func validate(_ signature: ArraySlice<UInt8>, curve: PublicKeyDescription.NamedCurve) throws(SignatureError) {
        let scalars: (ArraySlice<UInt8>, ArraySlice<UInt8>)
        do {
            let sequence = try DERReader.parseSingle(signature)
            try sequence.expect(.sequence)
            var reader = try sequence.children()
            let r = try reader.read(.integer).integerBytes()
            let s = try reader.read(.integer).integerBytes()
            try reader.finish()
            scalars = (r, s)
        } catch {
            throw .invalidSignature
        }
        guard isAcceptableScalar(scalars.0, curve: curve), isAcceptableScalar(scalars.1, curve: curve) else {
            throw .invalidSignature
        }
    }

    /// Whether a minimal INTEGER encoding is positive and fits in the curve's order length.
    private static func isAcceptableScalar(_ integer: ArraySlice<UInt8>, curve: PublicKeyDescription.NamedCurve) -> Bool {
        guard let first = integer.first, first & 0x80 == 0 else { return false }
        let magnitude = first == 0 ? integer.dropFirst() : integer
        return !magnitude.isEmpty && magnitude.count <= curve.coordinateByteCount
    }
}
