import TrustDER
import XCTest

/// BOOLEAN, NULL, INTEGER, BIT STRING and OCTET STRING decoding (X.690 §8.2–§8.8, §11.1–§11.2).
final class DERPrimitivesTests: XCTestCase {
    // MARK: - BOOLEAN

    func testBooleanValues() throws {
        XCTAssertEqual(try element([0x01, 0x01, 0xFF]).boolean(), true)
        XCTAssertEqual(try element([0x01, 0x01, 0x00]).boolean(), false)
    }

    func testBooleanOtherThan00OrFFIsRejected() throws {
        for value: UInt8 in [0x01, 0x7F, 0x80, 0xFE] {
            let parsed = try element([0x01, 0x01, value])
            assertDERError(.invalidBoolean, at: 0, "value 0x\(String(value, radix: 16))") { try parsed.boolean() }
        }
    }

    func testBooleanWithWrongLengthIsRejected() throws {
        let empty = try element([0x01, 0x00])
        assertDERError(.invalidBoolean, at: 0) { try empty.boolean() }
        let long = try element([0x01, 0x02, 0xFF, 0xFF])
        assertDERError(.invalidBoolean, at: 0) { try long.boolean() }
        let zeros = try element([0x01, 0x02, 0x00, 0x00])
        assertDERError(.invalidBoolean, at: 0) { try zeros.boolean() }
    }

    func testBooleanErrorOffsetIsTheElementOffset() throws {
        let der: [UInt8] = [0x30, 0x05, 0x05, 0x00, 0x01, 0x01, 0x01]
        var reader = try element(der).children()
        _ = try reader.read(.null)
        let boolean = try reader.read(.boolean)
        assertDERError(.invalidBoolean, at: 4) { try boolean.boolean() }
    }

    func testBooleanRequiresBooleanTag() throws {
        let integer = try element([0x02, 0x01, 0xFF])
        assertDERError(.unexpectedTag(expected: "BOOLEAN", found: "INTEGER"), at: 0) { try integer.boolean() }
    }

    // MARK: - NULL

    func testNull() throws {
        XCTAssertNoThrow(try element([0x05, 0x00]).null())
        let withContent = try element([0x05, 0x01, 0x00])
        assertDERError(.invalidNull, at: 0) { try withContent.null() }
        let octets = try element([0x04, 0x00])
        assertDERError(.unexpectedTag(expected: "NULL", found: "OCTET STRING"), at: 0) { try octets.null() }
    }

    // MARK: - INTEGER minimality

    func testMinimalIntegersAreAccepted() throws {
        let cases: [([UInt8], Int64)] = [
            ([0x00], 0),
            ([0x01], 1),
            ([0x7F], 127),
            ([0x00, 0x80], 128),
            ([0x00, 0xFF], 255),
            ([0x01, 0x00], 256),
            ([0xFF], -1),
            ([0x80], -128),
            ([0xFF, 0x7F], -129),
            ([0xFF, 0x00], -256),
            ([0x80, 0x00], -32_768),
        ]
        for (content, value) in cases {
            let parsed = try element(tlv(0x02, content))
            XCTAssertEqual(try parsed.integer(as: Int64.self), value, "\(content)")
            XCTAssertEqual(Array(try parsed.integerBytes()), content)
        }
    }

    func testNonMinimalIntegersAreRejected() throws {
        let cases: [[UInt8]] = [
            [], // empty
            [0x00, 0x7F], // redundant 0x00
            [0x00, 0x00], // redundant 0x00
            [0x00, 0x00, 0x80], // redundant 0x00 before a needed one
            [0xFF, 0x80], // redundant 0xFF
            [0xFF, 0xFF], // redundant 0xFF
            [0xFF, 0xFF, 0x7F],
        ]
        for content in cases {
            let parsed = try element(tlv(0x02, content))
            assertDERError(.nonMinimalInteger, at: 0, "\(content)") { try parsed.integerBytes() }
            assertDERError(.nonMinimalInteger, at: 0, "\(content)") { try parsed.integer(as: Int64.self) }
            assertDERError(.nonMinimalInteger, at: 0, "\(content)") { try parsed.integer(as: UInt64.self) }
        }
        // Offset is the INTEGER's own (absolute) offset.
        var reader = try element([0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x02, 0x00, 0x01]).children()
        _ = try reader.read(.integer)
        let bad = try reader.read(.integer)
        assertDERError(.nonMinimalInteger, at: 5) { try bad.integer(as: Int.self) }
    }

    func testIntegerRequiresIntegerTag() throws {
        let octets = try element([0x04, 0x01, 0x01])
        assertDERError(.unexpectedTag(expected: "INTEGER", found: "OCTET STRING"), at: 0) { try octets.integer(as: Int.self) }
    }

    func testEnumeratedViaTagParameter() throws {
        let enumerated = try element([0x0A, 0x01, 0x03])
        XCTAssertEqual(try enumerated.integer(as: Int.self, tag: .enumerated), 3)
        assertDERError(.unexpectedTag(expected: "INTEGER", found: "ENUMERATED"), at: 0) { try enumerated.integer(as: Int.self) }
        let implicit = try element([0x82, 0x01, 0x2A])
        XCTAssertEqual(try implicit.integer(as: UInt8.self, tag: .context(2, constructed: false)), 42)
    }

