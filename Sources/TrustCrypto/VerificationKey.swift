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
        // OpenSSL 3's provider decoders cost 240–330 µs per key here, EVP_PKEY_fromdata 12 µs (RSA
        // 2048) and 50 µs (P-256), and new_raw_public_key far less (issue 17; measured with a C
        // loop over libcrypto 3.0). All three are supported, non-deprecated OpenSSL 3 API.
        switch material {
        case let .rsa(modulus, exponent):
            built = VerificationKey.rsaKey(modulus: modulus, exponent: exponent)
        case let .ec(curve, point):
            // fromdata decodes the point with EC_POINT_oct2point, which rejects points off the curve.
            built = VerificationKey.ecKey(groupName: VerificationKey.groupName(curve), point: point)
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

    /// The OpenSSL group name of a named curve.
    private static func groupName(_ curve: PublicKeyDescription.NamedCurve) -> StaticString {
        switch curve {
        case .p256: return "prime256v1"
        case .p384: return "secp384r1"
        case .p521: return "secp521r1"
        }
    }

    /// A C string that outlives every call: OSSL_PARAM_BLD keeps the key and string-value pointers
    /// it is given until OSSL_PARAM_BLD_to_param, so a temporary bridged Swift String would dangle.
    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// An RSA public key from its modulus and exponent magnitudes (EVP_PKEY_fromdata, "n" and "e").
    private static func rsaKey(modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>) -> OpaquePointer? {
        let n = withNonNullBytes(modulus) { pointer, count in BN_bin2bn(pointer, Int32(count), nil) }
        let e = withNonNullBytes(exponent) { pointer, count in BN_bin2bn(pointer, Int32(count), nil) }
        defer { BN_free(n); BN_free(e) }
        guard let n, let e, let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard OSSL_PARAM_BLD_push_BN(builder, cString("n"), n) == 1,  // OSSL_PKEY_PARAM_RSA_N
              OSSL_PARAM_BLD_push_BN(builder, cString("e"), e) == 1,  // OSSL_PKEY_PARAM_RSA_E
              let parameters = OSSL_PARAM_BLD_to_param(builder) else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        return fromData(type: "RSA", parameters)
    }

    /// An EC public key on the named group from its encoded point (EVP_PKEY_fromdata, "group" and "pub").
    private static func ecKey(groupName: StaticString, point: ArraySlice<UInt8>) -> OpaquePointer? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        // Everything inside the closure: the builder keeps `pointer` until OSSL_PARAM_BLD_to_param copies it.
        return withNonNullBytes(point) { pointer, count -> OpaquePointer? in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, cString("group"), cString(groupName), 0) == 1,  // OSSL_PKEY_PARAM_GROUP_NAME
                  OSSL_PARAM_BLD_push_octet_string(builder, cString("pub"), pointer, count) == 1,  // OSSL_PKEY_PARAM_PUB_KEY
                  let parameters = OSSL_PARAM_BLD_to_param(builder) else { return nil }
            defer { OSSL_PARAM_free(parameters) }
            return fromData(type: "EC", parameters)
        }
    }

    /// EVP_PKEY_fromdata for a public key of `type` from `parameters`.
    private static func fromData(type: String, _ parameters: UnsafeMutablePointer<OSSL_PARAM>) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
              EVP_PKEY_fromdata(context, &key, ctrust_evp_pkey_public_key_selection(), parameters) == 1 else {
            EVP_PKEY_free(key)
            return nil
        }
        return key
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
