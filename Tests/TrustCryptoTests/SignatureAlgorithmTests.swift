import TrustCrypto
import TrustDER
import XCTest

final class SignatureAlgorithmTests: XCTestCase {
    // MARK: Fixtures from OpenSSL certificates

    func testParsesEveryFixtureAlgorithmIdentifier() throws {
        for testCase in SignatureCase.all {
            XCTAssertEqual(try signatureAlgorithm(testCase.algorithmIdentifier), testCase.algorithm, testCase.name)
        }
    }

    func testDigestAndLegacyFlags() {
        XCTAssertEqual(SignatureAlgorithm.rsaPKCS1v15(.sha384).digest, .sha384)
        XCTAssertEqual(SignatureAlgorithm.ecdsa(.sha512).digest, .sha512)
        XCTAssertEqual(SignatureAlgorithm.rsaPSS(hash: .sha256, mgf1Hash: .sha384, saltLength: 32).digest, .sha256)
        XCTAssertNil(SignatureAlgorithm.ed25519.digest)
        XCTAssertNil(SignatureAlgorithm.ed448.digest)

        XCTAssertTrue(SignatureAlgorithm.rsaPKCS1v15(.sha1).isLegacy)
        XCTAssertTrue(SignatureAlgorithm.ecdsa(.sha1).isLegacy)
        XCTAssertTrue(SignatureAlgorithm.rsaPSS(hash: .sha256, mgf1Hash: .sha1, saltLength: 32).isLegacy)
        XCTAssertTrue(SignatureAlgorithm.rsaPSS(hash: .sha1, mgf1Hash: .sha256, saltLength: 32).isLegacy)
        XCTAssertFalse(SignatureAlgorithm.rsaPKCS1v15(.sha256).isLegacy)
        XCTAssertFalse(SignatureAlgorithm.ecdsa(.sha256).isLegacy)
        XCTAssertFalse(SignatureAlgorithm.ed25519.isLegacy)
    }

