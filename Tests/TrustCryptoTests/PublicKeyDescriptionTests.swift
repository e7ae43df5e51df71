@testable import TrustCrypto
import XCTest

final class PublicKeyDescriptionTests: XCTestCase {
    private func describe(_ spki: [UInt8]) throws -> PublicKeyDescription {
        try PublicKeyDescription(spki: spki[...])
    }

    func testFixtureKeys() throws {
        XCTAssertEqual(try describe(Fixtures.rsa2048SPKI).kind, .rsa(modulusBits: 2048))
        XCTAssertEqual(try describe(Fixtures.rsa1024SPKI).kind, .rsa(modulusBits: 1024))
        XCTAssertEqual(try describe(Fixtures.p256SPKI).kind, .ec(curve: .p256))
        XCTAssertEqual(try describe(Fixtures.p256CompressedSPKI).kind, .ec(curve: .p256))
        XCTAssertEqual(try describe(Fixtures.p384SPKI).kind, .ec(curve: .p384))
        XCTAssertEqual(try describe(Fixtures.p521SPKI).kind, .ec(curve: .p521))
        XCTAssertEqual(try describe(Fixtures.ed25519SPKI).kind, .ed25519)
        XCTAssertEqual(try describe(Fixtures.ed448SPKI).kind, .ed448)
    }

    func testDescriptions() throws {
        XCTAssertEqual(try describe(Fixtures.rsa2048SPKI).description, "RSA 2048")
        XCTAssertEqual(try describe(Fixtures.p256SPKI).description, "ECDSA P-256")
        XCTAssertEqual(try describe(Fixtures.p384SPKI).description, "ECDSA P-384")
        XCTAssertEqual(try describe(Fixtures.p521SPKI).description, "ECDSA P-521")
        XCTAssertEqual(try describe(Fixtures.ed25519SPKI).description, "Ed25519")
        XCTAssertEqual(try describe(Fixtures.ed448SPKI).description, "Ed448")
    }

    func testSliceWithNonZeroStartIndex() throws {
        let padded = [0xAA, 0xBB] + Fixtures.p384SPKI + [0xCC]
        let slice = padded[2..<(padded.count - 1)]
        XCTAssertEqual(try PublicKeyDescription(spki: slice).kind, .ec(curve: .p384))
        XCTAssertEqual(try VerificationKey(spki: slice).description.kind, .ec(curve: .p384))
    }

    func testExplicitCurveIsRejected() {
        assertThrows(.explicitCurveParameters) { _ = try self.describe(Fixtures.p256ExplicitSPKI) }
    }

    // MARK: RSA modulus size counts bits exactly

    private func rsaSPKI(modulus: [UInt8], exponent: [UInt8] = [0x01, 0x00, 0x01], parameters: [UInt8]? = DER.null) -> [UInt8] {
        let algorithm = parameters.map { DER.sequence(DER.oid(TestOID.rsaEncryption), $0) } ?? DER.sequence(DER.oid(TestOID.rsaEncryption))
        return DER.sequence(algorithm, DER.bitString(DER.sequence(DER.integer(modulus), DER.integer(exponent))))
    }

    func testModulusBitsAreExact() throws {
        // 0x01 followed by 127 bytes: 1 + 127 × 8 = 1017 bits.
        XCTAssertEqual(try describe(rsaSPKI(modulus: [0x01] + [UInt8](repeating: 0xFF, count: 127))).kind, .rsa(modulusBits: 1017))
        // A leading 0x00 sign octet is not counted: 0x00 0x80 … is 8 × 256 = 2048 bits.
        XCTAssertEqual(try describe(rsaSPKI(modulus: [0x00, 0x80] + [UInt8](repeating: 0x01, count: 255))).kind, .rsa(modulusBits: 2048))
        XCTAssertEqual(try describe(rsaSPKI(modulus: [0x00, 0xC0] + [UInt8](repeating: 0x01, count: 255))).kind, .rsa(modulusBits: 2048))
        XCTAssertEqual(try describe(rsaSPKI(modulus: [0x7F] + [UInt8](repeating: 0x01, count: 255))).kind, .rsa(modulusBits: 2047))
    }

