internal import CTrustOpenSSL

extension VerificationKey {
    /// Verifies `signature` over `message` with libcrypto, using a fresh `EVP_MD_CTX`.
    ///
    /// The caller has already checked that `algorithm` suits this key. Any libcrypto
    /// failure — including a bad signature — is ``SignatureError/invalidSignature``, and
    /// the thread's OpenSSL error queue is cleared so nothing leaks into later calls.
    func evpVerify(
        signature: ArraySlice<UInt8>,
        message: ArraySlice<UInt8>,
        algorithm: SignatureAlgorithm
    ) throws(SignatureError) {
        let digests = EVPDigestTable.shared
        var md: OpaquePointer?
        if let digest = algorithm.digest {
            guard let fetched = digests.md(digest) else {
                throw .cryptoFailure("no libcrypto implementation of \(digest)")
            }
            md = fetched
        }
        guard let context = EVP_MD_CTX_new() else {
            throw .cryptoFailure("EVP_MD_CTX_new failed")
        }
        defer { EVP_MD_CTX_free(context) }

        var keyContext: OpaquePointer?
        // EdDSA takes a NULL digest: the hash is part of the scheme.
        guard EVP_DigestVerifyInit(context, &keyContext, md, nil, pkey) == 1, let keyContext else {
            ERR_clear_error()
            throw .invalidSignature
        }

        switch algorithm {
        case .rsaPKCS1v15:
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else {
                ERR_clear_error()
                throw .invalidSignature
            }
        case let .rsaPSS(_, mgf1Hash, saltLength):
            guard let mgf1 = digests.md(mgf1Hash) else {
                throw .cryptoFailure("no libcrypto implementation of \(mgf1Hash)")
            }
            // The salt length is an exact, non-negative value (never OpenSSL's negative
            // "auto"/"digest"/"max" sentinels), so a signature with any other salt fails.
            guard saltLength >= 0, saltLength <= SignatureAlgorithm.maximumPSSSaltLength,
                EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, mgf1) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, Int32(saltLength)) == 1
            else {
                ERR_clear_error()
                throw .invalidSignature
            }
        case .ecdsa, .ed25519, .ed448:
            break
        }

        let status = withNonNullBytes(signature) { signaturePointer, signatureCount in
            withNonNullBytes(message) { messagePointer, messageCount in
                EVP_DigestVerify(context, signaturePointer, signatureCount, messagePointer, messageCount)
            }
        }
        guard status == 1 else {
            ERR_clear_error()
            throw .invalidSignature
        }
    }
}
