import TrustDER
import XCTest

/// OBJECT IDENTIFIER validation, arcs and dotted text (X.690 §8.19).
final class ObjectIdentifierTests: XCTestCase {
    func testDecodesSHA256WithRSA() throws {
        let der: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
        let oid = try element(der).objectIdentifier()
        XCTAssertEqual(oid.dotted, "1.2.840.113549.1.1.11")
        XCTAssertEqual(oid.description, "1.2.840.113549.1.1.11")
        XCTAssertEqual(oid.arcs, [1, 2, 840, 113_549, 1, 1, 11])
        XCTAssertEqual(Array(oid.bytes), Array(der[2...]))
        XCTAssertEqual(oid, "1.2.840.113549.1.1.11")
    }

    func testKnownEncodings() {
        let cases: [(String, [UInt8])] = [
            ("1.2.840.113549.1.1.11", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]),
            ("2.5.29.19", [0x55, 0x1D, 0x13]),
            ("2.999.3", [0x88, 0x37, 0x03]),
            ("0.0", [0x00]),
            ("0.39", [0x27]),
            ("1.0", [0x28]),
            ("1.39", [0x4F]),
            ("2.0", [0x50]),
            ("2.47", [0x7F]),
            ("2.48", [0x81, 0x00]),
            ("1.2.840.10045.4.3.2", [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]),
            ("1.3.6.1.4.1.311.60.2.1.3", [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x03]),
            ("1.2.18446744073709551615", [0x2A, 0x81] + [UInt8](repeating: 0xFF, count: 8) + [0x7F]),
        ]
        for (dotted, expected) in cases {
            guard let oid = ASN1ObjectIdentifier(dotted: dotted) else {
                XCTFail("\(dotted) should be valid")
                continue
            }
            XCTAssertEqual(Array(oid.bytes), expected, dotted)
            XCTAssertEqual(oid.dotted, dotted)
        }
    }

    func testDottedRoundTripThroughDER() throws {
        let texts = [
            "1.2.840.113549.1.1.11", "2.5.29.19", "2.999.3", "0.9.2342.19200300.100.1.25",
            "2.5.4.3", "1.3.6.1.5.5.7.3.1", "2.18446744073709551535", "1.2.18446744073709551615",
            "1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20",
        ]
        for text in texts {
            let encoded = try XCTUnwrap(ASN1ObjectIdentifier(dotted: text), text)
            let der = tlv(0x06, Array(encoded.bytes))
            let decoded = try element(der).objectIdentifier()
            XCTAssertEqual(decoded.dotted, text)
            XCTAssertEqual(decoded, encoded)
            XCTAssertEqual(decoded.hashValue, encoded.hashValue)
            XCTAssertEqual(ASN1ObjectIdentifier(stringLiteral: text), decoded)
        }
        XCTAssertEqual(try XCTUnwrap(ASN1ObjectIdentifier(dotted: "2.999.3")).arcs, [2, 999, 3])
        XCTAssertEqual(
            try XCTUnwrap(ASN1ObjectIdentifier(dotted: "2.18446744073709551535")).arcs,
            [2, UInt64.max - 80])
    }

    func testInvalidDottedTextIsRejected() {
        for text in [
            "", "1", "3.1", "1.40", "0.40", "1..2", "1.2.", ".1.2", "a.b", "1.2.x", "1.-2", "1.+2",
            "1.2.18446744073709551616", "2.18446744073709551536", " 1.2", "1.2 ", "١.٢",
        ] {
            XCTAssertNil(ASN1ObjectIdentifier(dotted: text), "'\(text)' should be invalid")
        }
        // The literal initializer yields an empty OID for invalid text.
        let invalid: ASN1ObjectIdentifier = "not an oid"
        XCTAssertTrue(invalid.bytes.isEmpty)
        XCTAssertNotEqual(invalid, "2.5.29.19")
    }

    func testEqualityAndHashingAreByContent() throws {
        let parsed = try element([0x06, 0x03, 0x55, 0x1D, 0x13]).objectIdentifier()
        let literal: ASN1ObjectIdentifier = "2.5.29.19"
        XCTAssertEqual(parsed, literal)
        XCTAssertNotEqual(parsed, "2.5.29.15")
        XCTAssertNotEqual(parsed, "2.5.29.19.0")
        let set: Set<ASN1ObjectIdentifier> = ["2.5.29.19", "2.5.29.15", "2.5.29.17"]
        XCTAssertTrue(set.contains(parsed))
        XCTAssertFalse(set.contains("2.5.29.37"))
    }

    func testNonMinimalArcIsRejected() throws {
        // First arc starts with 0x80; refused where it is read, before it is decoded.
        assertDERError(.invalidObjectIdentifier, at: 0) { try element([0x06, 0x02, 0x80, 0x01]).objectIdentifier() }
        // A later arc starts with 0x80: 1.2 then 0x80 0x01.
        assertDERError(.invalidObjectIdentifier, at: 0) { try element([0x06, 0x04, 0x2A, 0x80, 0x80, 0x01]).objectIdentifier() }
        // Refused where it is read, before it is decoded.
        assertDERError(.invalidObjectIdentifier, at: 0) { try element([0x06, 0x03, 0x2A, 0x80, 0x7F]).objectIdentifier() }
        // 0x80 in the middle of an arc is fine (e.g. 2.48 → 0x81 0x00, 128 → 0x81 0x00).
        XCTAssertEqual(try element([0x06, 0x03, 0x2A, 0x81, 0x00]).objectIdentifier().arcs, [1, 2, 128])
        XCTAssertEqual(try element([0x06, 0x04, 0x2A, 0x81, 0x80, 0x00]).objectIdentifier().arcs, [1, 2, 16_384])
    }

    func testArcOverflowingUInt64IsRejected() throws {
        // 2^64 - 1 fits.
        let maxArc = try element([0x06, 0x0B, 0x2A, 0x81] + [UInt8](repeating: 0xFF, count: 8) + [0x7F])
        XCTAssertEqual(try maxArc.objectIdentifier().arcs.last, UInt64.max)
        // 2^65 - 1 does not.
        // Refused where it is read, before it is decoded.
        assertDERError(.invalidObjectIdentifier, at: 0) {
            try element([0x06, 0x0B, 0x2A, 0x82] + [UInt8](repeating: 0xFF, count: 8) + [0x7F]).objectIdentifier()
        }
        // 2^64 does not (0x82 0x80… 0x00).
        // Refused where it is read, before it is decoded.
        assertDERError(.invalidObjectIdentifier, at: 0) {
            try element([0x06, 0x0B, 0x2A, 0x82] + [UInt8](repeating: 0x80, count: 8) + [0x00]).objectIdentifier()
        }
        // Eleven-octet arc.
        // Refused where it is read, before it is decoded.
        assertDERError(.invalidObjectIdentifier, at: 0) {
            try element([0x06, 0x0C, 0x2A] + [UInt8](repeating: 0x81, count: 10) + [0x01]).objectIdentifier()
        }
        // Overflow in the first (combined) subidentifier.
        // Refused where it is read, before it is decoded.
        assertDERError(.invalidObjectIdentifier, at: 0) {
            try element([0x06, 0x0A, 0x82] + [UInt8](repeating: 0xFF, count: 8) + [0x7F]).objectIdentifier()
        }
    }

    func testTruncatedFinalArcIsRejected() throws {
        for content: [UInt8] in [[0x2A, 0x86], [0x2A, 0x86, 0x48, 0x86, 0xF7], [0x81], [0xFF]] {
            // Refused where it is read, before it is decoded.
            assertDERError(.invalidObjectIdentifier, at: 0, "\(content)") { try element(tlv(0x06, content)).objectIdentifier() }
        }
    }

    func testARangeOutsideTheBytesIsAnErrorNotATrap() {
        let bytes: [UInt8] = [0xFF, 0x2A, 0x03]
        let slice = bytes[1...]
        XCTAssertNoThrow(try ASN1ObjectIdentifier.validate(slice, range: 1..<3, at: 1))
        assertDERError(.invalidObjectIdentifier, at: 1) { try ASN1ObjectIdentifier.validate(slice, range: 0..<3, at: 1) }
        assertDERError(.invalidObjectIdentifier, at: 1) { try ASN1ObjectIdentifier.validate(slice, range: 2..<4, at: 1) }
    }

    func testEmptyOIDIsRejected() throws {
        // Refused where it is read, before it is decoded.
        assertDERError(.invalidObjectIdentifier, at: 0) { try element([0x06, 0x00]).objectIdentifier() }
        assertDERError(.invalidObjectIdentifier, at: 0) { try ASN1ObjectIdentifier(validating: [][...]) }
    }

    func testErrorOffsets() throws {
        // The element's absolute offset.
        var reader = try element([0x30, 0x06, 0x05, 0x00, 0x06, 0x02, 0x2A, 0x86]).children()
        _ = try reader.read(.null)
        assertDERError(.invalidObjectIdentifier, at: 4) { try reader.read(.objectIdentifier) }
        // The caller-supplied offset for direct validation.
        assertDERError(.invalidObjectIdentifier, at: 7) { try ASN1ObjectIdentifier(validating: [0x80, 0x01][...], at: 7) }
        XCTAssertEqual(try ASN1ObjectIdentifier(validating: [0x55, 0x04, 0x03][...]).dotted, "2.5.4.3")
    }

    func testRequiresObjectIdentifierTag() throws {
        let relative = try element([0x0D, 0x01, 0x01])
        assertDERError(.unexpectedTag(expected: "OBJECT IDENTIFIER", found: "UNIVERSAL 13"), at: 0) {
            try relative.objectIdentifier()
        }
    }
}
