import TrustCrypto
import XCTest

final class SignatureVerifierTests: XCTestCase {
    private let message = Fixtures.message

    // MARK: Valid signatures

    func testEveryFixtureVerifies() throws {
        for testCase in SignatureCase.all {
            let key = try verificationKey(testCase.spki)
            let algorithm = try signatureAlgorithm(testCase.algorithmIdentifier)
            XCTAssertNoThrow(try verify(testCase.signature, message, algorithm, key, policy: testCase.policy), testCase.name)
        }
    }

    func testCompressedPointKeyVerifies() throws {
        let key = try verificationKey(Fixtures.p256CompressedSPKI)
        XCTAssertNoThrow(try verify(Fixtures.p256Signature, message, .ecdsa(.sha256), key))
    }

    func testSlicesWithNonZeroStartIndices() throws {
        let key = try verificationKey(Fixtures.ed25519SPKI)
        let signatureBuffer = [0xEE] + Fixtures.ed25519Signature + [0xEE]
        let messageBuffer = [0xEE, 0xEE] + message + [0xEE]
        XCTAssertNoThrow(
            try SignatureVerifier.verify(
                signature: signatureBuffer[1..<(signatureBuffer.count - 1)],
                over: messageBuffer[2..<(messageBuffer.count - 1)],
                algorithm: .ed25519, key: key
            ))
    }

    // MARK: Tampering

    func testFlippedSignatureBitIsInvalid() throws {
        for testCase in SignatureCase.all {
            let key = try verificationKey(testCase.spki)
            // A bit near the end: inside s for ECDSA, inside S for EdDSA, anywhere for RSA.
            let tampered = flippingBit(testCase.signature, testCase.signature.count * 8 - 3)
            assertThrows(.invalidSignature) { try verify(tampered, self.message, testCase.algorithm, key, policy: testCase.policy) }
        }
    }

    func testFlippedMessageBitIsInvalid() throws {
        for testCase in SignatureCase.all {
            let key = try verificationKey(testCase.spki)
            for bit in [0, 100, message.count * 8 - 1] {
                let tampered = flippingBit(message, bit)
                assertThrows(.invalidSignature) { try verify(testCase.signature, tampered, testCase.algorithm, key, policy: testCase.policy) }
            }
        }
    }

    func testEveryBitOfEdDSAAndECDSASignaturesMatters() throws {
        for (spki, signature, algorithm) in [
            (Fixtures.p256SPKI, Fixtures.p256Signature, SignatureAlgorithm.ecdsa(.sha256)),
            (Fixtures.ed25519SPKI, Fixtures.ed25519Signature, .ed25519),
        ] {
            let key = try verificationKey(spki)
            for bit in 0..<(signature.count * 8) {
                XCTAssertThrowsError(try verify(flippingBit(signature, bit), message, algorithm, key), "bit \(bit)")
            }
        }
    }

    func testEmptyAndTruncatedMessagesAndSignatures() throws {
        for testCase in SignatureCase.all {
            let key = try verificationKey(testCase.spki)
            assertThrows(.invalidSignature) { try verify(testCase.signature, [], testCase.algorithm, key, policy: testCase.policy) }
            assertThrows(.invalidSignature) { try verify([], self.message, testCase.algorithm, key, policy: testCase.policy) }
            assertThrows(.invalidSignature) {
                try verify(Array(testCase.signature.dropLast()), self.message, testCase.algorithm, key, policy: testCase.policy)
            }
            assertThrows(.invalidSignature) {
                try verify(testCase.signature + [0], self.message, testCase.algorithm, key, policy: testCase.policy)
            }
        }
    }

    // MARK: Algorithm parameters must match the signature

