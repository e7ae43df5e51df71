import Foundation

// Fixtures generated once with the OpenSSL 3.0 CLI and embedded here (no key generation or
// signing happens at test time). Reproduce with:
//
//   printf 'SwiftTrust fixture message: the quick brown fox jumps over the lazy dog.\n' > msg.bin
//   openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa2048.pem   (1024 likewise)
//   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p256.pem    (P-384, P-521 likewise)
//   openssl genpkey -algorithm ED25519 -out ed25519.pem                             (ED448 likewise)
//   openssl pkey -in KEY.pem -pubout -outform DER                                   (SPKI)
//   openssl ec -in p256.pem -pubout -conv_form compressed -outform DER              (compressed SPKI)
//   openssl ecparam -name prime256v1 -param_enc explicit -genkey -noout -out x.pem
//   openssl ec -in x.pem -param_enc explicit -pubout -outform DER                   (explicit-curve SPKI)
//   openssl dgst -sha256 -sign rsa2048.pem msg.bin                                  (PKCS#1 v1.5, ECDSA)
//   openssl dgst -sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:32 \
//       -sigopt rsa_mgf1_md:sha256 -sign rsa2048.pem msg.bin                       (RSASSA-PSS)
//   openssl pkeyutl -sign -rawin -inkey ed25519.pem -in msg.bin                     (EdDSA)
//   AlgorithmIdentifiers: the outer signatureAlgorithm of `openssl req -x509` certificates
//   signed with the same options.
//
// Every signature was checked with `openssl dgst -verify` / `openssl pkeyutl -verify`.

/// Embedded DER and signature fixtures.
enum Fixtures {
    /// Decodes base64 text, ignoring whitespace; an invalid literal yields an empty array
    /// (which ``FixtureSanityTests`` catches).
    static func decode(_ text: String) -> [UInt8] {
        Data(base64Encoded: String(text.filter { !$0.isWhitespace })).map { Array($0) } ?? []
    }

    /// The signed message (ASCII text ending in a newline).
    static let message = decode(
        """
        U3dpZnRUcnVzdCBmaXh0dXJlIG1lc3NhZ2U6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cu
        Cg==
        """)

    /// RSA-2048 SubjectPublicKeyInfo (e = 65537).
    static let rsa2048SPKI = decode(
        """
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAv6PLtrMbRD3kS8KObFAx0cyw/p++Fmm1QU4qPKCdc/oA0ZZsEu7R
        5wiJN+UN3jUF47F+lxSb5dpq4Lha6Aw1oo/zBtLWFiKJ8C1l0E5QAPN575TZBiZEpwCWbgeEJ+cyEeZ/UYWYWSbN9dmEiQom
        2cGVtYjUe33sM9ErU9VtEhhpB3BJ7qMOadm6K4iP3ejbn2+LFBBZL+DRw540+1amnHenXHVdxzaUW5fSzsXM30+8PBfMH3SH
        UKKEX6tMvmrW9/pua7J5RqHfdXOpQVl/lE+bDaROCKtNJZ7LelQeCncYzep2IiOU4BTqDL/zyFieXR9yf2YmRgitiLvu5NX6
        1QIDAQAB
        """)

    /// RSA-1024 SubjectPublicKeyInfo (weak).
    static let rsa1024SPKI = decode(
        """
        MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDYBYC8ES/U0VvooN4sh/M5Z8UWZDAWnKjVCjUpmFYjxg9rST3421Pokt8l
        hDhiqRwbYlMEyaR04upH/Hl2EgPWoysVU47u2RpPv4EhSmp5CJTNIHsYqqvU8h9ChC1f3E8GwlTd66JkGCwcHtBNr77WLTBB
        LkEXkjxlvEZM4npRwQIDAQAB
        """)

    /// ECDSA P-256 SubjectPublicKeyInfo, uncompressed point.
    static let p256SPKI = decode(
        """
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE3Iw+Umpf4q9wirG6l4ncVa/nTYkuHCP+/iOIuw8dreK+VdMhpanZCM8MU7RR
        c1ICYXwfcPFZI0/Yq/QbeYa3Gg==
        """)

    /// The same P-256 key with a compressed point.
    static let p256CompressedSPKI = decode(
        """
        MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC3Iw+Umpf4q9wirG6l4ncVa/nTYkuHCP+/iOIuw8dreI=
        """)

