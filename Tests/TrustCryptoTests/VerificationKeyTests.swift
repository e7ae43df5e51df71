import TrustCrypto
import XCTest

final class VerificationKeyTests: XCTestCase {
    func testDescriptionMatchesPureSwiftParse() throws {
        for testCase in SignatureCase.all {
            let key = try verificationKey(testCase.spki)
            XCTAssertEqual(key.description, try PublicKeyDescription(spki: testCase.spki[...]), testCase.name)
        }
    }

    func testExplicitCurveIsRejectedBeforeLibcrypto() {
        assertThrows(.explicitCurveParameters) { _ = try verificationKey(Fixtures.p256ExplicitSPKI) }
    }

    func testUnknownAlgorithmIsUnsupported() {
        let dsa = DER.sequence(DER.sequence(DER.oid(TestOID.dsa), DER.sequence(DER.integer([1]))), DER.bitString([0x02, 0x01, 0x05]))
        assertThrows(.unsupportedAlgorithm(TestOID.dsa)) { _ = try verificationKey(dsa) }
    }

    func testPointNotOnCurveIsRejectedByLibcrypto() {
        var spki = Fixtures.p256SPKI
        spki[spki.count - 1] ^= 0x01
        // Structurally fine, so the pure-Swift description accepts it…
        XCTAssertNoThrow(try PublicKeyDescription(spki: spki[...]))
        // …but the point is not on P-256.
        assertThrows(where: \.isMalformedKey) { _ = try verificationKey(spki) }
    }

    func testCompressedPointNotOnCurveIsRejected() {
        // x = 0…05 has no square root for y on P-256? Try a few x until one is rejected and check none crash.
        var rejected = 0
        for x in UInt8(1)...UInt8(16) {
            let point = [0x02] + [UInt8](repeating: 0, count: 31) + [x]
            let spki = DER.sequence(DER.sequence(DER.oid(TestOID.ecPublicKey), DER.oid(TestOID.prime256v1)), DER.bitString(point))
            do {
                _ = try verificationKey(spki)
            } catch {
                XCTAssertTrue((error as? SignatureError)?.isMalformedKey ?? false, "\(error)")
                rejected += 1
            }
        }
        XCTAssertGreaterThan(rejected, 0)
    }

    func testKeyOutlivesItsInputBuffer() throws {
        var key: VerificationKey?
        do {
            let spki = Array(Fixtures.ed25519SPKI)
            key = try verificationKey(spki)
        }
        let unwrapped = try XCTUnwrap(key)
        XCTAssertNoThrow(try verify(Fixtures.ed25519Signature, Fixtures.message, .ed25519, unwrapped))
    }
}
