@testable import TrustDER
import XCTest

/// `ASCIIScan.isASCII` reads eight bytes at a time: it must agree with the byte-by-byte answer
/// at every length, alignment and position of a high byte.
final class ASCIIScanTests: XCTestCase {
    func testAgreesWithTheByteByByteAnswer() {
        var generator = SystemRandomNumberGenerator()
        let buffer: [UInt8] = (0..<96).map { _ in UInt8.random(in: 0..<0x80, using: &generator) }
        var nonASCII = 0
        for start in 0..<9 {
            for end in start...buffer.count {
                XCTAssertTrue(ASCIIScan.isASCII(buffer[start..<end]))
                // One high byte at each position in turn (and every high bit value's edge: 0x80, 0xFF).
                for position in start..<end {
                    var mutated = buffer
                    mutated[position] = position % 2 == 0 ? 0x80 : 0xFF
                    let slice = mutated[start..<end]
                    XCTAssertEqual(ASCIIScan.isASCII(slice), slice.allSatisfy { $0 < 0x80 })
                    XCTAssertFalse(ASCIIScan.isASCII(slice), "high byte at \(position) of \(start)..<\(end)")
                    nonASCII += 1
                }
            }
        }
        XCTAssertGreaterThan(nonASCII, 1000)
        XCTAssertTrue(ASCIIScan.isASCII([UInt8]()[...]))
        XCTAssertTrue(ASCIIScan.isASCII([0x7F][...]))
    }
}
