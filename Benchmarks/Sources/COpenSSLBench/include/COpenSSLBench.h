// The OpenSSL 3 columns of the SwiftTrust benchmark: thin wrappers around libcrypto so the
// Swift harness times exactly the libcrypto calls named here, and nothing of OpenSSL leaks out.
#ifndef COPENSSL_BENCH_H
#define COPENSSL_BENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `OpenSSL_version(OPENSSL_VERSION)` of the libcrypto actually linked.
const char *ob_openssl_version(void);

/// One complete parse, as the verifier will need it: `d2i_X509` (which, in OpenSSL 3, also decodes
/// the SubjectPublicKeyInfo into an EVP_PKEY through the provider decoders), `X509_get_pubkey`
/// (an up-ref of that key) and `X509_get_extension_flags` (which decodes and caches basicConstraints,
/// keyUsage, extKeyUsage, SKI, AKI, SAN, nameConstraints, CRL distribution points and the SHA-1
/// hash: what X509_verify_cert reads). Frees everything. Returns 1 on success.
int ob_parse_full(const uint8_t *der, size_t length);

/// `d2i_X509` + `X509_free` only.
int ob_parse_d2i(const uint8_t *der, size_t length);

/// An opaque parsed certificate (`X509 *`).
typedef struct ob_cert ob_cert;
ob_cert *ob_cert_new(const uint8_t *der, size_t length);
void ob_cert_free(ob_cert *cert);

/// Verifies leaf ← intermediate ← root the way a TLS client does: `X509_STORE` holding the root,
/// `X509_STORE_CTX` with the intermediate as untrusted, `X509_VERIFY_PARAM` with the "ssl_server"
/// purpose, the host name and a fixed time, then `X509_verify_cert`.
/// `ob_verify_fresh` parses the three DER certificates and builds the store each call (everything is freed);
/// `ob_verify_reused` reuses parsed certificates and a store (`ob_store_new`), with a new ctx per call.
/// Return 1 when the chain verifies, 0 when not, -1 on an internal error.
int ob_verify_fresh(const uint8_t *leaf, size_t leaf_length,
                    const uint8_t *intermediate, size_t intermediate_length,
                    const uint8_t *root, size_t root_length,
                    const char *host, int64_t at_time);

typedef struct ob_store ob_store;
ob_store *ob_store_new(const ob_cert *root);
void ob_store_free(ob_store *store);
int ob_verify_reused(ob_store *store, const ob_cert *leaf, const ob_cert *intermediate,
                     const char *host, int64_t at_time);

/// The last X509_verify_cert error string of this thread's last `ob_verify_*` call (diagnostics).
const char *ob_last_verify_error(void);

/// A public key (`EVP_PKEY *`) from a certificate's SPKI, for the raw signature column.
typedef struct ob_key ob_key;
ob_key *ob_key_from_cert(const uint8_t *der, size_t length);
void ob_key_free(ob_key *key);

/// One raw signature check: `EVP_MD_CTX_new`, `EVP_DigestVerifyInit` (SHA-256, the reused key),
/// `EVP_DigestVerify` over `message`, `EVP_MD_CTX_free`. Returns 1 when the signature is valid.
int ob_digest_verify_sha256(const ob_key *key, const uint8_t *signature, size_t signature_length,
                            const uint8_t *message, size_t message_length);

/// Splits a certificate's DER into its tbsCertificate and signatureValue (pointers into `der`),
/// using libcrypto (so the Swift side need not trust its own parser for the baseline).
int ob_split_certificate(const uint8_t *der, size_t length,
                         size_t *tbs_offset, size_t *tbs_length,
                         uint8_t *signature, size_t signature_capacity, size_t *signature_length);

/// Bytes of heap in use according to glibc: `mallinfo2().uordblks + mallinfo2().hblkhd`.
size_t ob_heap_in_use(void);

#ifdef __cplusplus
}
#endif

#endif
