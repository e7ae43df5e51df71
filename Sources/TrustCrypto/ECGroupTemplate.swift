internal import CTrustOpenSSL

/// The domain parameters of one named curve as a libcrypto key without a public point, built once
/// per process; every EC verification key on that curve is a copy of it with its point set.
///
/// `EVP_PKEY_fromdata` from a group name makes OpenSSL 3.0's EC key manager build the group from its
/// name for every key (`EC_GROUP_new_by_curve_name`, most of the cost of building an EC key).
/// `EVP_PKEY_dup` of this template copies the group instead, which is far cheaper. Both are
/// supported, non-deprecated API.
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never modified after `init` (keys are built from
/// `EVP_PKEY_dup` copies, never from the template itself), and OpenSSL 3 allows concurrent read-only
/// use of one `EVP_PKEY`, which `EVP_PKEY_dup` is. It is freed only in `deinit`.
final class ECGroupTemplate: @unchecked Sendable {
    /// The libcrypto key holding only the group (`EVP_PKEY *`), owned by this object.
    private let parameters: OpaquePointer

    /// The template of `curve`, built on first use. A failure is not remembered: the next key
    /// on that curve tries again, and until then keys on it are refused (fail closed).
    static func shared(_ curve: PublicKeyDescription.NamedCurve) throws(SignatureError) -> ECGroupTemplate {
        switch curve {
        case .p192: return try p192.value { () throws(SignatureError) in try ECGroupTemplate(curve) }
        case .p224: return try p224.value { () throws(SignatureError) in try ECGroupTemplate(curve) }
        case .p256: return try p256.value { () throws(SignatureError) in try ECGroupTemplate(curve) }
        case .p384: return try p384.value { () throws(SignatureError) in try ECGroupTemplate(curve) }
        case .p521: return try p521.value { () throws(SignatureError) in try ECGroupTemplate(curve) }
        }
    }

    private static let p192 = ComputedOnce<ECGroupTemplate>()
    private static let p224 = ComputedOnce<ECGroupTemplate>()
    private static let p256 = ComputedOnce<ECGroupTemplate>()
    private static let p384 = ComputedOnce<ECGroupTemplate>()
    private static let p521 = ComputedOnce<ECGroupTemplate>()

    /// The group of `curve`, by name (EVP_PKEY_fromdata with the domain-parameter selection only).
    private init(_ curve: PublicKeyDescription.NamedCurve) throws(SignatureError) {
        let name = ECGroupTemplate.groupName(curve)
        var fields = [
            // OSSL_PKEY_PARAM_GROUP_NAME
            OSSL_PARAM_construct_utf8_string(VerificationKey.cString("group"), UnsafeMutablePointer(mutating: VerificationKey.cString(name)), 0),
            OSSL_PARAM_construct_end(),
        ]
        let built = fields.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { KeyImportContextPool.ec.key(selection: ctrust_evp_pkey_key_parameters_selection(), $0) }
        }
        guard let built else {
            ERR_clear_error()
            throw .cryptoFailure("libcrypto could not build the \(curve) group")
        }
        parameters = built
    }

    /// A new key on this curve with the encoded point `point` (SEC 1 §2.3.3), or nil if libcrypto
    /// refuses the point.
    ///
    /// `EVP_PKEY_set1_encoded_public_key` decodes the point with `EC_POINT_oct2point`, exactly as
    /// `EVP_PKEY_fromdata` did: a point not on the curve, or a compressed x without a square root,
    /// is refused. On refusal the half-built copy is freed; the template itself is never touched.
    func key(point: ArraySlice<UInt8>) -> OpaquePointer? {
        guard let key = EVP_PKEY_dup(parameters) else { return nil }
        guard withNonNullBytes(point, { pointer, count in EVP_PKEY_set1_encoded_public_key(key, pointer, count) }) == 1 else {
            EVP_PKEY_free(key)
            return nil
        }
        return key
    }

    /// The OpenSSL group name of a named curve.
    private static func groupName(_ curve: PublicKeyDescription.NamedCurve) -> StaticString {
        switch curve {
        case .p192: return "prime192v1"
        case .p224: return "secp224r1"
        case .p256: return "prime256v1"
        case .p384: return "secp384r1"
        case .p521: return "secp521r1"
        }
    }

    deinit {
        EVP_PKEY_free(parameters)
    }
}