    /// A P-256 key with explicit curve parameters (`-param_enc explicit`).
    static let p256ExplicitSPKI = decode(
        """
        MIIBSzCCAQMGByqGSM49AgEwgfcCAQEwLAYHKoZIzj0BAQIhAP////8AAAABAAAAAAAAAAAAAAAA////////////////MFsE
        IP////8AAAABAAAAAAAAAAAAAAAA///////////////8BCBaxjXYqjqT57PrvVV2mIa8ZR0GsMxTsPY7zjw+J9JgSwMVAMSd
        NgiG5wSTamZ44ROdJreBn36QBEEEaxfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpZP40Li/hp/m47n60p8D54WK84z
        V2sxXs7LtkBoN79R9QIhAP////8AAAAA//////////+85vqtpxeehPO5ysL8YyVRAgEBA0IABFGuRZnbl9zzcd37VRU6pC/k
        5By8KacVSq14dJRnPNgW3MthcWXXHPNGjhdTxsrGuK69oNbYVBei5FNyt3GuG0Q=
        """)

    /// ECDSA P-384 SubjectPublicKeyInfo.
    static let p384SPKI = decode(
        """
        MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAESpKyBAYXnCn57lIG0m39m4IYff14AyoA8/42mkK37U9vTDIs58V3W8ZJfxzrouAh
        hvh8M1aZl9WDlxW5F69RXBejdscx4TcYq2+fECVAWCm4jA7vQ0Lm6k1XWRPLWGfO
        """)

    /// ECDSA P-521 SubjectPublicKeyInfo.
    static let p521SPKI = decode(
        """
        MIGbMBAGByqGSM49AgEGBSuBBAAjA4GGAAQArUuxauB3Lz3y61m4LfWFmtMHAF/evTKaa/oRkomh/goOgEjpS4FsrYommPBo
        j36uyLKxVjF2mc91xzQBD90pHX8B0bDWLzjbhiqpR874NLEVoHVhshnIczN9MObSIw8fYOw+acnK0RZQ2+7aFoLOQ5hwTHDm
        Ns1RK2dZafgbCOcUkUM=
        """)

    /// Ed25519 SubjectPublicKeyInfo.
    static let ed25519SPKI = decode(
        """
        MCowBQYDK2VwAyEAH3VRx2tBWjI7YBHvS8Kwd41FTtFVmofueFkFSN1KpzM=
        """)

    /// Ed448 SubjectPublicKeyInfo.
    static let ed448SPKI = decode(
        """
        MEMwBQYDK2VxAzoA65zGovBmsAkkreoIsiW15wtz3lR8Frhw0hn3liOXlDiicmUXIj3uniyfc9BD9ccIGO8Qnf5DnHKA
        """)

    /// RSA-2048 PKCS#1 v1.5 SHA-256 signature over `message`.
    static let rsa2048SHA256Signature = decode(
        """
        IqwivYG3xqGvlCwI7RhisZaeiiOgl5hy+ePjBWrNaSme2Vff+K1plmyJFq8G2ziokX+kDHZR6zU23j7RiZ4KArVAxkoFuvzz
        LXkHifPadb5Kzbdux7N7NypUQgfODak3DiSdcKHaGJggAKtW0vKIUHS2nWzuc7e9Q7GiAQ5DArr1PSSAtOhDsHG3+K/ut2CJ
        5iC+4p6e58B8xKTElh9ZulEEkHeG520z8bn4OpVaIrbSFq3AdB+E+yl/vsRcLa48Sy98r7fM603Eg8K1KDcu9CkN+5jQg+pz
        mVsKrwgIv0Hz6BCizWG//6H4ZZXXrGPS8GNxvNFdgGru7kef50ngCg==
        """)