    func testPSSWithWrongSaltLengthIsInvalid() throws {
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        for salt in [0, 20, 31, 33, 64] {
            assertThrows(.invalidSignature) {
                try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: salt), key)
            }
        }
        // The same through a parsed AlgorithmIdentifier whose saltLength is absent (DEFAULT 20).
        let defaultSalt = DER.sequence(
            DER.oid(TestOID.rsassaPSS),
            DER.sequence(
                DER.explicit(0, DER.hashAlgorithm(TestOID.sha256)),
                DER.explicit(1, DER.sequence(DER.oid(TestOID.mgf1), DER.hashAlgorithm(TestOID.sha256)))
            ))
        let algorithm = try signatureAlgorithm(defaultSalt)
        assertThrows(.invalidSignature) { try verify(Fixtures.rsa2048PSSSignature, self.message, algorithm, key) }
    }

    func testPSSWithWrongHashesIsInvalid() throws {
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        assertThrows(.invalidSignature) {
            try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPSS(hash: .sha256, mgf1Hash: .sha384, saltLength: 32), key)
        }
        assertThrows(.invalidSignature) {
            try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPSS(hash: .sha384, mgf1Hash: .sha256, saltLength: 32), key)
        }
    }

    func testPSSSaltBeyondKeySizeIsInvalid() throws {
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        assertThrows(.invalidSignature) {
            try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: 2000), key)
        }
        assertThrows(.invalidSignature) {
            try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: -1), key)
        }
        assertThrows(.invalidSignature) {
            try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: Int.max), key)
        }
    }

    func testPaddingModesAreNotInterchangeable() throws {
        let key = try verificationKey(Fixtures.rsa2048SPKI)
        assertThrows(.invalidSignature) { try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPKCS1v15(.sha256), key) }
        assertThrows(.invalidSignature) {
            try verify(Fixtures.rsa2048SHA256Signature, self.message, .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: 32), key)
        }
    }

    func testWrongDigestIsInvalid() throws {
        let rsa = try verificationKey(Fixtures.rsa2048SPKI)
        assertThrows(.invalidSignature) { try verify(Fixtures.rsa2048SHA256Signature, self.message, .rsaPKCS1v15(.sha384), rsa) }
        let ec = try verificationKey(Fixtures.p256SPKI)
        assertThrows(.invalidSignature) { try verify(Fixtures.p256Signature, self.message, .ecdsa(.sha384), ec) }
    }

    func testSignatureFromAnotherKeyIsInvalid() throws {
        let p384 = try verificationKey(Fixtures.p384SPKI)
        // A P-521 signature is too long for P-384 scalars; a P-256 one has the right shape but the wrong key.
        assertThrows(.invalidSignature) { try verify(Fixtures.p256Signature, self.message, .ecdsa(.sha256), p384) }
        assertThrows(.invalidSignature) { try verify(Fixtures.p521Signature, self.message, .ecdsa(.sha512), p384) }
    }

    // MARK: Key and algorithm must agree

    func testKeyAlgorithmMismatch() throws {
        let rsa = try verificationKey(Fixtures.rsa2048SPKI)
        let ec = try verificationKey(Fixtures.p256SPKI)
        let ed25519 = try verificationKey(Fixtures.ed25519SPKI)
        let ed448 = try verificationKey(Fixtures.ed448SPKI)
        assertThrows(.keyAlgorithmMismatch(algorithm: "ecdsa-with-SHA256", key: "RSA 2048")) {
            try verify(Fixtures.p256Signature, self.message, .ecdsa(.sha256), rsa)
        }
        assertThrows(.keyAlgorithmMismatch(algorithm: "sha256WithRSAEncryption", key: "ECDSA P-256")) {
            try verify(Fixtures.rsa2048SHA256Signature, self.message, .rsaPKCS1v15(.sha256), ec)
        }
        assertThrows(.keyAlgorithmMismatch(algorithm: "Ed25519", key: "Ed448")) {
            try verify(Fixtures.ed25519Signature, self.message, .ed25519, ed448)
        }
        assertThrows(.keyAlgorithmMismatch(algorithm: "Ed448", key: "Ed25519")) {
            try verify(Fixtures.ed448Signature, self.message, .ed448, ed25519)
        }
        assertThrows(where: { if case .keyAlgorithmMismatch = $0 { return true } else { return false } }) {
            try verify(Fixtures.rsa2048PSSSignature, self.message, .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: 32), ed25519)
        }
        assertThrows(where: { if case .keyAlgorithmMismatch = $0 { return true } else { return false } }) {
            try verify(Fixtures.ed25519Signature, self.message, .ed25519, ec)
        }
    }

    func testMismatchIsReportedBeforePolicy() throws {
        let ec = try verificationKey(Fixtures.p256SPKI)
        assertThrows(where: { if case .keyAlgorithmMismatch = $0 { return true } else { return false } }) {
            try verify(Fixtures.rsa2048SHA1Signature, self.message, .rsaPKCS1v15(.sha1), ec)
        }
    }

    // MARK: ECDSA signature encoding

    func testECDSASignatureMustBeStrictDER() throws {
        let key = try verificationKey(Fixtures.p256SPKI)
        let signature = Fixtures.p256Signature
        XCTAssertEqual(signature.first, 0x30)
        let body = Array(signature.dropFirst(2))

        // Long-form length for a short SEQUENCE (BER, not DER).
        let longForm = [0x30, 0x81, UInt8(body.count)] + body
        assertThrows(.invalidSignature) { try verify(longForm, self.message, .ecdsa(.sha256), key) }
        // Trailing garbage after the SEQUENCE.
        assertThrows(.invalidSignature) { try verify(signature + [0x00], self.message, .ecdsa(.sha256), key) }
        // A third INTEGER inside the SEQUENCE.
        assertThrows(.invalidSignature) { try verify(DER.sequence(body, DER.integer([1])), self.message, .ecdsa(.sha256), key) }
        // Not a SEQUENCE at all (raw r ‖ s).
        assertThrows(.invalidSignature) { try verify([UInt8](repeating: 1, count: 64), self.message, .ecdsa(.sha256), key) }
    }

    func testECDSAScalarsMustBeMinimalPositiveAndInRange() throws {
        let key = try verificationKey(Fixtures.p256SPKI)
        let one = DER.integer([1])
        let cases: [[UInt8]] = [
            DER.sequence(DER.integer([0x00, 0x01]), one), // non-minimal r
            DER.sequence(one, DER.integer([0x00])), // s = 0
            DER.sequence(DER.integer([0x80] + [UInt8](repeating: 1, count: 31)), one), // negative r
            DER.sequence(DER.integer([0x01] + [UInt8](repeating: 1, count: 32)), one), // 33-byte r on P-256
            DER.sequence(one), // one INTEGER
            DER.sequence(DER.tlv(0x04, [1]), one), // OCTET STRING r
        ]
        for signature in cases {
            assertThrows(.invalidSignature) { try verify(signature, self.message, .ecdsa(.sha256), key) }
        }
        // Well-formed but wrong values reach libcrypto and fail there.
        assertThrows(.invalidSignature) { try verify(DER.sequence(one, one), self.message, .ecdsa(.sha256), key) }
    }

    func testOpenSSLErrorQueueDoesNotLeakBetweenCalls() throws {
        // A failure followed by a success on the same thread: the success must not be affected.
        let key = try verificationKey(Fixtures.p256SPKI)
        for _ in 0..<3 {
            assertThrows(.invalidSignature) { try verify(DER.sequence(DER.integer([1]), DER.integer([1])), self.message, .ecdsa(.sha256), key) }
            XCTAssertNoThrow(try verify(Fixtures.p256Signature, message, .ecdsa(.sha256), key))
        }
    }
}
