/// Verifies signatures against a ``SignaturePolicy``.
public enum SignatureVerifier {
    /// Verifies `signature` over `signedBytes` with `key`, or throws why not.
    ///
    /// In order, it checks that the algorithm suits the key type (RSA algorithms need an RSA
    /// key, ECDSA an EC key, Ed25519/Ed448 the matching key); that the policy allows the
    /// algorithm and key size; that the signature value has the right shape (RSA: exactly the
    /// modulus length; ECDSA: one DER SEQUENCE of two minimal positive INTEGERs; EdDSA: 64 or
    /// 114 bytes); and finally the signature itself, with libcrypto.
    ///
    /// - Throws: ``SignatureError/keyAlgorithmMismatch(algorithm:key:)``,
    ///   ``SignatureError/legacyAlgorithm(_:)``, ``SignatureError/weakKey(bits:)``,
    ///   ``SignatureError/invalidSignature`` or ``SignatureError/cryptoFailure(_:)``.
    ///
    /// Without a `policy`, ``SignaturePolicy/modern``: called directly, no profile decides afterwards
    /// where SHA-1 or a small key is acceptable, so this refuses them (an evaluation passes its own).
    public static func verify(
        signature: ArraySlice<UInt8>,
        over signedBytes: ArraySlice<UInt8>,
        algorithm: SignatureAlgorithm,
        key: VerificationKey,
        policy: SignaturePolicy = .modern
    ) throws(SignatureError) {
        try checkAcceptable(algorithm: algorithm, key: key.description, policy: policy)
        try checkShape(signature, kind: key.description.kind)
        try key.evpVerify(signature: signature, message: signedBytes, algorithm: algorithm)
    }

    /// The checks of ``verify(signature:over:algorithm:key:policy:)`` that do not look at the
    /// signature: the algorithm suits the key type, and `policy` allows the algorithm and key size.
    ///
    /// A caller that remembers signatures already verified (by key and signed bytes) must still call
    /// this on every use of that memory: whether libcrypto accepts a signature does not depend on the
    /// policy, but the verdict does, and an earlier evaluation may have used a more lenient policy.
    ///
    /// - Throws: ``SignatureError/keyAlgorithmMismatch(algorithm:key:)``,
    ///   ``SignatureError/legacyAlgorithm(_:)`` or ``SignatureError/weakKey(bits:)``.
    public static func checkAcceptable(
        algorithm: SignatureAlgorithm,
        key: PublicKeyDescription,
        policy: SignaturePolicy
    ) throws(SignatureError) {
        try checkAgreement(algorithm, kind: key.kind, key: key)
        try policy.check(algorithm, key: key)
    }

    /// Throws ``SignatureError/keyAlgorithmMismatch(algorithm:key:)`` unless `algorithm` can use a key of `kind`.
    private static func checkAgreement(
        _ algorithm: SignatureAlgorithm,
        kind: PublicKeyDescription.Kind,
        key: PublicKeyDescription
    ) throws(SignatureError) {
        let agrees: Bool
        switch (algorithm, kind) {
        case (.rsaPKCS1v15, .rsa), (.rsaPSS, .rsa), (.ecdsa, .ec), (.ed25519, .ed25519), (.ed448, .ed448):
            agrees = true
        default:
            agrees = false
        }
        guard agrees else {
            throw .keyAlgorithmMismatch(algorithm: algorithm.description, key: key.description)
        }
    }

    /// Rejects signature values that cannot be valid for the key before calling libcrypto.
    private static func checkShape(_ signature: ArraySlice<UInt8>, kind: PublicKeyDescription.Kind) throws(SignatureError) {
        switch kind {
        case let .rsa(bits):
            // RFC 8017 §8.2.2 step 1 / §8.1.2 step 1: the signature is exactly k octets.
            guard signature.count == (bits + 7) / 8 else { throw .invalidSignature }
        case let .ec(curve):
            try ECDSASignatureEncoding.validate(signature, curve: curve)
        case .ed25519:
            guard signature.count == 64 else { throw .invalidSignature }
        case .ed448:
            guard signature.count == 114 else { throw .invalidSignature }
        case .unknown:
            throw .invalidSignature
        }
    }
}
