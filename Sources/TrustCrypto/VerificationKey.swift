internal import CTrustOpenSSL

/// A public key ready for signature verification, parsed from a SubjectPublicKeyInfo.
///
/// The key is validated in pure Swift first (``PublicKeyDescription``; explicit curves and
/// malformed keys are rejected) and then handed to libcrypto, whose view of the key must
/// agree with that description. Creating a key costs far more than using it: share keys,
/// or use ``VerificationKeyCache``.
///
/// `@unchecked Sendable`: the only mutable-looking state is the `EVP_PKEY`, which is never
/// modified after `init`. OpenSSL 3 allows concurrent verification with one shared
/// `EVP_PKEY` provided each operation has its own `EVP_MD_CTX`, which
/// ``SignatureVerifier`` creates per call. The key is freed only in `deinit`, when no
/// other reference can exist.
public final class VerificationKey: @unchecked Sendable {
    /// What the key is: algorithm and size or curve.
    public let description: PublicKeyDescription

    /// The libcrypto key (`EVP_PKEY *`), owned by this object.
    let pkey: OpaquePointer

    /// Parses `spki` (a DER SubjectPublicKeyInfo) into a verification key.
    ///
    /// - Throws: the errors of ``PublicKeyDescription/init(spki:)``;
    ///   ``SignatureError/unsupportedAlgorithm(_:)`` for key algorithms other than RSA, EC,
    ///   Ed25519 and Ed448; ``SignatureError/malformedKey(_:)`` when libcrypto rejects the key
    ///   (for example, an EC point not on its curve).
    public init(spki: ArraySlice<UInt8>) throws(SignatureError) {
        let (description, material) = try PublicKeyDescription.parse(spki: spki)
        let built: OpaquePointer?
        // The key is built from the components the Swift parser validated, not by d2i_PUBKEY:
        // OpenSSL 3's provider decoders cost far more than building the key from its components. All
        // routes below are supported, non-deprecated OpenSSL 3 API (docs/performance-log.md, "Keys
        // from components").
        switch material {
        case let .rsa(modulus, exponent):
            built = VerificationKey.rsaKey(modulus: modulus, exponent: exponent)
        case let .ec(curve, point):
            // A copy of the curve's template with the point set: EC_POINT_oct2point refuses points
            // off the curve, as EVP_PKEY_fromdata did, without building the group for every key.
            built = try ECGroupTemplate.shared(curve).key(point: point)
        case let .edwards(raw):
            let type = description.kind == .ed25519 ? "ED25519" : "ED448"
            built = withNonNullBytes(raw) { pointer, count in EVP_PKEY_new_raw_public_key_ex(nil, type, nil, pointer, count) }
        case .unsupported:
            if case let .unknown(oid) = description.kind { throw .unsupportedAlgorithm(oid) }
            throw .unsupportedAlgorithm("\(description)")
        }
        guard let built else {
            ERR_clear_error()
            throw .malformedKey("libcrypto rejected the \(description) key")
        }
        // libcrypto's view of the key must agree with the Swift parser's (type and size).
        let expected: (type: String, bits: Int?)
        switch description.kind {
        case let .rsa(bits): expected = ("RSA", bits)
        case let .ec(curve): expected = ("EC", curve.bits)
        case .ed25519: expected = ("ED25519", nil)
        case .ed448: expected = ("ED448", nil)
        case .unknown: expected = ("", nil)
        }
        guard EVP_PKEY_is_a(built, expected.type) == 1, expected.bits.map({ EVP_PKEY_get_bits(built) == $0 }) ?? true else {
            EVP_PKEY_free(built)
            ERR_clear_error()
            throw .malformedKey("libcrypto's view of the key does not match \(description)")
        }
        self.description = description
        self.pkey = built
    }

    /// A C string that outlives every call: an OSSL_PARAM keeps the key and string-value pointers it
    /// is given until libcrypto reads them, so a temporary bridged Swift String would dangle.
    static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// An RSA public key from its modulus and exponent magnitudes (EVP_PKEY_fromdata, "n" and "e").
    ///
    /// The OSSL_PARAM array is built by hand, not with OSSL_PARAM_BLD and two BIGNUMs, and the
    /// context comes from a pool instead of a fetch per key: both would be repeated for every key.
    /// An OSSL_PARAM unsigned integer is native-endian (OSSL_PARAM_construct_BN), so the
    /// big-endian magnitudes are reversed on little-endian hosts.
    private static func rsaKey(modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>) -> OpaquePointer? {
        var n = nativeEndian(modulus)
        var e = nativeEndian(exponent)
        return n.withUnsafeMutableBufferPointer { nBuffer in
            e.withUnsafeMutableBufferPointer { eBuffer -> OpaquePointer? in
                guard let nBase = nBuffer.baseAddress, let eBase = eBuffer.baseAddress else { return nil }
                var fields = [
                    OSSL_PARAM_construct_BN(cString("n"), nBase, nBuffer.count), // OSSL_PKEY_PARAM_RSA_N
                    OSSL_PARAM_construct_BN(cString("e"), eBase, eBuffer.count), // OSSL_PKEY_PARAM_RSA_E
                    OSSL_PARAM_construct_end(),
                ]
                return fields.withUnsafeMutableBufferPointer { buffer in
                    buffer.baseAddress.flatMap { KeyImportContextPool.rsa.key(selection: ctrust_evp_pkey_public_key_selection(), $0) }
                }
            }
        }
    }

    /// A big-endian magnitude in the host's byte order.
    private static func nativeEndian(_ bigEndian: ArraySlice<UInt8>) -> [UInt8] {
        #if _endian(little)
        return bigEndian.reversed()
        #else
        return Array(bigEndian)
        #endif
    }

    /// libcrypto's own DER encoding of the key (i2d_PUBKEY): lets tests prove that building the key
    /// from components gives the key the SubjectPublicKeyInfo describes.
    func libcryptoSubjectPublicKeyInfo() -> [UInt8]? {
        let length = i2d_PUBKEY(pkey, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pkey, &cursor)
        }
        return written == length ? bytes : nil
    }

    deinit {
        EVP_PKEY_free(pkey)
    }
}
