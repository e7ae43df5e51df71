import TrustCrypto
import XCTest

final class DigestTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private let abc = Array("abc".utf8)

    func testSHA1OfABC() {
        XCTAssertEqual(hex(Digest.sha1(abc)), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(Digest.hash(.sha1, abc), Digest.sha1(abc))
    }

    func testSHA256OfABC() {
        XCTAssertEqual(hex(Digest.sha256(abc)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testSHA384OfABC() {
        XCTAssertEqual(
            hex(Digest.hash(.sha384, abc)),
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        )
    }

    func testSHA512OfABC() {
        XCTAssertEqual(
            hex(Digest.hash(.sha512, abc)),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
                + "454d4423643ce80e2a9ac94fa54ca49f"
        )
    }

    func testEmptyInput() {
        XCTAssertEqual(hex(Digest.sha256([UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(Digest.sha1([UInt8]()[...])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    func testSliceWithNonZeroStartIndexHashesOnlyTheSlice() {
        let buffer = Array("xxabcyy".utf8)
        XCTAssertEqual(Digest.sha256(buffer[2..<5]), Digest.sha256(abc))
    }

    func testNonContiguousCollectionMatchesContiguous() {
        let lazy = abc.lazy.map { $0 }
        XCTAssertEqual(Digest.hash(.sha512, lazy), Digest.hash(.sha512, abc))
        XCTAssertEqual(Digest.sha256(Set<UInt8>([7])), Digest.sha256([UInt8(7)]))
    }

    func testMillionAs() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        XCTAssertEqual(hex(Digest.sha256(input)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testOutputSizesAndNames() {
        XCTAssertEqual([DigestAlgorithm.sha1, .sha256, .sha384, .sha512].map(\.outputByteCount), [20, 32, 48, 64])
        XCTAssertEqual([DigestAlgorithm.sha1, .sha256, .sha384, .sha512].map(\.description), ["SHA-1", "SHA-256", "SHA-384", "SHA-512"])
    }
}
