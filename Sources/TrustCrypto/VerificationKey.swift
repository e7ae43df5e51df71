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
        let description = try PublicKeyDescription(spki: spki)
        let expectedType: String
        // The size libcrypto must report (RSA modulus or curve bits); EdDSA sizes are fixed by type.
        let expectedBits: Int?
        switch description.kind {
        case let .rsa(bits): (expectedType, expectedBits) = ("RSA", bits)
        case let .ec(curve): (expectedType, expectedBits) = ("EC", curve.bits)
        case .ed25519: (expectedType, expectedBits) = ("ED25519", nil)
        case .ed448: (expectedType, expectedBits) = ("ED448", nil)
        case let .unknown(oid): throw .unsupportedAlgorithm(oid)
        }

        let parsed: OpaquePointer? = withNonNullBytes(spki) { pointer, count in
            var cursor: UnsafePointer<UInt8>? = pointer
            guard let key = d2i_PUBKEY(nil, &cursor, count) else { return nil }
            // The whole SubjectPublicKeyInfo must have been consumed.
            guard let end = cursor, end - pointer == count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let parsed else {
            ERR_clear_error()
            throw .malformedKey("libcrypto rejected the \(description) key")
        }
        guard EVP_PKEY_is_a(parsed, expectedType) == 1,
              expectedBits.map({ EVP_PKEY_get_bits(parsed) == $0 }) ?? true else {
            EVP_PKEY_free(parsed)
            ERR_clear_error()
            throw .malformedKey("libcrypto's view of the key does not match \(description)")
        }
        self.description = description
        self.pkey = parsed
    }

    deinit {
        EVP_PKEY_free(pkey)
    }
}
