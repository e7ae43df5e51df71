#include "COpenSSLBench.h"

#include <malloc.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

const char *ob_openssl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

int ob_parse_full(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) { ERR_clear_error(); return 0; }
    EVP_PKEY *key = X509_get_pubkey(cert);
    uint32_t flags = X509_get_extension_flags(cert);
    int ok = key != NULL && (flags & EXFLAG_INVALID) == 0;
    EVP_PKEY_free(key);
    X509_free(cert);
    if (!ok) ERR_clear_error();
    return ok;
}

int ob_parse_d2i(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) { ERR_clear_error(); return 0; }
    X509_free(cert);
    return 1;
}

ob_cert *ob_cert_new(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) ERR_clear_error();
    return (ob_cert *)cert;
}

void ob_cert_free(ob_cert *cert) { X509_free((X509 *)cert); }

static _Thread_local int last_verify_error = X509_V_OK;

const char *ob_last_verify_error(void) { return X509_verify_cert_error_string(last_verify_error); }

static int verify_with(X509_STORE *store, X509 *leaf, X509 *intermediate, const char *host, int64_t at_time) {
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    int result = -1;
    if (ctx == NULL || untrusted == NULL) goto done;
    if (!sk_X509_push(untrusted, intermediate)) goto done;  /* borrowed: sk_X509_free does not free it */
    if (X509_STORE_CTX_init(ctx, store, leaf, untrusted) != 1) goto done;
    X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
    if (X509_VERIFY_PARAM_set1_host(param, host, 0) != 1) goto done;
    X509_VERIFY_PARAM_set_time(param, (time_t)at_time);
    if (X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER) != 1) goto done;
    result = X509_verify_cert(ctx) == 1 ? 1 : 0;
    last_verify_error = X509_STORE_CTX_get_error(ctx);
done:
    sk_X509_free(untrusted);
    X509_STORE_CTX_free(ctx);
    ERR_clear_error();
    return result;
}

int ob_verify_fresh(const uint8_t *leaf_der, size_t leaf_length,
                    const uint8_t *intermediate_der, size_t intermediate_length,
                    const uint8_t *root_der, size_t root_length,
                    const char *host, int64_t at_time) {
    const unsigned char *cursor;
    cursor = leaf_der;
    X509 *leaf = d2i_X509(NULL, &cursor, (long)leaf_length);
    cursor = intermediate_der;
    X509 *intermediate = d2i_X509(NULL, &cursor, (long)intermediate_length);
    cursor = root_der;
    X509 *root = d2i_X509(NULL, &cursor, (long)root_length);
    X509_STORE *store = X509_STORE_new();
    int result = -1;
    if (leaf != NULL && intermediate != NULL && root != NULL && store != NULL && X509_STORE_add_cert(store, root) == 1) {
        result = verify_with(store, leaf, intermediate, host, at_time);
    }
    X509_STORE_free(store);
    X509_free(root);
    X509_free(intermediate);
    X509_free(leaf);
    ERR_clear_error();
    return result;
}

ob_store *ob_store_new(const ob_cert *root) {
    X509_STORE *store = X509_STORE_new();
    if (store == NULL) return NULL;
    if (X509_STORE_add_cert(store, (X509 *)root) != 1) {
        X509_STORE_free(store);
        ERR_clear_error();
        return NULL;
    }
    return (ob_store *)store;
}

void ob_store_free(ob_store *store) { X509_STORE_free((X509_STORE *)store); }

int ob_verify_reused(ob_store *store, const ob_cert *leaf, const ob_cert *intermediate, const char *host, int64_t at_time) {
    return verify_with((X509_STORE *)store, (X509 *)leaf, (X509 *)intermediate, host, at_time);
}

ob_key *ob_key_from_cert(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) { ERR_clear_error(); return NULL; }
    EVP_PKEY *key = X509_get_pubkey(cert);
    X509_free(cert);
    return (ob_key *)key;
}

void ob_key_free(ob_key *key) { EVP_PKEY_free((EVP_PKEY *)key); }

int ob_digest_verify_sha256(const ob_key *key, const uint8_t *signature, size_t signature_length,
                            const uint8_t *message, size_t message_length) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return -1;
    int ok = EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, (EVP_PKEY *)key) == 1
        && EVP_DigestVerify(ctx, signature, signature_length, message, message_length) == 1;
    EVP_MD_CTX_free(ctx);
    if (!ok) ERR_clear_error();
    return ok ? 1 : 0;
}

int ob_split_certificate(const uint8_t *der, size_t length,
                         size_t *tbs_offset, size_t *tbs_length,
                         uint8_t *signature, size_t signature_capacity, size_t *signature_length) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) { ERR_clear_error(); return 0; }
    /* The tbsCertificate is the first element inside the outer SEQUENCE: re-encode-free lookup
       by walking the outer header. */
    const unsigned char *p = der;
    long inner_length;
    int tag, xclass;
    int ok = 0;
    if (ASN1_get_object(&p, &inner_length, &tag, &xclass, (long)length) & 0x80) goto done;
    const unsigned char *tbs_start = p;
    if (ASN1_get_object(&p, &inner_length, &tag, &xclass, (long)(length - (size_t)(p - der))) & 0x80) goto done;
    *tbs_offset = (size_t)(tbs_start - der);
    *tbs_length = (size_t)(p - tbs_start) + (size_t)inner_length;
    const ASN1_BIT_STRING *sig = NULL;
    X509_get0_signature(&sig, NULL, cert);
    if (sig == NULL || (size_t)ASN1_STRING_length(sig) > signature_capacity) goto done;
    memcpy(signature, ASN1_STRING_get0_data(sig), (size_t)ASN1_STRING_length(sig));
    *signature_length = (size_t)ASN1_STRING_length(sig);
    ok = 1;
done:
    X509_free(cert);
    ERR_clear_error();
    return ok;
}

size_t ob_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
