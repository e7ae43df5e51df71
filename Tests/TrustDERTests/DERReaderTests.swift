import TrustDER
import XCTest

/// Identifier octets, length octets and overall structure (X.690 §8.1, §10.1).
final class DERReaderTests: XCTestCase {
    // MARK: - Basic reading

    func testReadsSequenceWithChildrenAndOffsets() throws {
        // SEQUENCE { INTEGER 5, BOOLEAN TRUE }
        let der: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x05, 0x01, 0x01, 0xFF]
        let outer = try DERReader.parseSingle(der)
        XCTAssertEqual(outer.tag, .sequence)
        XCTAssertTrue(outer.tag.isConstructed)
        XCTAssertEqual(outer.offset, 0)
        XCTAssertEqual(outer.contentOffset, 2)
        XCTAssertEqual(outer.depth, 0)
        XCTAssertEqual(Array(outer.content), Array(der[2...]))
        XCTAssertEqual(Array(outer.encoded), der)

        var children = try outer.children()
        XCTAssertEqual(children.depth, 1)
        XCTAssertEqual(children.offset, 2)
        let first = try children.read(.integer)
        XCTAssertEqual(first.offset, 2)
        XCTAssertEqual(first.contentOffset, 4)
        XCTAssertEqual(first.depth, 1)
        XCTAssertEqual(Array(first.content), [0x05])
        XCTAssertEqual(Array(first.encoded), [0x02, 0x01, 0x05])
        let second = try children.read(.boolean)
        XCTAssertEqual(second.offset, 5)
        XCTAssertEqual(Array(second.content), [0xFF])
        XCTAssertTrue(children.isAtEnd)
        XCTAssertNil(try children.next())
        XCTAssertNoThrow(try children.finish())
    }

    func testOffsetsAreAbsoluteInTheCallersBuffer() throws {
        // Three junk bytes, then NULL, INTEGER 1.
        let buffer: [UInt8] = [0xAA, 0xBB, 0xCC, 0x05, 0x00, 0x02, 0x01, 0x01, 0x99]
        var reader = DERReader(buffer[3..<8])
        XCTAssertEqual(reader.offset, 3)
        let null = try reader.readAny()
        XCTAssertEqual(null.offset, 3)
        XCTAssertEqual(null.contentOffset, 5)
        let integer = try reader.readAny()
        XCTAssertEqual(integer.offset, 5)
        XCTAssertEqual(integer.contentOffset, 7)
        XCTAssertEqual(integer.content.startIndex, 7)
        XCTAssertTrue(reader.isAtEnd)
        XCTAssertEqual(reader.offset, 8)

        // Errors inside a slice also report absolute offsets.
        let bad: [UInt8] = [0xAA, 0xAA, 0x04, 0x80]
        assertDERError(.indefiniteLength, at: 3) { try DERReader.parseSingle(bad[2...]) }
        // parseSingle on a slice: trailing byte reported at its absolute position.
        assertDERError(.trailingBytes, at: 8) { try DERReader.parseSingle(buffer[5...]) }
    }

    func testEmptyInput() throws {
        var reader = DERReader([UInt8]()[...])
        XCTAssertTrue(reader.isAtEnd)
        XCTAssertNil(try reader.next())
        XCTAssertNil(try reader.peekTag())
        XCTAssertNoThrow(try reader.finish())
        assertDERError(.truncated, at: 0) { try DERReader.parseSingle([]) }
    }

    // MARK: - Lengths

    func testShortAndLongFormLengthsAreAccepted() throws {
        for length in [0, 1, 127, 128, 255, 256, 300, 65_535, 65_536, 70_000] {
            let content = [UInt8](repeating: 0x5A, count: length)
            let der = tlv(0x04, content)
            let parsed = try DERReader.parseSingle(der)
            XCTAssertEqual(parsed.content.count, length, "length \(length)")
            XCTAssertEqual(parsed.contentOffset, der.count - length, "length \(length)")
            XCTAssertEqual(parsed.encoded.count, der.count)
        }
        // The exact header bytes used above.
        XCTAssertEqual(derLength(127), [0x7F])
        XCTAssertEqual(derLength(128), [0x81, 0x80])
        XCTAssertEqual(derLength(256), [0x82, 0x01, 0x00])
        XCTAssertEqual(derLength(65_536), [0x83, 0x01, 0x00, 0x00])
    }

    func testIndefiniteLengthIsRejected() {
        assertDERError(.indefiniteLength, at: 1) { try element([0x30, 0x80, 0x00, 0x00]) }
        assertDERError(.indefiniteLength, at: 1) { try element([0xA0, 0x80, 0x04, 0x01, 0xAA, 0x00, 0x00]) }
        // Inside a SEQUENCE: the offset is that of the inner length octet.
        let nested: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x30, 0x80, 0x00]
        let outer = try? element(nested)
        XCTAssertNotNil(outer)
        assertDERError(.indefiniteLength, at: 6) {
            var children = try outer!.children()
            _ = try children.next()
            return try children.next()
        }
    }

    func testNonMinimalLengthsAreRejected() {
        // 0x81 0x05: long form for a length < 128.
        assertDERError(.nonMinimalLength, at: 1) { try element([0x04, 0x81, 0x05, 1, 2, 3, 4, 5]) }
        // 0x81 0x7F: still < 128.
        assertDERError(.nonMinimalLength, at: 1) {
            try element([0x04, 0x81, 0x7F] + [UInt8](repeating: 0, count: 127))
        }
        // 0x82 0x00 0x90: leading zero octet.
        assertDERError(.nonMinimalLength, at: 1) {
            try element([0x04, 0x82, 0x00, 0x90] + [UInt8](repeating: 0, count: 0x90))
        }
        // 0x83 0x00 0x01 0x00: leading zero octet on a 3-octet length.
        assertDERError(.nonMinimalLength, at: 1) {
            try element([0x04, 0x83, 0x00, 0x01, 0x00] + [UInt8](repeating: 0, count: 256))
        }
        // 0x84 0x00 0x00 0x00 0x05.
        assertDERError(.nonMinimalLength, at: 1) { try element([0x04, 0x84, 0, 0, 0, 5, 1, 2, 3, 4, 5]) }
        // 0x82 0x00 0x00: zero in long form.
        assertDERError(.nonMinimalLength, at: 1) { try element([0x04, 0x82, 0x00, 0x00]) }
        // The reserved 0xFF length octet.
        assertDERError(.nonMinimalLength, at: 1) { try element([0x04, 0xFF, 0x00]) }
        // In a nested position the offset is absolute.
        assertDERError(.nonMinimalLength, at: 3) {
            var reader = DERReader([0x05, 0x00, 0x04, 0x81, 0x01, 0xAA][...])
            _ = try reader.next()
            return try reader.next()
        }
    }

    func testMinimalLongFormBoundariesAreAccepted() throws {
        XCTAssertEqual(try element([0x04, 0x81, 0x80] + [UInt8](repeating: 1, count: 128)).content.count, 128)
        XCTAssertEqual(try element([0x04, 0x82, 0x01, 0x00] + [UInt8](repeating: 1, count: 256)).content.count, 256)
    }

    func testLengthsPastTheEndAreTruncated() {
        // Short form: content would start at 2 and needs 5 bytes, only 2 present.
        assertDERError(.truncated, at: 2) { try element([0x04, 0x05, 0x01, 0x02]) }
        // Long form: content starts at 4.
        assertDERError(.truncated, at: 4) { try element([0x04, 0x82, 0x01, 0x00, 0x00]) }
        // Length octets themselves missing: reported at the first length octet.
        assertDERError(.truncated, at: 1) { try element([0x04, 0x82, 0x01]) }
        assertDERError(.truncated, at: 1) { try element([0x04]) }
        // A 4-octet length far larger than the input.
        assertDERError(.truncated, at: 6) { try element([0x04, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x00]) }
        // A child whose length runs past its parent's content (but not past the buffer).
        let der: [UInt8] = [0x30, 0x03, 0x04, 0x02, 0xAA, 0xBB]
        assertDERError(.truncated, at: 4) {
            var reader = DERReader(der[...])
            let outer = try reader.next()!
            var children = try outer.children()
            return try children.next()
        }
    }

    func testLengthWithMoreThanFourOctetsIsRejected() {
        assertDERError(.lengthTooLarge, at: 1) { try element([0x04, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00]) }
        assertDERError(.lengthTooLarge, at: 1) { try element([0x04, 0x88, 0, 0, 0, 0, 0, 0, 0, 1, 0xAA]) }
        assertDERError(.lengthTooLarge, at: 1) { try element([0x04, 0xFE]) }
    }

    // MARK: - Trailing bytes and finish()

    func testParseSingleRejectsTrailingBytes() throws {
        assertDERError(.trailingBytes, at: 2) { try element([0x05, 0x00, 0x00]) }
        assertDERError(.trailingBytes, at: 8) {
            try element([0x30, 0x06, 0x02, 0x01, 0x05, 0x01, 0x01, 0xFF, 0x05, 0x00])
        }
        // A second, well-formed element is still trailing.
        assertDERError(.trailingBytes, at: 3) { try element([0x02, 0x01, 0x01, 0x02, 0x01, 0x02]) }
        XCTAssertNoThrow(try element([0x05, 0x00]))
    }

    func testFinish() throws {
        var reader = DERReader([0x02, 0x01, 0x01, 0x05, 0x00][...])
        assertDERError(.trailingBytes, at: 0) { try reader.finish() }
        _ = try reader.read(.integer)
        assertDERError(.trailingBytes, at: 3) { try reader.finish() }
        _ = try reader.read(.null)
        XCTAssertNoThrow(try reader.finish())
    }

    // MARK: - Identifier octets

    func testTagClassesAndForms() throws {
        let cases: [(UInt8, DERTag.TagClass, Bool, UInt32)] = [
            (0x02, .universal, false, 2),
            (0x30, .universal, true, 16),
            (0x31, .universal, true, 17),
            (0x41, .application, false, 1),
            (0x80, .contextSpecific, false, 0),
            (0xA3, .contextSpecific, true, 3),
            (0xC5, .private, false, 5),
            (0xFE, .private, true, 30),
        ]
        for (identifier, tagClass, constructed, number) in cases {
            let parsed = try element([identifier, 0x00])
            XCTAssertEqual(parsed.tag.tagClass, tagClass, "0x\(String(identifier, radix: 16))")
            XCTAssertEqual(parsed.tag.isConstructed, constructed, "0x\(String(identifier, radix: 16))")
            XCTAssertEqual(parsed.tag.number, number, "0x\(String(identifier, radix: 16))")
        }
        XCTAssertEqual(try element([0xA0, 0x00]).tag, .context(0, constructed: true))
        XCTAssertEqual(try element([0x81, 0x00]).tag, .context(1, constructed: false))
    }

    func testHighTagNumberFormIsAccepted() throws {
        // [31] primitive, the smallest high-form number.
        XCTAssertEqual(try element([0x9F, 0x1F, 0x00]).tag, DERTag(.contextSpecific, number: 31, constructed: false))
        // UNIVERSAL 31 (DATE-TIME is 33; 31 is the first high-form universal).
        XCTAssertEqual(try element([0x1F, 0x1F, 0x00]).tag.number, 31)
        // [128] constructed: 0x81 0x00.
        let tag128 = try element([0xBF, 0x81, 0x00, 0x00]).tag
        XCTAssertEqual(tag128, DERTag(.contextSpecific, number: 128, constructed: true))
        // [APPLICATION 0x3FFF] = 0xFF 0x7F.
        XCTAssertEqual(try element([0x5F, 0xFF, 0x7F, 0x00]).tag.number, 0x3FFF)
        // Four subsequent octets: the largest supported numbers.
        XCTAssertEqual(try element([0xDF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00]).tag.number, 0x0FFF_FFFF)
        // Content offset follows the multi-octet identifier.
        let parsed = try element([0x9F, 0x81, 0x00, 0x01, 0xAB])
        XCTAssertEqual(parsed.contentOffset, 4)
        XCTAssertEqual(Array(parsed.content), [0xAB])
    }

    func testNonMinimalHighTagNumbersAreRejected() {
        // Leading 0x80 octet.
        assertDERError(.nonMinimalTag, at: 0) { try element([0x1F, 0x80, 0x21, 0x00]) }
        assertDERError(.nonMinimalTag, at: 0) { try element([0x9F, 0x80, 0x80, 0x1F, 0x00]) }
        // Numbers below 31 must use the low form.
        assertDERError(.nonMinimalTag, at: 0) { try element([0x1F, 0x05, 0x00]) }
        assertDERError(.nonMinimalTag, at: 0) { try element([0xBF, 0x00, 0x00]) }
        assertDERError(.nonMinimalTag, at: 0) { try element([0x9F, 0x1E, 0x00]) }
        // Reported at the identifier's absolute offset.
        assertDERError(.nonMinimalTag, at: 2) {
            var reader = DERReader([0x05, 0x00, 0x1F, 0x05, 0x00][...])
            _ = try reader.next()
            return try reader.next()
        }
    }

    func testOversizedAndTruncatedHighTagNumbers() {
        // Five subsequent octets exceed the supported range.
        assertDERError(.tagTooLarge, at: 0) { try element([0x1F, 0x81, 0x80, 0x80, 0x80, 0x00, 0x00]) }
        assertDERError(.tagTooLarge, at: 0) { try element([0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00]) }
        // The identifier runs off the end of input.
        assertDERError(.truncated, at: 0) { try element([0x1F]) }
        assertDERError(.truncated, at: 0) { try element([0x1F, 0x81]) }
        assertDERError(.truncated, at: 0) { try element([0x9F, 0x81, 0x82]) }
    }

    // MARK: - Primitive / constructed

    func testPrimitiveConstructedMismatchIsRejected() {
        // Constructed INTEGER.
        assertDERError(.constructedMismatch, at: 0) { try element([0x22, 0x01, 0x00]) }
        // Primitive SEQUENCE and SET.
        assertDERError(.constructedMismatch, at: 0) { try element([0x10, 0x00]) }
        assertDERError(.constructedMismatch, at: 0) { try element([0x11, 0x00]) }
        // Constructed forms of the always-primitive types (BER constructed strings are not DER).
        for identifier: UInt8 in [0x21, 0x23, 0x24, 0x25, 0x26, 0x2A, 0x2C, 0x32, 0x33, 0x34, 0x36, 0x37, 0x38, 0x3A, 0x3C, 0x3E] {
            assertDERError(.constructedMismatch, at: 0, "identifier 0x\(String(identifier, radix: 16))") {
                try element([identifier, 0x00])
            }
        }
        // Inside a structure the offset is that of the bad element.
        assertDERError(.constructedMismatch, at: 2) {
            let outer = try element([0x30, 0x03, 0x22, 0x01, 0x00])
            var children = try outer.children()
            return try children.next()
        }
        // Non-universal classes may be either form.
        XCTAssertNoThrow(try element([0xA2, 0x00]))
        XCTAssertNoThrow(try element([0x90, 0x00]))
    }

    func testChildrenOfPrimitiveElementIsRejected() throws {
        let outer = try element([0x30, 0x05, 0x05, 0x00, 0x04, 0x01, 0x30])
        var reader = try outer.children()
        _ = try reader.next()
        let octets = try reader.read(.octetString)
        assertDERError(.constructedMismatch, at: 4) { try octets.children() }
    }

    // MARK: - Truncation at every position

    /// SEQUENCE { INTEGER 5, [0] { OCTET STRING DEADBEEF }, [31] NULL-like, OCTET STRING(130 bytes) }
    private var sampleStructure: [UInt8] {
        let inner: [UInt8] =
            [0x02, 0x01, 0x05]
            + [0xA0, 0x06, 0x04, 0x04, 0xDE, 0xAD, 0xBE, 0xEF]
            + [0x9F, 0x1F, 0x00]
            + tlv(0x04, [UInt8](repeating: 0x11, count: 130))
        return tlv(0x30, inner)
    }

    func testSampleStructureIsValid() throws {
        let tree = try walkSingle(sampleStructure)
        XCTAssertEqual(tree.children.count, 4)
        XCTAssertEqual(tree.children[1].children.count, 1)
        XCTAssertEqual(tree.children[2].tag.number, 31)
        XCTAssertEqual(tree.children[3].length, 130)
    }

    func testEveryProperPrefixIsTruncated() {
        let der = sampleStructure
        for length in 0..<der.count {
            let prefix = Array(der[0..<length])
            let error = assertThrowsDERError("prefix of \(length) bytes") { try walkSingle(prefix) }
            XCTAssertEqual(error?.rule, .truncated, "prefix of \(length) bytes")
            if let offset = error?.offset {
                XCTAssertLessThanOrEqual(offset, length, "prefix of \(length) bytes")
            }
        }
    }

    func testEveryTruncatedChildIsDetectedInsideACorrectParent() throws {
        // Re-wrap each prefix of the SEQUENCE's content in a correct SEQUENCE header, so the
        // truncation is only visible while walking the children.
        let inner = Array(try element(sampleStructure).content)
        let boundaries: Set<Int> = [0, 3, 11, 14, inner.count]
        for length in 0...inner.count {
            let wrapped = tlv(0x30, Array(inner[0..<length]))
            if boundaries.contains(length) {
                XCTAssertNoThrow(try walkSingle(wrapped), "boundary \(length)")
            } else {
                let error = assertThrowsDERError("inner prefix of \(length) bytes") { try walkSingle(wrapped) }
                XCTAssertEqual(error?.rule, .truncated, "inner prefix of \(length) bytes")
                if let offset = error?.offset {
                    XCTAssertGreaterThan(offset, 0)
                    XCTAssertLessThanOrEqual(offset, wrapped.count)
                }
            }
        }
    }

    // MARK: - Nesting depth

    private func nestedSequences(_ count: Int) -> [UInt8] {
        var der: [UInt8] = [0x30, 0x00]
        for _ in 1..<count { der = tlv(0x30, der) }
        return der
    }

    private func maximumDepth(_ nodes: [Node]) -> Int {
        nodes.map { max($0.depth, maximumDepth($0.children)) }.max() ?? -1
    }

    func testNestingDeeperThanMaximumIsRejected() {
        let der = nestedSequences(40)
        XCTAssertEqual(der.count, 80)
        // Elements at depth 0…31 are allowed; the element at depth 32 (offset 64) is refused.
        assertDERError(.nestingTooDeep, at: 2 * DERReader.maximumDepth) { try walkSingle(der) }
        assertDERError(.nestingTooDeep, at: 2 * DERReader.maximumDepth) {
            try walk(DERReader(der[...]))
        }
    }

    func testNestingUpToMaximumIsAccepted() throws {
        XCTAssertEqual(DERReader.maximumDepth, 32)
        let der = nestedSequences(DERReader.maximumDepth)
        let nodes = try walk(DERReader(der[...]))
        XCTAssertEqual(maximumDepth(nodes), DERReader.maximumDepth - 1)
        assertDERError(.nestingTooDeep, at: 2 * DERReader.maximumDepth) {
            try walk(DERReader(self.nestedSequences(DERReader.maximumDepth + 1)[...]))
        }
    }

    func testReaderAtMaximumDepthRefusesElements() {
        var reader = DERReader([0x05, 0x00][...], depth: DERReader.maximumDepth)
        assertDERError(.nestingTooDeep, at: 0) { try reader.next() }
        var shallower = DERReader([0x05, 0x00][...], depth: DERReader.maximumDepth - 1)
        XCTAssertEqual(try shallower.next()?.depth, DERReader.maximumDepth - 1)
    }

    // MARK: - peekTag, read, readIfPresent, readAny

    func testPeekTagDoesNotConsume() throws {
        var reader = DERReader([0x02, 0x01, 0x07, 0xA1, 0x00][...])
        XCTAssertEqual(try reader.peekTag(), .integer)
        XCTAssertEqual(try reader.peekTag(), .integer)
        XCTAssertEqual(reader.offset, 0)
        _ = try reader.next()
        XCTAssertEqual(try reader.peekTag(), .context(1, constructed: true))
        XCTAssertEqual(reader.offset, 3)
        _ = try reader.next()
        XCTAssertNil(try reader.peekTag())
    }

    func testPeekTagReportsMalformedIdentifier() {
        let reader = DERReader([0x1F, 0x80, 0x21, 0x00][...])
        assertDERError(.nonMinimalTag, at: 0) { try reader.peekTag() }
        let truncated = DERReader([0x05, 0x00, 0x3F][...])
        var copy = truncated
        _ = try? copy.next()
        assertDERError(.truncated, at: 2) { try copy.peekTag() }
    }

    func testReadIfPresent() throws {
        // [0] EXPLICIT version present, then INTEGER; then the same without the version.
        var present = DERReader([0xA0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x01, 0x09][...])
        let version = try present.readIfPresent(.context(0, constructed: true))
        XCTAssertEqual(version?.offset, 0)
        XCTAssertEqual(present.offset, 5)
        XCTAssertEqual(try present.read(.integer).content.first, 0x09)

        var absent = DERReader([0x02, 0x01, 0x09][...])
        XCTAssertNil(try absent.readIfPresent(.context(0, constructed: true)))
        XCTAssertEqual(absent.offset, 0, "reader must be unchanged when the tag differs")
        // Same number but other form is a different tag.
        XCTAssertNil(try absent.readIfPresent(DERTag(.universal, number: 2, constructed: true)))
        XCTAssertEqual(absent.offset, 0)
        XCTAssertEqual(try absent.read(.integer).content.first, 0x09)

        // At the end of input: nil, no error.
        XCTAssertNil(try absent.readIfPresent(.integer))

        // A present element that is malformed still throws.
        var malformed = DERReader([0x02, 0x05, 0x01][...])
        assertDERError(.truncated, at: 2) { try malformed.readIfPresent(.integer) }
    }

    func testReadWithWrongTag() {
        var reader = DERReader([0x01, 0x01, 0xFF][...])
        assertDERError(.unexpectedTag(expected: "INTEGER", found: "BOOLEAN"), at: 0) { try reader.read(.integer) }
        var end = DERReader([0x05, 0x00][...])
        _ = try? end.next()
        assertDERError(.unexpectedTag(expected: "SEQUENCE", found: "end of input"), at: 2) { try end.read(.sequence) }
        assertDERError(.truncated, at: 2) { try end.readAny() }
    }

    func testExpect() throws {
        let parsed = try element([0xA3, 0x00])
        XCTAssertNoThrow(try parsed.expect(.context(3, constructed: true)))
        assertDERError(.unexpectedTag(expected: "[3]", found: "[3] constructed"), at: 0) {
            try parsed.expect(.context(3, constructed: false))
        }
    }

    func testTagDescriptions() {
        XCTAssertEqual(DERTag.sequence.description, "SEQUENCE")
        XCTAssertEqual(DERTag.integer.description, "INTEGER")
        XCTAssertEqual(DERTag.context(0, constructed: true).description, "[0] constructed")
        XCTAssertEqual(DERTag(.application, number: 7, constructed: false).description, "[APPLICATION 7]")
        XCTAssertEqual(DERTag(.private, number: 2, constructed: true).description, "[PRIVATE 2] constructed")
        XCTAssertEqual(DERTag(.universal, number: 99, constructed: false).description, "UNIVERSAL 99")
    }

    func testErrorDescriptionNamesRuleAndOffset() {
        let error = DERError(.indefiniteLength, at: 17)
        XCTAssertEqual(error.description, "indefinite length is not allowed in DER at byte 17")
        XCTAssertEqual(
            DERError(.unexpectedTag(expected: "INTEGER", found: "NULL"), at: 0).ruleDescription,
            "expected INTEGER, found NULL")
    }
}