    /// RSA-2048 PKCS#1 v1.5 SHA-384 signature over `message`.
    static let rsa2048SHA384Signature = decode(
        """
        oi4NfBG7leDUwx9w1wLrAiiCz6hWWwcBRWmOTBRB7lU5T6WQKLUzP5RjxgFgRRPHnjlQebeP7tR70vqL0TMnomDUTXkbHQyd
        tzfTwI4qwxFPIQdTc4o49x2YL+RkWifI9wbGjDyfRNjG/2DgFKkNJDsjEF+eF+7zBNtfAJcnB9PsPoRZY9DsZu99sB3imwgV
        /PIE92v4SeGzSymqlmKPo9MjfD/lKaDENDP9SuakUJE6BBX/qdmibzEUbllmEDl7/7bmdAOEgxxXpj166ckeHRZ8h0fPYhy4
        41v+LkgDZmDqy2Cc+iorloLC3fd/5YvC/P0C+F8OjbwVx2R8AIAIOQ==
        """)

    /// RSA-2048 PKCS#1 v1.5 SHA-512 signature over `message`.
    static let rsa2048SHA512Signature = decode(
        """
        Jt9vtfU10pAZwzYWFjRJdbwfV13pMAg7uRsN/PMZKgh3VjGrXsq48yRJO5ytS3O+7ds4VLo9F8IbrxXwJn6ANFbmUHBokPLN
        jbr4DbAS3g4tAe641WIynWjDJNfYphG0xmbZdl/cScJGDbGKHXKGwRB23X35gZ/pOWcgBzPuAxX4EDvfDmtQSjNB7o1FHQEl
        Qnj+bk8cbzpxADkmkuIJROAIhNGSw3X2GxWy4HogGmk8/u9qcDOstF0bNA3b8ztK+rIometBrmZu1s5yak0YOx0DjPZRf0li
        sG59RVSOG7dnmcDs8U7Ij/qF9udz4cDTuUZxoHKgK6bwouKUkMJ8vA==
        """)

    /// RSA-2048 PKCS#1 v1.5 SHA-1 signature over `message` (legacy).
    static let rsa2048SHA1Signature = decode(
        """
        bHQJWeU/6xUPjuL9O5uDPWyprgZbKKPf6bTZlHFo/bvw546tPwyODFcPPR8ZWNMqy8HPePiN1HONFEXWlfV/O9J3QPfMMfTX
        7M0IXcPSXksMndrbIfc4H2kIdG+Gbxs234X9co7NFz7TmLgkvUWMGXhVX9tejl9ddRS29S16hWvII+AeIJ4jYZGY8PX4ouAk
        YAgAt1zp/2vfzdhzzz7CsHAm9Li/IcWcGZpPHprUVPzU5w9luE2A5rIqGYfoBzWUbeRUf8nZQErGSRf+yEpQ0g3ySo9J0QK+
        zyO5uad+maGYx2cAeNJRN1XhA666ciKYhZtfNHpVg8/l96VeKp3iEA==
        """)

    /// RSA-2048 RSASSA-PSS signature (SHA-256, MGF1-SHA-256, salt 32) over `message`.
    static let rsa2048PSSSignature = decode(
        """
        KdtujPBD3AtckhXLdWCmmjVCABddqbeljrTWYQMEaFJlahhcyWc20jjnPGufKIRpQ0uB+CU/jQGMkY149B0flsWM4gY+BgJx
        RzbfrHRJ9Ol6ETNqea8zMGGbG1s7saZCh8JpIWZd8udIrPvIfkTea4833pxQcTZFAYnVUXf68upOSSgsYyfCvIrKgwDHz6jb
        VIbtcLZDA2Iibf0Vad02QLnENuKROsTcxPnCrNbm2Ev8Yq9y2XPWn23GRzBZhHxpdpqR0xakQydG/lEdeYg74NSF/Ey174n8
        KBYe4B0JecTPeFxyIvisR8hB0HKEHBz66aDBKRsF6nMYUU3sKG5Ohw==
        """)

    /// RSA-1024 PKCS#1 v1.5 SHA-256 signature over `message` (weak key).
    static let rsa1024SHA256Signature = decode(
        """
        LXbB+i8S50dwTjgnzP7if0udgpO6cKfX5dNZECh1A/HvNNrQpHn3X/r00C/TZPO8HvRfINFvU5HyQ4Ba/LdAEsBG2AtqcqKl
        OT6ChYN6SpmX5f8EaRctqEmPaeXZ8m2sQeAhezdEwkXzkGjBTX5OtYC/TeSDSq8+OWCLAVwn91E=
        """)