    func testRSAStructuralErrors() {
        let modulus = [0x00, 0xC1] + [UInt8](repeating: 0x01, count: 255)
        let invalid: [(String, [UInt8])] = [
            ("absent parameters", rsaSPKI(modulus: modulus, parameters: nil)),
            ("non-NULL parameters", rsaSPKI(modulus: modulus, parameters: DER.integer([0]))),
            ("negative modulus", rsaSPKI(modulus: [0x81] + [UInt8](repeating: 0x01, count: 255))),
            ("zero modulus", rsaSPKI(modulus: [0x00])),
            ("even modulus", rsaSPKI(modulus: [0x00, 0xC1] + [UInt8](repeating: 0x02, count: 255))),
            ("non-minimal modulus", rsaSPKI(modulus: [0x00, 0x01] + [UInt8](repeating: 0x01, count: 255))),
            ("negative exponent", rsaSPKI(modulus: modulus, exponent: [0xFF])),
            ("zero exponent", rsaSPKI(modulus: modulus, exponent: [0x00])),
            ("oversized modulus", rsaSPKI(modulus: [0x01] + [UInt8](repeating: 0x01, count: 2048))),
            (
                "trailing byte in RSAPublicKey",
                DER.sequence(
                    DER.sequence(DER.oid(TestOID.rsaEncryption), DER.null),
                    DER.bitString(DER.sequence(DER.integer(modulus), DER.integer([3])) + [0]))
            ),
            (
                "unused bits",
                DER.sequence(
                    DER.sequence(DER.oid(TestOID.rsaEncryption), DER.null),
                    DER.bitString(
                        DER.sequence(DER.integer(modulus), DER.integer([1, 0, 1])) + [0x00],
                        unusedBits: 1))
            ),
        ]
        for (name, spki) in invalid {
            XCTAssertThrowsError(try describe(spki), name) { error in
                XCTAssertTrue((error as? SignatureError)?.isMalformedKey ?? false, "\(name): \(error)")
            }
        }
    }

    // MARK: RSA public exponent: odd, 3 ≤ e ≤ 2^33 − 1 (ring, BoringSSL)

