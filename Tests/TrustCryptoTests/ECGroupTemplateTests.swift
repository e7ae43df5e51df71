import Dispatch
@testable import TrustCrypto
import XCTest

/// EC verification keys are copies of one per-curve template with the point set
/// (``ECGroupTemplate``): the point must still be checked, and no key may leak into the template
/// or into another key built from it.
final class ECGroupTemplateTests: XCTestCase {
    /// The generators of P-256 (FIPS 186-4 §D.1.2.3) and secp256k1 (SEC 2 §2.4.1), uncompressed.
    private static let p256Generator = hexBytes(
        """
        04 6B17D1F2 E12C4247 F8BCE6E5 63A440F2 77037D81 2DEB33A0 F4A13945 D898C296
           4FE342E2 FE1A7F9B 8EE7EB4A 7C0F9E16 2BCE3357 6B315ECE CBB64068 37BF51F5
        """)
    private static let secp256k1Generator = hexBytes(
        """
        04 79BE667E F9DCBBAC 55A06295 CE870B07 029BFCDB 2DCE28D9 59F2815B 16F81798
           483ADA77 26A3C465 5DA4FBFC 0E1108A8 FD17B448 A6855419 9C47D08F FB10D4B8
        """)

    private static func hexBytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter(\.isHexDigit))
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    private static func p256SPKI(point: [UInt8]) -> [UInt8] {
        DER.sequence(DER.sequence(DER.oid(TestOID.ecPublicKey), DER.oid(TestOID.prime256v1)), DER.bitString(point))
    }

    private static var offCurveP256SPKI: [UInt8] {
        var spki = Fixtures.p256SPKI
        spki[spki.count - 1] ^= 0x01
        return spki
    }

    private static func verifiesFixtureSignature(_ key: VerificationKey) -> Bool {
        (try? verify(Fixtures.p256Signature, Fixtures.message, .ecdsa(.sha256), key)) != nil
    }

    func testPointOfAnotherCurveIsRefused() throws {
        // secp256k1's generator has the length and form of a P-256 point, so the Swift parser accepts
        // the SPKI; it is not on P-256, so the key must be refused.
        let spki = Self.p256SPKI(point: Self.secp256k1Generator)
        XCTAssertEqual(try PublicKeyDescription(spki: spki[...]).kind, .ec(curve: .p256))
        assertThrows(where: \.isMalformedKey) { _ = try verificationKey(spki) }
    }

    func testTemplateIsUnchangedByKeysBuiltFromIt() throws {
        let first = try verificationKey(Fixtures.p256SPKI)
        // Another valid point, then a refused one, on the same template.
        let generatorSPKI = Self.p256SPKI(point: Self.p256Generator)
        let generator = try verificationKey(generatorSPKI)
        XCTAssertEqual(generator.libcryptoSubjectPublicKeyInfo(), generatorSPKI)
        assertThrows(where: \.isMalformedKey) { _ = try verificationKey(Self.offCurveP256SPKI) }
        // Neither the earlier key nor a key built afterwards carries the other points.
        let second = try verificationKey(Fixtures.p256SPKI)
        for key in [first, second] {
            XCTAssertEqual(key.libcryptoSubjectPublicKeyInfo(), Fixtures.p256SPKI)
            XCTAssertTrue(Self.verifiesFixtureSignature(key))
        }
        XCTAssertFalse(Self.verifiesFixtureSignature(generator))
    }

    func testKeysOfEachCurveBuiltInTurnVerify() throws {
        // Each curve has its own template: a key must get its own curve's group whatever was built before.
        let cases = SignatureCase.all.filter { if case .ecdsa = $0.algorithm { true } else { false } }
        XCTAssertEqual(cases.count, 3)
        for testCase in cases + cases.reversed() {
            let key = try verificationKey(testCase.spki)
            XCTAssertEqual(key.libcryptoSubjectPublicKeyInfo(), testCase.spki, testCase.name)
            XCTAssertNoThrow(try verify(testCase.signature, Fixtures.message, testCase.algorithm, key), testCase.name)
        }
    }

    func testCompressedPointVerifiesAndIsKeptCompressed() throws {
        // The point is decoded as given (EC_KEY_oct2key keeps its form), so libcrypto's encoding of the
        // key is the SubjectPublicKeyInfo it came from, compressed point included.
        let key = try verificationKey(Fixtures.p256CompressedSPKI)
        XCTAssertEqual(key.libcryptoSubjectPublicKeyInfo(), Fixtures.p256CompressedSPKI)
        XCTAssertTrue(Self.verifiesFixtureSignature(key))
    }

    func testConcurrentKeysFromOneTemplateStayApart() {
        // Threads build keys from the one P-256 template at once: valid, other and off-curve points.
        let iterations = 300
        let outcomes = ResultBox<Bool>(count: iterations)
        let generatorSPKI = Self.p256SPKI(point: Self.p256Generator)
        let offCurve = Self.offCurveP256SPKI
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            switch index % 3 {
            case 0:
                let key = try? verificationKey(Fixtures.p256SPKI)
                outcomes.set(
                    index, key.map { $0.libcryptoSubjectPublicKeyInfo() == Fixtures.p256SPKI && ECGroupTemplateTests.verifiesFixtureSignature($0) })
            case 1:
                let key = try? verificationKey(generatorSPKI)
                outcomes.set(index, key.map { $0.libcryptoSubjectPublicKeyInfo() == generatorSPKI })
            default:
                do {
                    _ = try verificationKey(offCurve)
                    outcomes.set(index, false)
                } catch {
                    outcomes.set(index, (error as? SignatureError)?.isMalformedKey == true)
                }
            }
        }
        let failed = outcomes.values.enumerated().filter { $0.element != true }.map(\.offset)
        XCTAssertEqual(failed, [])
    }
}
