import TrustDER
import XCTest

/// `ByteComparison.equal` against `elementsEqual`, on slices that start anywhere in their buffer.
final class ByteComparisonTests: XCTestCase {
    func testAgreesWithElementsEqualForEveryLengthAndDifferingPosition() {
        let buffer = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...40 {
            for start in [0, 1, 3, 7] {
                let lhs = buffer[start..<(start + length)]
                var copy = Array(repeating: UInt8(0xEE), count: 5) + Array(lhs)
                XCTAssertTrue(ByteComparison.equal(lhs, copy[5...]), "length \(length) start \(start)")
                for position in 0..<length {
                    copy[5 + position] ^= 0x01
                    XCTAssertFalse(ByteComparison.equal(lhs, copy[5...]), "length \(length), byte \(position) differs")
                    XCTAssertEqual(ByteComparison.equal(lhs, copy[5...]), lhs.elementsEqual(copy[5...]))
                    copy[5 + position] ^= 0x01
                }
                if length > 0 {
                    XCTAssertFalse(ByteComparison.equal(lhs, copy[5...].dropLast()), "different lengths are never equal")
                }
            }
        }
    }
}