    // MARK: - INTEGER range

    func testUnsignedRange() throws {
        XCTAssertEqual(try element([0x02, 0x02, 0x00, 0xFF]).integer(as: UInt8.self), 255)
        XCTAssertEqual(try element([0x02, 0x01, 0x00]).integer(as: UInt8.self), 0)
        let twoFiftySix = try element([0x02, 0x02, 0x01, 0x00])
        assertDERError(.integerOutOfRange, at: 0) { try twoFiftySix.integer(as: UInt8.self) }
        XCTAssertEqual(try twoFiftySix.integer(as: UInt16.self), 256)

        let uint64Max = try element([0x02, 0x09, 0x00] + [UInt8](repeating: 0xFF, count: 8))
        XCTAssertEqual(try uint64Max.integer(as: UInt64.self), UInt64.max)
        assertDERError(.integerOutOfRange, at: 0) { try uint64Max.integer(as: Int64.self) }
        let twoToThe64 = try element([0x02, 0x09, 0x01] + [UInt8](repeating: 0x00, count: 8))
        assertDERError(.integerOutOfRange, at: 0) { try twoToThe64.integer(as: UInt64.self) }
    }

    func testNegativeIntoUnsignedIsRejected() throws {
        for content: [UInt8] in [[0xFF], [0x80], [0xFF, 0x7F], [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]] {
            let parsed = try element(tlv(0x02, content))
            assertDERError(.integerOutOfRange, at: 0, "\(content)") { try parsed.integer(as: UInt8.self) }
            assertDERError(.integerOutOfRange, at: 0, "\(content)") { try parsed.integer(as: UInt64.self) }
            assertDERError(.integerOutOfRange, at: 0, "\(content)") { try parsed.integer(as: UInt.self) }
        }
    }

    func testSignedRange() throws {
        XCTAssertEqual(try element([0x02, 0x01, 0x7F]).integer(as: Int8.self), 127)
        XCTAssertEqual(try element([0x02, 0x01, 0x80]).integer(as: Int8.self), -128)
        let plus128 = try element([0x02, 0x02, 0x00, 0x80])
        assertDERError(.integerOutOfRange, at: 0) { try plus128.integer(as: Int8.self) }
        XCTAssertEqual(try plus128.integer(as: Int16.self), 128)
        let minus129 = try element([0x02, 0x02, 0xFF, 0x7F])
        assertDERError(.integerOutOfRange, at: 0) { try minus129.integer(as: Int8.self) }
        XCTAssertEqual(try minus129.integer(as: Int16.self), -129)
        XCTAssertEqual(try element([0x02, 0x02, 0x7F, 0xFF]).integer(as: Int16.self), Int16.max)
        XCTAssertEqual(try element([0x02, 0x02, 0x80, 0x00]).integer(as: Int16.self), Int16.min)
        let plus32768 = try element([0x02, 0x03, 0x00, 0x80, 0x00])
        assertDERError(.integerOutOfRange, at: 0) { try plus32768.integer(as: Int16.self) }
        XCTAssertEqual(try plus32768.integer(as: UInt16.self), 32_768)
        let int64MinMinusOne = try element([0x02, 0x09, 0xFF, 0x7F] + [UInt8](repeating: 0xFF, count: 7))
        assertDERError(.integerOutOfRange, at: 0) { try int64MinMinusOne.integer(as: Int64.self) }
    }