    func testDescriptions() {
        XCTAssertEqual(SignatureAlgorithm.rsaPKCS1v15(.sha1).description, "sha1WithRSAEncryption")
        XCTAssertEqual(SignatureAlgorithm.rsaPKCS1v15(.sha256).description, "sha256WithRSAEncryption")
        XCTAssertEqual(SignatureAlgorithm.ecdsa(.sha384).description, "ecdsa-with-SHA384")
        XCTAssertEqual(
            SignatureAlgorithm.rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: 32).description,
            "RSASSA-PSS (SHA-256, MGF1 with SHA-256, salt 32)"
        )
        XCTAssertEqual(SignatureAlgorithm.ed25519.description, "Ed25519")
        XCTAssertEqual(SignatureAlgorithm.ed448.description, "Ed448")
    }

    func testECDSAWithSHA1IsParsed() throws {
        XCTAssertEqual(try signatureAlgorithm(DER.sequence(DER.oid("1.2.840.10045.4.1"))), .ecdsa(.sha1))
    }

    // MARK: Strict parameters

    /// RFC 4055 §5: "Implementations MUST accept the parameters being absent as well as present."
    func testRSAWithAbsentParametersIsAccepted() throws {
        XCTAssertEqual(try signatureAlgorithm(DER.sequence(DER.oid(TestOID.sha256WithRSA))), .rsaPKCS1v15(.sha256))
        XCTAssertEqual(try signatureAlgorithm(DER.sequence(DER.oid(TestOID.sha256WithRSA), DER.null)), .rsaPKCS1v15(.sha256))
    }

    func testRSAWithNonNullParametersIsRejected() {
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.sha256WithRSA), DER.integer([0])))
        }
        // NULL with content is not a NULL.
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.sha256WithRSA), [0x05, 0x01, 0x00]))
        }
    }

    func testECDSAWithNullParametersIsRejected() {
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.ecdsaWithSHA256), DER.null))
        }
    }

    func testEd25519WithParametersIsRejected() {
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.ed25519), DER.null))
        }
    }

    func testTrailingElementAfterParametersIsRejected() {
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.sha256WithRSA), DER.null, DER.null))
        }
    }

    func testNotASequenceIsRejected() {
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.oid(TestOID.sha256WithRSA))
        }
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence())
        }
    }

    func testUnsupportedAlgorithmReportsDottedOID() {
        // sha224WithRSAEncryption and DSA-with-SHA256 are not supported.
        assertThrows(.unsupportedAlgorithm("1.2.840.113549.1.1.14")) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid("1.2.840.113549.1.1.14"), DER.null))
        }
        assertThrows(.unsupportedAlgorithm("2.16.840.1.101.3.4.3.2")) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid("2.16.840.1.101.3.4.3.2")))
        }
    }

    // MARK: RSASSA-PSS parameters (RFC 4055)

    private func pss(_ fields: [UInt8]...) -> [UInt8] {
        DER.sequence(DER.oid(TestOID.rsassaPSS), DER.sequence(fields.flatMap { $0 }))
    }

    private let hashSHA256 = DER.explicit(0, DER.hashAlgorithm(TestOID.sha256))
    private let mgfSHA256 = DER.explicit(1, DER.sequence(DER.oid(TestOID.mgf1), DER.hashAlgorithm(TestOID.sha256)))
    private let salt32 = DER.explicit(2, DER.integer([32]))

    func testBuilderReproducesTheOpenSSLEncoding() {
        XCTAssertEqual(pss(hashSHA256, mgfSHA256, salt32), Fixtures.rsaPSSAlgorithmID)
    }

    func testPSSWithAllDefaultsIsSHA1Salt20() throws {
        let algorithm = try signatureAlgorithm(pss())
        XCTAssertEqual(algorithm, .rsaPSS(hash: .sha1, mgf1Hash: .sha1, saltLength: 20))
        XCTAssertTrue(algorithm.isLegacy)
    }

    func testPSSWithDefaultSaltIsTwenty() throws {
        XCTAssertEqual(try signatureAlgorithm(pss(hashSHA256, mgfSHA256)), .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: 20))
    }

    func testPSSInnerHashWithoutNullIsAccepted() throws {
        let hash = DER.explicit(0, DER.hashAlgorithm(TestOID.sha384, null: false))
        let mgf = DER.explicit(1, DER.sequence(DER.oid(TestOID.mgf1), DER.hashAlgorithm(TestOID.sha384, null: false)))
        let salt = DER.explicit(2, DER.integer([48]))
        XCTAssertEqual(try signatureAlgorithm(pss(hash, mgf, salt)), .rsaPSS(hash: .sha384, mgf1Hash: .sha384, saltLength: 48))
    }

    func testPSSMismatchedMGF1HashIsKept() throws {
        let mgf = DER.explicit(1, DER.sequence(DER.oid(TestOID.mgf1), DER.hashAlgorithm(TestOID.sha384)))
        XCTAssertEqual(try signatureAlgorithm(pss(hashSHA256, mgf, salt32)), .rsaPSS(hash: .sha256, mgf1Hash: .sha384, saltLength: 32))
    }

    func testPSSZeroSaltIsAccepted() throws {
        XCTAssertEqual(
            try signatureAlgorithm(pss(hashSHA256, mgfSHA256, DER.explicit(2, DER.integer([0])))),
            .rsaPSS(hash: .sha256, mgf1Hash: .sha256, saltLength: 0))
    }

    func testPSSTrailerFieldTwoIsRejected() {
        assertThrows(where: { $0.description.contains("trailerField must be 1") }) {
            _ = try signatureAlgorithm(self.pss(self.hashSHA256, self.mgfSHA256, self.salt32, DER.explicit(3, DER.integer([2]))))
        }
    }

    func testPSSExplicitDefaultsAreRejected() {
        // DER (X.690 §11.5): a value equal to its DEFAULT must be omitted.
        let cases: [[UInt8]] = [
            pss(DER.explicit(0, DER.hashAlgorithm(TestOID.sha1))),
            pss(hashSHA256, DER.explicit(1, DER.sequence(DER.oid(TestOID.mgf1), DER.hashAlgorithm(TestOID.sha1)))),
            pss(hashSHA256, mgfSHA256, DER.explicit(2, DER.integer([20]))),
            pss(hashSHA256, mgfSHA256, salt32, DER.explicit(3, DER.integer([1]))),
        ]
        for der in cases {
            assertThrows(where: \.isMalformedAlgorithmParameters) { _ = try signatureAlgorithm(der) }
        }
    }

    func testPSSParametersMustBePresentSequence() {
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.rsassaPSS)))
        }
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.rsassaPSS), DER.null))
        }
    }

    func testPSSFieldsOutOfOrderAreRejected() {
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(self.pss(self.salt32, self.hashSHA256, self.mgfSHA256))
        }
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(self.pss(self.hashSHA256, self.hashSHA256))
        }
    }

    func testPSSImplicitlyTaggedFieldIsRejected() {
        // [2] encoded primitive (IMPLICIT) instead of EXPLICIT.
        assertThrows(where: \.isMalformedAlgorithmParameters) {
            _ = try signatureAlgorithm(self.pss(self.hashSHA256, self.mgfSHA256, [0x82, 0x01, 0x20]))
        }
    }

    func testPSSSaltOutOfRangeIsRejected() {
        for salt in [[0xFF], [0x80], [0x08, 0x01], [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]] as [[UInt8]] {
            assertThrows(where: \.isMalformedAlgorithmParameters) {
                _ = try signatureAlgorithm(self.pss(self.hashSHA256, self.mgfSHA256, DER.explicit(2, DER.integer(salt))))
            }
        }
    }

    func testPSSBadInnerHashParametersAreRejected() {
        let hash = DER.explicit(0, DER.sequence(DER.oid(TestOID.sha256), DER.integer([1])))
        assertThrows(where: \.isMalformedAlgorithmParameters) { _ = try signatureAlgorithm(self.pss(hash)) }
        let extra = DER.explicit(0, DER.hashAlgorithm(TestOID.sha256), DER.null)
        assertThrows(where: \.isMalformedAlgorithmParameters) { _ = try signatureAlgorithm(self.pss(extra)) }
    }

    func testPSSMGF1WithoutParametersIsRejected() {
        let mgf = DER.explicit(1, DER.sequence(DER.oid(TestOID.mgf1)))
        assertThrows(where: \.isMalformedAlgorithmParameters) { _ = try signatureAlgorithm(self.pss(self.hashSHA256, mgf)) }
    }

    func testPSSUnsupportedHashOrMaskIsUnsupported() {
        assertThrows(.unsupportedAlgorithm(TestOID.sha224)) {
            _ = try signatureAlgorithm(self.pss(DER.explicit(0, DER.hashAlgorithm(TestOID.sha224))))
        }
        let otherMask = DER.explicit(1, DER.sequence(DER.oid("1.2.840.113549.1.1.9"), DER.hashAlgorithm(TestOID.sha256)))
        assertThrows(.unsupportedAlgorithm("1.2.840.113549.1.1.9")) {
            _ = try signatureAlgorithm(self.pss(self.hashSHA256, otherMask))
        }
    }
}