    /// ECDSA P-256 / SHA-256 signature over `message`.
    static let p256Signature = decode(
        """
        MEUCIQDMZUWxr0nAZQUoGSOEj5qw2JWvFTUFi9VjbthcOLgXiwIgDUlpE3uRqEXkXarmOWprbc5asNm3gBAJew3PVdeiY7s=
        """)

    /// ECDSA P-384 / SHA-384 signature over `message`.
    static let p384Signature = decode(
        """
        MGUCMQDJMv66D5k8ihfXsJFduA9WOl+Bxs+xT1nblJf+1BWzAlZkos5RrlToc+C6MznHpQACMFflKS4wh/PdZwbHa9Akrv5v
        Ig24ntZ+mtFsVJSSjH6E8KJiF/PS+0OnCKWeC9WHVQ==
        """)

    /// ECDSA P-521 / SHA-512 signature over `message`.
    static let p521Signature = decode(
        """
        MIGIAkIA8FrfgrpdasAAPE5UjRiUC8OYV6Uiqr/V3VB0lxzYnvGIA0IeTBXlOtjzPfzN5rJLA/i1+klKsS10Q4Lco4wP/zwC
        QgCN1n5NyaRoqrOjU3+/+P4ajCVcf1ml7qfcM+MChcqVDDVBnFnItJ2z1akOh4l3CyT60lZWVk/tOXhwP2RwrAPKZQ==
        """)

    /// Ed25519 signature over `message`.
    static let ed25519Signature = decode(
        """
        BoVuH8D6QYvmyjdJnIzBG/T1WPX5PkImzrTaavUTmM3kZn4aOV96pETq1mfS1TaKDfY0pLwDuNRdfZXuW6J5Bw==
        """)

    /// Ed448 signature over `message`.
    static let ed448Signature = decode(
        """
        an1oEiUURzIlYO9rYM1Cs/XX5hRAMvK2eI1S0UQ6g0p63WzKYSm3v8OH9j5Re+7juN1cvIsgYP6AKbYM1tFsIXo3EwbbzW+O
        /GQP1ZqkJFxpmzGpfkhynCmaIou5jA+WfYKw+w4wxOwDvWhiuKXnBRwA
        """)

    /// AlgorithmIdentifier sha256WithRSAEncryption (with NULL), from an OpenSSL certificate.
    static let sha256WithRSAAlgorithmID = decode(
        """
        MA0GCSqGSIb3DQEBCwUA
        """)

    /// AlgorithmIdentifier sha384WithRSAEncryption.
    static let sha384WithRSAAlgorithmID = decode(
        """
        MA0GCSqGSIb3DQEBDAUA
        """)

    /// AlgorithmIdentifier sha512WithRSAEncryption.
    static let sha512WithRSAAlgorithmID = decode(
        """
        MA0GCSqGSIb3DQEBDQUA
        """)

    /// AlgorithmIdentifier sha1WithRSAEncryption.
    static let sha1WithRSAAlgorithmID = decode(
        """
        MA0GCSqGSIb3DQEBBQUA
        """)

    /// AlgorithmIdentifier RSASSA-PSS (SHA-256, MGF1-SHA-256, salt 32).
    static let rsaPSSAlgorithmID = decode(
        """
        MEEGCSqGSIb3DQEBCjA0oA8wDQYJYIZIAWUDBAIBBQChHDAaBgkqhkiG9w0BAQgwDQYJYIZIAWUDBAIBBQCiAwIBIA==
        """)

    /// AlgorithmIdentifier ecdsa-with-SHA256 (no parameters).
    static let ecdsaSHA256AlgorithmID = decode(
        """
        MAoGCCqGSM49BAMC
        """)

    /// AlgorithmIdentifier ecdsa-with-SHA384.
    static let ecdsaSHA384AlgorithmID = decode(
        """
        MAoGCCqGSM49BAMD
        """)

    /// AlgorithmIdentifier ecdsa-with-SHA512.
    static let ecdsaSHA512AlgorithmID = decode(
        """
        MAoGCCqGSM49BAME
        """)

    /// AlgorithmIdentifier Ed25519.
    static let ed25519AlgorithmID = decode(
        """
        MAUGAytlcA==
        """)

    /// AlgorithmIdentifier Ed448.
    static let ed448AlgorithmID = decode(
        """
        MAUGAytlcQ==
        """)
}
