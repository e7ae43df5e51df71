#ifndef CTRUST_OPENSSL_SHIM_H
#define CTRUST_OPENSSL_SHIM_H

// Only libcrypto is used: signature verification and digests.
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/err.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/param_build.h>

/// EVP_PKEY_PUBLIC_KEY (a composite macro Swift does not import): the selection for
/// EVP_PKEY_fromdata that builds a public key from its components.
static inline int ctrust_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }

/// EVP_PKEY_KEY_PARAMETERS (a composite macro Swift does not import): the selection for
/// EVP_PKEY_fromdata that builds a key holding only domain parameters (an EC group, no point).
static inline int ctrust_evp_pkey_key_parameters_selection(void) { return EVP_PKEY_KEY_PARAMETERS; }

#endif
