import TrustCrypto
import TrustDER
import XCTest

/// A tiny DER encoder for building malformed and edge-case inputs in tests.
enum DER {
    /// One TLV with a single-octet identifier and a minimal definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        DERWriter.tlv(identifier: tag, content: content)
    }

    static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func explicit(_ number: UInt8, _ parts: [UInt8]...) -> [UInt8] { tlv(0xA0 | number, parts.flatMap { $0 }) }
    static func oid(_ dotted: String) -> [UInt8] { tlv(0x06, Array(ASN1ObjectIdentifier(stringLiteral: dotted).bytes)) }
    static let null: [UInt8] = [0x05, 0x00]
    static func integer(_ content: [UInt8]) -> [UInt8] { tlv(0x02, content) }
    static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> [UInt8] { tlv(0x03, [unusedBits] + bytes) }

    /// The AlgorithmIdentifier for a hash, with NULL parameters or none.
    static func hashAlgorithm(_ dotted: String, null withNull: Bool = true) -> [UInt8] {
        withNull ? sequence(oid(dotted), null) : sequence(oid(dotted))
    }
}

/// Well-known OIDs spelled out for tests (independent of the module's own table).
enum TestOID {
    static let sha1 = "1.3.14.3.2.26"
    static let sha224 = "2.16.840.1.101.3.4.2.4"
    static let sha256 = "2.16.840.1.101.3.4.2.1"
    static let sha384 = "2.16.840.1.101.3.4.2.2"
    static let mgf1 = "1.2.840.113549.1.1.8"
    static let rsassaPSS = "1.2.840.113549.1.1.10"
    static let rsaEncryption = "1.2.840.113549.1.1.1"
    static let sha256WithRSA = "1.2.840.113549.1.1.11"
    static let ecPublicKey = "1.2.840.10045.2.1"
    static let ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
    static let prime256v1 = "1.2.840.10045.3.1.7"
    static let secp256k1 = "1.3.132.0.10"
    static let ed25519 = "1.3.101.112"
    static let dsa = "1.2.840.10040.4.1"
}

/// Parses a DER AlgorithmIdentifier into a ``SignatureAlgorithm``.
func signatureAlgorithm(_ der: [UInt8]) throws -> SignatureAlgorithm {
    try SignatureAlgorithm(algorithmIdentifier: DERReader.parseSingle(der))
}

/// Parses `spki` into a ``VerificationKey``.
func verificationKey(_ spki: [UInt8]) throws -> VerificationKey {
    try VerificationKey(spki: spki[...])
}

/// Verifies with `ArraySlice` conversions spelled out once.
func verify(
    _ signature: [UInt8],
    _ message: [UInt8],
    _ algorithm: SignatureAlgorithm,
    _ key: VerificationKey,
    policy: SignaturePolicy = .default
) throws {
    try SignatureVerifier.verify(signature: signature[...], over: message[...], algorithm: algorithm, key: key, policy: policy)
}

/// Asserts that `body` throws exactly `expected`.
func assertThrows(
    _ expected: SignatureError,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> Void
) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        XCTAssertEqual(error as? SignatureError, expected, file: file, line: line)
    }
}

/// Asserts that `body` throws a ``SignatureError`` matching `matches` (for cases carrying free text).
func assertThrows(
    file: StaticString = #filePath,
    line: UInt = #line,
    where matches: (SignatureError) -> Bool,
    _ body: () throws -> Void
) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        guard let error = error as? SignatureError else {
            return XCTFail("expected a SignatureError, got \(error)", file: file, line: line)
        }
        XCTAssertTrue(matches(error), "unexpected error: \(error)", file: file, line: line)
    }
}

extension SignatureError {
    var isMalformedAlgorithmParameters: Bool {
        if case .malformedAlgorithmParameters = self { return true }
        return false
    }

    var isMalformedKey: Bool {
        if case .malformedKey = self { return true }
        return false
    }
}

