import Foundation
@testable import TrustDER
import TrustTestSupport
import XCTest

/// `DERReader.next()` decodes one-octet tags with lengths of up to two octets inline and leaves
/// every other header to the general path. These tests prove the two paths agree — same element or
/// same error — on every header the fast path looks at, so the shortcut can never accept what the
/// general rules refuse.
final class DERReaderFastPathTests: XCTestCase {
    /// One outcome of reading an element: its tag and byte ranges, or the error.
    private enum Outcome: Equatable {
        case element(tag: DERTag, offset: Int, contentOffset: Int, end: Int, content: [UInt8])
        case end
        case error(DERError)
    }

    private func outcome(_ read: (inout DERReader) throws(DERError) -> DERElement?, _ bytes: [UInt8], depth: Int) -> Outcome {
        var reader = DERReader(bytes[...], depth: depth)
        do {
            guard let element = try read(&reader) else { return .end }
            return .element(
                tag: element.tag, offset: element.offset, contentOffset: element.contentOffset,
                end: element.encoded.endIndex, content: Array(element.content))
        } catch {
            return .error(error)
        }
    }

    private func assertPathsAgree(_ bytes: [UInt8], depth: Int = 0, file: StaticString = #filePath, line: UInt = #line) {
        let fast = outcome({ (reader: inout DERReader) throws(DERError) in try reader.next() }, bytes, depth: depth)
        let general = outcome({ (reader: inout DERReader) throws(DERError) in try reader.nextInGeneralForm() }, bytes, depth: depth)
        XCTAssertEqual(fast, general, "header \(bytes.prefix(4).map { String($0, radix: 16) })", file: file, line: line)
    }

    /// Every identifier octet with short-form lengths, exact, truncated and with trailing bytes.
    func testEveryIdentifierOctetWithShortLengths() {
        for identifier in UInt8.min...UInt8.max {
            for length in [0, 1, 5, 0x7F] as [UInt8] {
                let content = [UInt8](repeating: 0x41, count: Int(length))
                assertPathsAgree([identifier, length] + content)
                assertPathsAgree([identifier, length] + content.dropLast())
                assertPathsAgree([identifier, length] + content + [0x05, 0x00])
            }
            assertPathsAgree([identifier])
        }
    }

    /// One- and two-octet long-form lengths: minimal, non-minimal (X.690 §10.1), truncated.
    func testLongFormLengths() {
        for identifier in [0x04, 0x30, 0x31, 0xA3, 0x24, 0x00, 0x1F] as [UInt8] {
            for length in [0x00, 0x7F, 0x80, 0xFF] {
                let content = [UInt8](repeating: 0, count: length)
                assertPathsAgree([identifier, 0x81, UInt8(length)] + content)
                assertPathsAgree([identifier, 0x81, UInt8(length)] + content.dropLast())
            }
            for length in [0x0000, 0x00FF, 0x0100, 0x1234] {
                let content = [UInt8](repeating: 0, count: length)
                let header: [UInt8] = [identifier, 0x82, UInt8(length >> 8), UInt8(length & 0xFF)]
                assertPathsAgree(header + content)
                assertPathsAgree(header + content.dropLast())
            }
            assertPathsAgree([identifier, 0x81])
            assertPathsAgree([identifier, 0x82, 0x01])
            assertPathsAgree([identifier, 0x80, 0x00, 0x00])
            assertPathsAgree([identifier, 0x83, 0x01, 0x00, 0x00] + [UInt8](repeating: 0, count: 0x10000))
        }
    }

    /// At the nesting limit the fast path must not bypass the depth rule.
    func testDepthLimit() {
        assertPathsAgree([0x30, 0x00], depth: DERReader.maximumDepth)
        assertPathsAgree([0x30, 0x00], depth: DERReader.maximumDepth - 1)
    }

    /// Whole real certificates walk identically on both paths, element by element, to every depth.
    func testCertificatesWalkIdentically() throws {
        for name in ["ecdsa/leaf.pem", "rsa/leaf.pem", "ecdsa/root.pem"] {
            let pem = try XCTUnwrap(String(bytes: try TestCertificates.bytes(name), encoding: .utf8))
            let der = try XCTUnwrap(try PEM.decode(pem).first).der
            var fastCount = 0, generalCount = 0
            func walk(_ reader: DERReader, fast: Bool, count: inout Int) throws -> [Outcome] {
                var reader = reader, outcomes: [Outcome] = []
                while let element = try (fast ? reader.next() : reader.nextInGeneralForm()) {
                    count += 1
                    outcomes.append(
                        .element(
                            tag: element.tag, offset: element.offset, contentOffset: element.contentOffset,
                            end: element.encoded.endIndex, content: Array(element.content)))
                    if element.tag.isConstructed { outcomes += try walk(try element.children(), fast: fast, count: &count) }
                }
                return outcomes
            }
            let fast = try walk(DERReader(der[...]), fast: true, count: &fastCount)
            let general = try walk(DERReader(der[...]), fast: false, count: &generalCount)
            XCTAssertEqual(fast, general, name)
            XCTAssertGreaterThan(fastCount, 30, "\(name): a certificate has dozens of elements")
        }
    }
}
