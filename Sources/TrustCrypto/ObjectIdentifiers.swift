import TrustDER

/// The object identifiers this module recognises.
enum OID {
    // MARK: Signature algorithms (RFC 3279, RFC 4055, RFC 5758, RFC 8410)

    /// sha1WithRSAEncryption.
    static let sha1WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.5"
    /// sha256WithRSAEncryption.
    static let sha256WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.11"
    /// sha384WithRSAEncryption.
    static let sha384WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.12"
    /// sha512WithRSAEncryption.
    static let sha512WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.13"
    /// id-RSASSA-PSS.
    static let rsassaPSS: ASN1ObjectIdentifier = "1.2.840.113549.1.1.10"
    /// id-mgf1.
    static let mgf1: ASN1ObjectIdentifier = "1.2.840.113549.1.1.8"
    /// ecdsa-with-SHA1.
    static let ecdsaWithSHA1: ASN1ObjectIdentifier = "1.2.840.10045.4.1"
    /// ecdsa-with-SHA256.
    static let ecdsaWithSHA256: ASN1ObjectIdentifier = "1.2.840.10045.4.3.2"
    /// ecdsa-with-SHA384.
    static let ecdsaWithSHA384: ASN1ObjectIdentifier = "1.2.840.10045.4.3.3"
    /// ecdsa-with-SHA512.
    static let ecdsaWithSHA512: ASN1ObjectIdentifier = "1.2.840.10045.4.3.4"
    /// id-Ed25519 (both the signature algorithm and the key algorithm).
    static let ed25519: ASN1ObjectIdentifier = "1.3.101.112"
    /// id-Ed448 (both the signature algorithm and the key algorithm).
    static let ed448: ASN1ObjectIdentifier = "1.3.101.113"

    // MARK: Hash algorithms

    /// id-sha1.
    static let sha1: ASN1ObjectIdentifier = "1.3.14.3.2.26"
    /// id-sha256.
    static let sha256: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.1"
    /// id-sha384.
    static let sha384: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.2"
    /// id-sha512.
    static let sha512: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.3"

    // MARK: Key algorithms and curves (RFC 3279, RFC 5480)

    /// rsaEncryption.
    static let rsaEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.1"
    /// id-ecPublicKey.
    static let ecPublicKey: ASN1ObjectIdentifier = "1.2.840.10045.2.1"
    /// secp192r1 / prime192v1.
    static let secp192r1: ASN1ObjectIdentifier = "1.2.840.10045.3.1.1"
    /// secp224r1.
    static let secp224r1: ASN1ObjectIdentifier = "1.3.132.0.33"
    /// secp256r1 / prime256v1.
    static let secp256r1: ASN1ObjectIdentifier = "1.2.840.10045.3.1.7"
    /// secp384r1.
    static let secp384r1: ASN1ObjectIdentifier = "1.3.132.0.34"
    /// secp521r1.
    static let secp521r1: ASN1ObjectIdentifier = "1.3.132.0.35"
}
