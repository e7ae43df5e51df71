import TrustCrypto
import XCTest

final class SignatureErrorTests: XCTestCase {
    func testDescriptionsAreReadable() {
        XCTAssertEqual(
            SignatureError.legacyAlgorithm("sha1WithRSAEncryption").description,
            "signature algorithm sha1WithRSAEncryption is disabled (SHA-1); enable legacy algorithms to accept it"
        )
        XCTAssertEqual(SignatureError.unsupportedAlgorithm("1.2.3.4").description, "unsupported algorithm 1.2.3.4")
        XCTAssertEqual(
            SignatureError.keyAlgorithmMismatch(algorithm: "ecdsa-with-SHA256", key: "RSA 2048").description,
            "signature algorithm ecdsa-with-SHA256 cannot be used with a RSA 2048 key"
        )
        XCTAssertEqual(SignatureError.invalidSignature.description, "signature is invalid")
        XCTAssertTrue(SignatureError.weakKey(bits: 1024).description.contains("1024 bits"))
        XCTAssertTrue(SignatureError.weakKey(bits: 512).description.contains("never accepted"))
        XCTAssertTrue(SignatureError.explicitCurveParameters.description.contains("explicit curve parameters"))
        XCTAssertTrue(SignatureError.unsupportedCurve("1.3.132.0.10").description.contains("1.3.132.0.10"))
        XCTAssertTrue(SignatureError.malformedKey("x").description.hasPrefix("malformed public key"))
        XCTAssertTrue(SignatureError.malformedAlgorithmParameters("x").description.hasPrefix("malformed algorithm identifier"))
        XCTAssertTrue(SignatureError.cryptoFailure("x").description.contains("libcrypto"))
        XCTAssertEqual(
            SignatureError.unsupportedRSAPublicExponent("8589934593").description,
            "RSA public exponent 8589934593 is not accepted: it must be odd, at least 3 and at most 2^33 − 1")
    }

    func testMalformedErrorsCarryTheReason() {
        do {
            _ = try signatureAlgorithm(DER.sequence(DER.oid(TestOID.sha256WithRSA), DER.integer([0])))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(
                (error as? SignatureError)?.description,
                "malformed algorithm identifier: sha256WithRSAEncryption parameters must be NULL or absent (RFC 4055)"
            )
        }
    }

    func testDERErrorsAreReportedWithOffsets() {
        do {
            _ = try PublicKeyDescription(spki: Array(Fixtures.p256SPKI.dropLast())[...])
            XCTFail("expected an error")
        } catch {
            let description = String(describing: error)
            XCTAssertTrue(description.hasPrefix("malformed public key: "), description)
            XCTAssertTrue(description.contains("at byte"), description)
        }
    }
}