    func testRSAPublicExponentRange() throws {
        let modulus = [0x00, 0xC1] + [UInt8](repeating: 0x01, count: 255)
        let accepted: [[UInt8]] = [
            [0x03],
            [0x01, 0x00, 0x01], // 65537
            [0x01, 0xFF, 0xFF, 0xFF, 0xFF], // 2^33 − 1, the largest accepted
        ]
        for exponent in accepted {
            XCTAssertEqual(try describe(rsaSPKI(modulus: modulus, exponent: exponent)).kind, .rsa(modulusBits: 2048), "\(exponent)")
        }
        XCTAssertEqual(PublicKeyDescription.maximumRSAPublicExponent, 8_589_934_591)
        let rejected: [(exponent: [UInt8], reported: String)] = [
            ([0x01], "1"),
            ([0x02], "2"),
            ([0x01, 0x00, 0x00], "65536"),
            ([0x02, 0x00, 0x00, 0x00, 0x00], "8589934592"), // 2^33: even
            ([0x02, 0x00, 0x00, 0x00, 0x01], "8589934593"), // 2^33 + 1: odd, one above the cap
            ([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "18446744073709551615"), // 2^64 − 1
            ([0x01] + [UInt8](repeating: 0x00, count: 7) + [0x01], "a 65-bit value"), // 2^64 + 1
            ([0x01] + [UInt8](repeating: 0x00, count: 255) + [0x01], "a 2049-bit value"),
        ]
        for (exponent, reported) in rejected {
            assertThrows(.unsupportedRSAPublicExponent(reported)) {
                _ = try self.describe(self.rsaSPKI(modulus: modulus, exponent: exponent))
            }
        }
        // libcrypto is never asked: VerificationKey fails with the same typed error.
        XCTAssertThrowsError(try VerificationKey(spki: rsaSPKI(modulus: modulus, exponent: [0x02, 0x00, 0x00, 0x00, 0x01])[...])) { error in
            XCTAssertEqual(error as? SignatureError, .unsupportedRSAPublicExponent("8589934593"))
        }
    }

    // MARK: EC

    private func ecSPKI(parameters: [UInt8]?, point: [UInt8]) -> [UInt8] {
        let algorithm = parameters.map { DER.sequence(DER.oid(TestOID.ecPublicKey), $0) } ?? DER.sequence(DER.oid(TestOID.ecPublicKey))
        return DER.sequence(algorithm, DER.bitString(point))
    }

    func testUnknownNamedCurve() {
        assertThrows(.unsupportedCurve(TestOID.secp256k1)) {
            _ = try self.describe(self.ecSPKI(parameters: DER.oid(TestOID.secp256k1), point: [0x04] + [UInt8](repeating: 1, count: 64)))
        }
    }

    func testECParameterErrors() {
        let point = [0x04] + [UInt8](repeating: 1, count: 64)
        for parameters in [nil, DER.null, DER.integer([1])] as [[UInt8]?] {
            assertThrows(where: \.isMalformedKey) { _ = try self.describe(self.ecSPKI(parameters: parameters, point: point)) }
        }
        assertThrows(.explicitCurveParameters) {
            _ = try self.describe(self.ecSPKI(parameters: DER.sequence(DER.integer([1])), point: point))
        }
    }

    func testECPointEncodings() throws {
        let curve = DER.oid(TestOID.prime256v1)
        XCTAssertEqual(try describe(ecSPKI(parameters: curve, point: [0x02] + [UInt8](repeating: 1, count: 32))).kind, .ec(curve: .p256))
        XCTAssertEqual(try describe(ecSPKI(parameters: curve, point: [0x03] + [UInt8](repeating: 1, count: 32))).kind, .ec(curve: .p256))
        let invalidPoints: [[UInt8]] = [
            [],
            [0x00],
            [0x04] + [UInt8](repeating: 1, count: 63),
            [0x04] + [UInt8](repeating: 1, count: 65),
            [0x02] + [UInt8](repeating: 1, count: 64),
            [0x06] + [UInt8](repeating: 1, count: 64),
            [0x05] + [UInt8](repeating: 1, count: 64),
        ]
        for point in invalidPoints {
            assertThrows(where: \.isMalformedKey) { _ = try self.describe(self.ecSPKI(parameters: curve, point: point)) }
        }
    }

    // MARK: EdDSA and others

    func testEdDSAKeyLengthAndParameters() {
        let algorithm = DER.sequence(DER.oid(TestOID.ed25519))
        assertThrows(where: \.isMalformedKey) { _ = try self.describe(DER.sequence(algorithm, DER.bitString([UInt8](repeating: 1, count: 31)))) }
        assertThrows(where: \.isMalformedKey) { _ = try self.describe(DER.sequence(algorithm, DER.bitString([UInt8](repeating: 1, count: 57)))) }
        let withNull = DER.sequence(DER.oid(TestOID.ed25519), DER.null)
        assertThrows(where: \.isMalformedKey) { _ = try self.describe(DER.sequence(withNull, DER.bitString([UInt8](repeating: 1, count: 32)))) }
    }

    func testUnknownAlgorithmIsDescribedNotRejected() throws {
        let dsa = DER.sequence(DER.sequence(DER.oid(TestOID.dsa), DER.sequence(DER.integer([1]))), DER.bitString([0x02, 0x01, 0x05]))
        let description = try describe(dsa)
        XCTAssertEqual(description.kind, .unknown(algorithmOID: TestOID.dsa))
        XCTAssertEqual(description.description, "unknown key algorithm \(TestOID.dsa)")
    }

    func testOuterStructureErrors() {
        let spki = Fixtures.p256SPKI
        let cases: [[UInt8]] = [
            [],
            Array(spki.dropLast()),
            spki + [0x00],
            DER.sequence(Array(spki.dropFirst(2))) + [0],
            DER.sequence(DER.sequence(DER.oid(TestOID.ed25519)), DER.bitString([UInt8](repeating: 1, count: 32)), DER.null),
        ]
        for bytes in cases {
            assertThrows(where: \.isMalformedKey) { _ = try self.describe(bytes) }
        }
    }

    func testCurveProperties() {
        XCTAssertEqual(PublicKeyDescription.NamedCurve.p521.coordinateByteCount, 66)
        XCTAssertEqual(PublicKeyDescription.NamedCurve.p521.bits, 521)
        XCTAssertEqual(PublicKeyDescription.NamedCurve.p384.description, "P-384")
    }

    func testEveryFixtureKeyIsBuiltFromItsComponents() throws {
        // VerificationKey builds the libcrypto key from the parsed components (EVP_PKEY_fromdata,
        // new_raw_public_key), not by d2i_PUBKEY: the result must be the same key, so libcrypto's
        // own DER encoding of it is the SubjectPublicKeyInfo we started from.
        for spki in [
            Fixtures.rsa2048SPKI, Fixtures.rsa1024SPKI, Fixtures.p256SPKI, Fixtures.p384SPKI, Fixtures.p521SPKI,
            Fixtures.ed25519SPKI, Fixtures.ed448SPKI,
        ] {
            let key = try VerificationKey(spki: spki[...])
            XCTAssertEqual(key.libcryptoSubjectPublicKeyInfo(), spki, "\(key.description)")
        }
    }

    func testPointsOffTheCurveAreRejected() throws {
        // The last byte of Y changed: still 04 ‖ X ‖ Y of the right length (the Swift parser accepts
        // the encoding), but no longer a point of P-256, P-384 or P-521: libcrypto must refuse it.
        for spki in [Fixtures.p256SPKI, Fixtures.p384SPKI, Fixtures.p521SPKI] {
            var damaged = spki
            damaged[damaged.count - 1] ^= 0x01
            XCTAssertNoThrow(try describe(damaged))
            assertThrows(where: { if case .malformedKey = $0 { true } else { false } }) { _ = try VerificationKey(spki: damaged[...]) }
        }
    }
}
