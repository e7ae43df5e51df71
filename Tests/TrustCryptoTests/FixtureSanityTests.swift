import XCTest

/// Guards against a fixture literal that silently failed to decode.
final class FixtureSanityTests: XCTestCase {
    func testEveryFixtureDecodesToTheExpectedSize() {
        XCTAssertEqual(Fixtures.message.count, 73)
        XCTAssertEqual(Fixtures.rsa2048SHA256Signature.count, 256)
        XCTAssertEqual(Fixtures.rsa2048SHA1Signature.count, 256)
        XCTAssertEqual(Fixtures.rsa2048PSSSignature.count, 256)
        XCTAssertEqual(Fixtures.rsa1024SHA256Signature.count, 128)
        XCTAssertEqual(Fixtures.ed25519Signature.count, 64)
        XCTAssertEqual(Fixtures.ed448Signature.count, 114)
        XCTAssertEqual(Fixtures.ed25519SPKI.count, 44)
        XCTAssertEqual(Fixtures.ed448SPKI.count, 69)
        XCTAssertEqual(Fixtures.p256SPKI.count, 91)
        XCTAssertEqual(Fixtures.p256CompressedSPKI.count, 59)
        for testCase in SignatureCase.all {
            XCTAssertFalse(testCase.spki.isEmpty, testCase.name)
            XCTAssertFalse(testCase.algorithmIdentifier.isEmpty, testCase.name)
            XCTAssertFalse(testCase.signature.isEmpty, testCase.name)
        }
        XCTAssertFalse(Fixtures.p256ExplicitSPKI.isEmpty)
    }
}