/// Returns `bytes` with bit `bit` (0 = most significant bit of byte 0) inverted.
func flippingBit(_ bytes: [UInt8], _ bit: Int) -> [UInt8] {
    var copy = bytes
    copy[bit / 8] ^= 0x80 >> UInt8(bit % 8)
    return copy
}

/// One signature fixture with everything needed to verify it.
struct SignatureCase {
    let name: String
    let spki: [UInt8]
    let algorithmIdentifier: [UInt8]
    let algorithm: SignatureAlgorithm
    let signature: [UInt8]
    let policy: SignaturePolicy

    /// Every fixture that verifies (the legacy ones under ``SignaturePolicy/legacy``).
    static let all: [SignatureCase] = [
        SignatureCase(
            name: "RSA-2048 SHA-256", spki: Fixtures.rsa2048SPKI, algorithmIdentifier: Fixtures.sha256WithRSAAlgorithmID,
            algorithm: .rsaPKCS1v15(.sha256), signature: Fixtures.rsa2048SHA256Signature, policy: .default),
        SignatureCase(
            name: "RSA-2048 SHA-384", spki: Fixtures.rsa2048SPKI, algorithmIdentifier: Fixtures.sha384WithRSAAlgorithmID,
            algorithm: .rsaPKCS1v15(.sha384), signature: Fixtures.rsa2048SHA384Signature, policy: .default),
        SignatureCase(
            name: "RSA-2048 SHA-512", spki: Fixtures.rsa2048SPKI, algorithmIdentifier: Fixtures.sha512WithRSAAlgorithmID,
            algorithm: .rsaPKCS1v15(.sha512), signature: Fixtures.rsa2048SHA512Signature, policy: .default),
        SignatureCase(
            name: "RSA-2048 PSS", spki: Fixtures.rsa2048SPKI, algorithmIdentifier: Fixtures.rsaPSSAlgorithmID,
            algorithm: .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: 32),
            signature: Fixtures.rsa2048PSSSignature, policy: .default),
        SignatureCase(
            name: "ECDSA P-256", spki: Fixtures.p256SPKI, algorithmIdentifier: Fixtures.ecdsaSHA256AlgorithmID,
            algorithm: .ecdsa(.sha256), signature: Fixtures.p256Signature, policy: .default),
        SignatureCase(
            name: "ECDSA P-384", spki: Fixtures.p384SPKI, algorithmIdentifier: Fixtures.ecdsaSHA384AlgorithmID,
            algorithm: .ecdsa(.sha384), signature: Fixtures.p384Signature, policy: .default),
        SignatureCase(
            name: "ECDSA P-521", spki: Fixtures.p521SPKI, algorithmIdentifier: Fixtures.ecdsaSHA512AlgorithmID,
            algorithm: .ecdsa(.sha512), signature: Fixtures.p521Signature, policy: .default),
        SignatureCase(
            name: "Ed25519", spki: Fixtures.ed25519SPKI, algorithmIdentifier: Fixtures.ed25519AlgorithmID,
            algorithm: .ed25519, signature: Fixtures.ed25519Signature, policy: .default),
        SignatureCase(
            name: "Ed448", spki: Fixtures.ed448SPKI, algorithmIdentifier: Fixtures.ed448AlgorithmID,
            algorithm: .ed448, signature: Fixtures.ed448Signature, policy: .default),
        SignatureCase(
            name: "RSA-1024 SHA-256 (weak)", spki: Fixtures.rsa1024SPKI, algorithmIdentifier: Fixtures.sha256WithRSAAlgorithmID,
            algorithm: .rsaPKCS1v15(.sha256), signature: Fixtures.rsa1024SHA256Signature, policy: .legacy),
        SignatureCase(
            name: "RSA-2048 SHA-1 (legacy)", spki: Fixtures.rsa2048SPKI, algorithmIdentifier: Fixtures.sha1WithRSAAlgorithmID,
            algorithm: .rsaPKCS1v15(.sha1), signature: Fixtures.rsa2048SHA1Signature, policy: .legacy),
    ]
}
