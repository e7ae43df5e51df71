import TrustTestSupport
import XCTest
@testable import TrustDER

/// Error messages a person fixing a certificate reads (issue 18): truncation says what the element
/// needed and where the bytes ended, trailing bytes inside an element are not blamed on the outermost
/// element, and quoted values are capped.
final class DERErrorMessageTests: XCTestCase {
    func testTruncatedInputSaysWhereTheInputEndsAndWhatTheElementNeeds() throws {
        let der = try TestCertificates.bytes("malformed/truncated.der")
        let leaf = try TestCertificates.bytes("ecdsa/leaf.der")
        do {
            _ = try walkSingle(der)
            XCTFail("a truncated certificate parsed")
        } catch let error as DERError {
            // The outer SEQUENCE's long-form header is 4 bytes; its content is the rest of the whole leaf.
            XCTAssertEqual(error.offset, 4)
            XCTAssertEqual(error.truncation, DERError.Truncation(neededLength: leaf.count - 4, availableEnd: der.count, endIsEnclosingElement: false))
            XCTAssertEqual(
                error.description,
                "truncated element (length runs past the end of the input): element at byte 4 needs \(leaf.count - 4) bytes, input ends at byte \(der.count)"
            )
        }
    }

    func testTruncatedInnerElementNamesTheEnclosingElementsEnd() throws {
        // SEQUENCE of 3 bytes holding an OCTET STRING that claims 5.
        let outer = try element([0x30, 0x03, 0x04, 0x05, 0x01])
        var children = try outer.children()
        do {
            _ = try children.next()
            XCTFail("a truncated inner element parsed")
        } catch {
            XCTAssertEqual(error.rule, .truncated)
            XCTAssertEqual(error.offset, 4)
            XCTAssertEqual(error.truncation, DERError.Truncation(neededLength: 5, availableEnd: 5, endIsEnclosingElement: true))
            XCTAssertTrue(error.description.hasSuffix("element at byte 4 needs 5 bytes, enclosing element ends at byte 5"), error.description)
        }
    }

    func testCutOffLengthOctetsAreALowerBound() {
        do {
            _ = try element([0x04, 0x82, 0x01])
            XCTFail("cut-off length octets parsed")
        } catch let error as DERError {
            XCTAssertEqual(error.truncation?.isLowerBound, true)
            XCTAssertTrue(error.description.hasSuffix("element at byte 1 needs at least 3 bytes, input ends at byte 3"), error.description)
        } catch { XCTFail("\(error)") }
    }

    func testTrailingBytesInsideAnInnerElementNameThatElement() throws {
        // SEQUENCE (at byte 2 of the outer one) holding a NULL and two stray bytes.
        let bytes: [UInt8] = [0x30, 0x06, 0x30, 0x04, 0x05, 0x00, 0xAA, 0xBB]
        let outer = try DERReader.parseSingle(bytes)
        var outerChildren = try outer.children()
        let inner = try outerChildren.readAny()
        var innerChildren = try inner.children()
        _ = try innerChildren.read(.null)
        assertDERError(.trailingBytesInElement(elementOffset: 2), at: 6) { try innerChildren.finish() }
        do { try innerChildren.finish() } catch {
            XCTAssertEqual(error.description, "unexpected bytes after the last field of the element at byte 2 at byte 6")
            XCTAssertFalse(error.description.contains("outermost"))
        }
        // Bytes after the outermost element keep their own rule.
        assertDERError(.trailingBytes, at: 8) { try DERReader.parseSingle(bytes + [0x00]) }
    }

    func testQuotedObjectIdentifierIsCapped() throws {
        // 1.2 followed by 100,000 arcs of 1: the dotted form alone is about 200 KB.
        let content: [UInt8] = [0x2A] + Array(repeating: 0x01, count: 100_000)
        let oid = try ASN1ObjectIdentifier(validating: content[...])
        XCTAssertGreaterThan(oid.dotted.count, 200_000)
        let quoted = QuotedValue.capped(oid)
        XCTAssertLessThanOrEqual(quoted.count, QuotedValue.maximumCharacters + 40)
        XCTAssertTrue(quoted.hasPrefix("1.2.1.1."))
        XCTAssertTrue(quoted.hasSuffix("… (100002 arcs)"), quoted)
    }

    func testQuotedTextInDERErrorsIsCapped() {
        let huge = String(repeating: "X", count: 300_000)
        let error = DERError(.unexpectedContent(huge), at: 7)
        XCTAssertLessThan(error.description.count, 400)
        XCTAssertTrue(error.description.hasSuffix("… (300000 characters) at byte 7"), String(error.description.suffix(60)))
        let tag = DERError(.unexpectedTag(expected: huge, found: "INTEGER"), at: 0)
        XCTAssertLessThan(tag.description.count, 400)
    }
}

/// PEM errors quote labels from the input; a hostile label must not become a huge line.
final class PEMErrorMessageTests: XCTestCase {
    func testLongLabelIsCappedInPEMErrors() {
        let label = String(repeating: "A", count: 100_000)
        let text = "-----BEGIN \(label)-----\nAAAA\n"
        do {
            _ = try PEM.decode(text)
            XCTFail("an unterminated block decoded")
        } catch {
            XCTAssertEqual(error, .unterminatedBlock(label: label, line: 1))
            XCTAssertLessThan(error.description.count, 400)
            XCTAssertTrue(error.description.contains("… (100000 characters)"), String(error.description.suffix(80)))
        }
    }
}

/// An END line whose BEGIN line was damaged is reported at the damaged BEGIN line.
final class PEMDamagedBeginTests: XCTestCase {
    private let body = "MAMCAQE=\n"

    func testEndAfterADamagedBeginIsReportedAtTheBeginLine() {
        for damaged in ["----BEGIN CERTIFICATE-----", "-----BEGlN CERTIFICATE-----", "BEGIN CERTIFICATE-----"] {
            let text = "explanatory text\n\(damaged)\n\(body)-----END CERTIFICATE-----\n"
            assertPEMError(.malformedMarker(line: 2)) { try PEM.decode(text) }
            XCTAssertEqual(PEM.decodeEach(text).count, 1, damaged)
        }
    }

    func testMalformedBeginIsReportedOnceNotAgainAtItsEnd() {
        let text = "-----BEGIN certificate-----\n\(body)-----END CERTIFICATE-----\n"
        let results = PEM.decodeEach(text)
        XCTAssertEqual(results.count, 1)
        if case let .failure(error)? = results.first { XCTAssertEqual(error, .malformedMarker(line: 1)) } else { XCTFail("\(results)") }
    }

    func testStrayEndWithoutAnyBeginIsStillReportedAtTheEnd() {
        assertPEMError(.malformedMarker(line: 2)) { try PEM.decode("plain text\n-----END CERTIFICATE-----\n") }
    }
}
