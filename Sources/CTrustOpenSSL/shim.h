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

#endif