    func testInt64ExtremesRoundTrip() throws {
        XCTAssertEqual(minimalInteger(Int64.max), [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(minimalInteger(Int64.min), [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        var values: [Int64] = [
            .min, .min + 1, .max, .max - 1, 0, 1, -1, 127, 128, -128, -129, 255, 256,
            32_767, 32_768, -32_768, -32_769, Int64(Int32.max), Int64(Int32.min),
            Int64(Int32.max) + 1, Int64(Int32.min) - 1,
        ]
        for shift in 0..<63 {
            values.append(1 << shift)
            values.append(-(1 << shift))
            values.append((1 << shift) - 1)
        }
        for value in values {
            let parsed = try element(tlv(0x02, minimalInteger(value)))
            XCTAssertEqual(try parsed.integer(as: Int64.self), value)
            XCTAssertEqual(try parsed.integer(as: Int.self), Int(value))
            if value >= 0 {
                XCTAssertEqual(try parsed.integer(as: UInt64.self), UInt64(value))
            }
            if let narrow = Int32(exactly: value) {
                XCTAssertEqual(try parsed.integer(as: Int32.self), narrow)
            } else {
                assertDERError(.integerOutOfRange, at: 0, "\(value)") { try parsed.integer(as: Int32.self) }
            }
        }
    }

    // MARK: - BIT STRING

    func testBitStringValues() throws {
        // KeyUsage-like: 0x05 unused bits, 0xA0 = bits 0 and 2.
        let keyUsage = try element([0x03, 0x02, 0x05, 0xA0]).bitString()
        XCTAssertEqual(keyUsage.unusedBits, 5)
        XCTAssertEqual(keyUsage.bitCount, 3)
        XCTAssertEqual(Array(keyUsage.bytes), [0xA0])
        XCTAssertTrue(keyUsage.isSet(0))
        XCTAssertFalse(keyUsage.isSet(1))
        XCTAssertTrue(keyUsage.isSet(2))
        XCTAssertFalse(keyUsage.isSet(3), "beyond bitCount")
        XCTAssertFalse(keyUsage.isSet(-1))
        XCTAssertFalse(keyUsage.isSet(100))

        let twoOctets = try element([0x03, 0x03, 0x07, 0x01, 0x80]).bitString()
        XCTAssertEqual(twoOctets.bitCount, 9)
        XCTAssertTrue(twoOctets.isSet(7))
        XCTAssertTrue(twoOctets.isSet(8))
        XCTAssertFalse(twoOctets.isSet(0))
        XCTAssertEqual((0..<9).filter { twoOctets.isSet($0) }, [7, 8])

        let full = try element([0x03, 0x03, 0x00, 0xFF, 0x01]).bitString()
        XCTAssertEqual(full.bitCount, 16)
        XCTAssertEqual((0..<16).filter { full.isSet($0) }, [0, 1, 2, 3, 4, 5, 6, 7, 15])

        let empty = try element([0x03, 0x01, 0x00]).bitString()
        XCTAssertEqual(empty.bitCount, 0)
        XCTAssertTrue(empty.bytes.isEmpty)
        XCTAssertFalse(empty.isSet(0))
    }

    func testBitStringBytesAreAbsoluteSlice() throws {
        let bits = try element([0x03, 0x03, 0x00, 0xAB, 0xCD]).bitString()
        XCTAssertEqual(bits.bytes.startIndex, 3)
        XCTAssertEqual(Array(bits.bytes), [0xAB, 0xCD])
    }

    func testBitStringUnusedBitsAboveSevenIsRejected() throws {
        for unused: UInt8 in [8, 9, 0x80, 0xFF] {
            let parsed = try element([0x03, 0x02, unused, 0x00])
            assertDERError(.invalidBitString, at: 0, "unused \(unused)") { try parsed.bitString() }
        }
    }

    func testBitStringNonZeroPaddingIsRejected() throws {
        let cases: [(UInt8, UInt8)] = [(1, 0x01), (3, 0x04), (7, 0x40), (7, 0x7F), (4, 0x0F), (4, 0x18)]
        for (unused, last) in cases {
            let parsed = try element([0x03, 0x03, unused, 0xFF, last])
            assertDERError(.invalidBitString, at: 0, "unused \(unused) last 0x\(String(last, radix: 16))") {
                try parsed.bitString()
            }
        }
        // The same unused counts with zero padding are fine.
        XCTAssertEqual(try element([0x03, 0x02, 0x04, 0xF0]).bitString().bitCount, 4)
        XCTAssertEqual(try element([0x03, 0x02, 0x07, 0x80]).bitString().bitCount, 1)
    }

    func testEmptyBitStringWithUnusedBitsIsRejected() throws {
        for unused: UInt8 in 1...7 {
            let parsed = try element([0x03, 0x01, unused])
            assertDERError(.invalidBitString, at: 0, "unused \(unused)") { try parsed.bitString() }
        }
        // No unused-bits octet at all.
        let noOctet = try element([0x03, 0x00])
        assertDERError(.invalidBitString, at: 0) { try noOctet.bitString() }
    }

    func testBitStringWithImplicitTagAndOffsets() throws {
        var reader = try element([0x30, 0x06, 0x05, 0x00, 0x81, 0x02, 0x01, 0x01]).children()
        _ = try reader.read(.null)
        let implicit = try reader.read(.context(1, constructed: false))
        assertDERError(.invalidBitString, at: 4) { try implicit.bitString(tag: .context(1, constructed: false)) }
        assertDERError(.unexpectedTag(expected: "BIT STRING", found: "[1]"), at: 4) { try implicit.bitString() }
        let good = try element([0x81, 0x02, 0x01, 0x02]).bitString(tag: .context(1, constructed: false))
        XCTAssertEqual(good.bitCount, 7)
        XCTAssertTrue(good.isSet(6))
    }

    // MARK: - OCTET STRING

    func testOctetString() throws {
        let octets = try element([0x04, 0x03, 0x01, 0x02, 0x03]).octetString()
        XCTAssertEqual(Array(octets), [0x01, 0x02, 0x03])
        XCTAssertEqual(octets.startIndex, 2)
        XCTAssertTrue(try element([0x04, 0x00]).octetString().isEmpty)
        let implicit = try element([0x80, 0x01, 0x7A])
        XCTAssertEqual(Array(try implicit.octetString(tag: .context(0, constructed: false))), [0x7A])
        assertDERError(.unexpectedTag(expected: "OCTET STRING", found: "[0]"), at: 0) { try implicit.octetString() }
    }
}
