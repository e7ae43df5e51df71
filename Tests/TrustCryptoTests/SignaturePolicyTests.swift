import TrustCrypto
import XCTest

final class SignaturePolicyTests: XCTestCase {
    private let message = Fixtures.message

    func testPresets() {
        // Apple's model by default: legacy algorithms verify, the profile decides where they are refused.
        XCTAssertEqual(SignaturePolicy.default.legacyAlgorithms, .asProfileDecides)
        XCTAssertFalse(SignaturePolicy.default.allowsLegacyAlgorithms)
        XCTAssertEqual(SignaturePolicy.default.minimumRSAModulusBits, 2048)
        XCTAssertTrue(SignaturePolicy.legacy.allowsLegacyAlgorithms)
        XCTAssertEqual(SignaturePolicy.legacy.minimumRSAModulusBits, 2048)
        XCTAssertEqual(SignaturePolicy.modern.legacyAlgorithms, .refused)
        XCTAssertEqual(SignaturePolicy(), .default)
        var policy = SignaturePolicy.default
        policy.allowsLegacyAlgorithms = false
        XCTAssertEqual(policy, .modern)
    }

    func testSHA1VerifiesByDefaultAndIsRejectedByTheModernPolicy() throws {
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        let algorithm = try signatureAlgorithm(Fixtures.sha1WithRSAAlgorithmID)
        XCTAssertNoThrow(try verify(Fixtures.rsa2048SHA1Signature, message, algorithm, key))
        XCTAssertNoThrow(try verify(Fixtures.rsa2048SHA1Signature, message, algorithm, key, policy: .legacy))
        assertThrows(.legacyAlgorithm("sha1WithRSAEncryption")) {
            try verify(Fixtures.rsa2048SHA1Signature, self.message, algorithm, key, policy: .modern)
        }
        // Every policy still verifies the signature itself.
        assertThrows(.invalidSignature) { try verify(flippingBit(Fixtures.rsa2048SHA1Signature, 9), self.message, algorithm, key) }
    }

    func testSHA1InPSSMaskIsLegacy() throws {
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        let algorithm = SignatureAlgorithm.rsaPSS(hash: .sha256, mgf1Hash: .sha1, saltLength: 32)
        XCTAssertTrue(algorithm.isLegacy)
        assertThrows(.legacyAlgorithm(algorithm.description)) {
            try verify(Fixtures.rsa2048PSSSignature, self.message, algorithm, key, policy: .modern)
        }
        // Allowed by policy, but the fixture used MGF1-SHA-256, so it does not verify.
        assertThrows(.invalidSignature) { try verify(Fixtures.rsa2048PSSSignature, self.message, algorithm, key) }
    }

    func testRSA1024VerifiesByDefaultAndIsRejectedByTheModernPolicy() throws {
        let key = try verificationKey(Fixtures.rsa1024SPKI)
        XCTAssertEqual(key.description.kind, .rsa(modulusBits: 1024))
        XCTAssertNoThrow(try verify(Fixtures.rsa1024SHA256Signature, message, .rsaPKCS1v15(.sha256), key))
        assertThrows(.weakKey(bits: 1024)) { try verify(Fixtures.rsa1024SHA256Signature, self.message, .rsaPKCS1v15(.sha256), key, policy: .modern) }
        XCTAssertNoThrow(try verify(Fixtures.rsa1024SHA256Signature, message, .rsaPKCS1v15(.sha256), key, policy: .legacy))
    }

    func testRSABelow1024IsAlwaysRejected() throws {
        // A 1016-bit modulus (not a real key: the policy check comes before any arithmetic).
        let modulus: [UInt8] = [0x00, 0xC1] + [UInt8](repeating: 0x01, count: 126)
        let spki = DER.sequence(
            DER.sequence(DER.oid(TestOID.rsaEncryption), DER.null),
            DER.bitString(DER.sequence(DER.integer(modulus), DER.integer([1, 0, 1])))
        )
        let key = try verificationKey(spki)
        XCTAssertEqual(key.description.kind, .rsa(modulusBits: 1016))
        let signature = [UInt8](repeating: 1, count: 127)
        assertThrows(.weakKey(bits: 1016)) { try verify(signature, self.message, .rsaPKCS1v15(.sha256), key) }
        assertThrows(.weakKey(bits: 1016)) { try verify(signature, self.message, .rsaPKCS1v15(.sha256), key, policy: .legacy) }
        let lax = SignaturePolicy(legacyAlgorithms: .allowed, minimumRSAModulusBits: 512)
        assertThrows(.weakKey(bits: 1016)) { try verify(signature, self.message, .rsaPKCS1v15(.sha256), key, policy: lax) }
    }

    func testCustomMinimum() throws {
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        // The minimum binds verification only when legacy algorithms are refused (else it is the profile's).
        let strict = SignaturePolicy(legacyAlgorithms: .refused, minimumRSAModulusBits: 3072)
        assertThrows(.weakKey(bits: 2048)) { try verify(Fixtures.rsa2048SHA256Signature, self.message, .rsaPKCS1v15(.sha256), key, policy: strict) }
        XCTAssertNoThrow(
            try verify(
                Fixtures.rsa2048SHA256Signature, message, .rsaPKCS1v15(.sha256), key,
                policy: SignaturePolicy(minimumRSAModulusBits: 3072)))
        var relaxed = strict
        relaxed.allowsLegacyAlgorithms = true
        XCTAssertNoThrow(try verify(Fixtures.rsa2048SHA256Signature, message, .rsaPKCS1v15(.sha256), key, policy: relaxed))
    }

    func testPolicyDoesNotAffectECOrEdDSA() throws {
        let strict = SignaturePolicy(legacyAlgorithms: .refused, minimumRSAModulusBits: 4096)
        XCTAssertNoThrow(try verify(Fixtures.p256Signature, message, .ecdsa(.sha256), verificationKey(Fixtures.p256SPKI), policy: strict))
        XCTAssertNoThrow(try verify(Fixtures.ed448Signature, message, .ed448, verificationKey(Fixtures.ed448SPKI), policy: strict))
    }

    func testTheVerifierCalledDirectlyRefusesLegacyAlgorithms() throws {
        // No profile decides after a direct call, so the verifier's own default is the modern policy.
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        let algorithm = try signatureAlgorithm(Fixtures.sha1WithRSAAlgorithmID)
        XCTAssertThrowsError(
            try SignatureVerifier.verify(
                signature: Fixtures.rsa2048SHA1Signature[...], over: message[...],
                algorithm: algorithm, key: key)
        ) { error in
            XCTAssertEqual(error as? SignatureError, .legacyAlgorithm("sha1WithRSAEncryption"))
        }
    }

    func testTheModernPolicyRefusesCurvesUnder256Bits() throws {
        for curve in [PublicKeyDescription.NamedCurve.p192, .p224] {
            let key = PublicKeyDescription(kind: .ec(curve: curve))
            XCTAssertThrowsError(try SignatureVerifier.checkAcceptable(algorithm: .ecdsa(.sha256), key: key, policy: .modern)) { error in
                XCTAssertEqual(error as? SignatureError, .weakCurve(curve.description))
            }
            XCTAssertNoThrow(try SignatureVerifier.checkAcceptable(algorithm: .ecdsa(.sha256), key: key, policy: .default))
        }
        XCTAssertNoThrow(
            try SignatureVerifier.checkAcceptable(
                algorithm: .ecdsa(.sha256), key: PublicKeyDescription(kind: .ec(curve: .p256)),
                policy: .modern))
    }
}
