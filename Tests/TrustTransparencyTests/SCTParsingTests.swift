import Foundation
import TrustTransparency
import TrustX509
import XCTest

/// SCTs read from the three sources (RFC 6962 §3.2, §3.3), and the bytes that are not SCTs.
final class SCTParsingTests: XCTestCase {
    func testEmbeddedSCTsKeepTheirSourceLogAndTime() throws {
        let timestamps = try CTFixtures.embedded("main")
        XCTAssertEqual(timestamps.count, 6)
        for (k, presented) in timestamps.enumerated() {
            XCTAssertEqual(presented.source, .embedded)
            let sct = try presented.timestamp.get()
            XCTAssertEqual(sct.logID, try CTFixtures.log(k).id)
            let expected = UInt64(CTFixtures.t0.timeIntervalSince1970) * 1000 + UInt64(10_000 * (k + 1) + (k == 1 ? 500 : 0))
            XCTAssertEqual(sct.timestamp, expected)
            XCTAssertEqual(sct.hashAlgorithm, 4)
            XCTAssertEqual(sct.signatureAlgorithm, k == 5 ? 1 : 3)
            XCTAssertEqual(sct.encoded, presented.encoded)
        }
    }

    func testALeafWithoutTheExtensionHasNoEmbeddedSCTs() throws {
        XCTAssertEqual(try SCTList.embedded(in: try CTFixtures.leaf("plain")), [])
    }

    func testTLSAndOCSPSCTsKeepTheirSource() throws {
        let tls = try CTFixtures.tls("main")
        XCTAssertEqual(tls.map(\.source), [.tlsExtension, .tlsExtension])
        let ocsp = try CTFixtures.ocsp("main", leaf: "main")
        XCTAssertEqual(ocsp.map(\.source), [.ocspResponse])
        XCTAssertEqual(try ocsp[0].timestamp.get().logID, try CTFixtures.log(2).id)
    }

    func testOCSPSingleResponseKeepsItsExtensions() throws {
        let response = try OCSPResponse(derEncoded: try CTFixtures.bytes("ocsp/main.der"))
        XCTAssertEqual(response.responses.first?.extensions.map(\.oid), [OID.ocspSCTList])
        // A response for another certificate yields none.
        XCTAssertEqual(try SCTList.delivered(in: response, leaf: try CTFixtures.leaf("plain"), issuer: try CTFixtures.ca()), [])
    }

    func testAVersionOtherThanV1IsInvalid() throws {
        var bytes = try CTFixtures.embedded("main")[0].encoded
        bytes[0] = 1
        XCTAssertEqual(PresentedTimestamp(encoded: bytes, source: .tlsExtension).timestamp, .failure(.unsupportedVersion(1)))
    }

    func testTrailingBytesAreInvalid() throws {
        let bytes = try CTFixtures.embedded("main")[0].encoded + [0]
        XCTAssertEqual(PresentedTimestamp(encoded: bytes, source: .tlsExtension).timestamp, .failure(.trailingBytes(1)))
    }

    func testATruncatedSCTIsInvalid() throws {
        let bytes = Array(try CTFixtures.embedded("main")[0].encoded.prefix(40))
        XCTAssertEqual(PresentedTimestamp(encoded: bytes, source: .tlsExtension).timestamp, .failure(.truncated(field: "timestamp", offset: 33)))
        let cut = Array(try CTFixtures.embedded("main")[0].encoded.dropLast())
        XCTAssertEqual(PresentedTimestamp(encoded: cut, source: .tlsExtension).timestamp, .failure(.truncated(field: "signature", offset: 47)))
    }

    func testListFramingErrorsRefuseTheList() throws {
        XCTAssertThrowsError(try SCTList.tlsExtension([0, 0])) { XCTAssertEqual($0 as? SCTParseError, .emptyList) }
        XCTAssertThrowsError(try SCTList.tlsExtension([0, 3, 0, 1])) {
            XCTAssertEqual($0 as? SCTParseError, .listLengthMismatch(declared: 3, actual: 2))
        }
        XCTAssertThrowsError(try SCTList.tlsExtension([0, 2, 0, 5])) {
            XCTAssertEqual($0 as? SCTParseError, .truncated(field: "SerializedSCT", offset: 4))
        }
        XCTAssertThrowsError(try SCTList.tlsExtension([0])) {
            XCTAssertEqual($0 as? SCTParseError, .truncated(field: "list length", offset: 0))
        }
    }

    func testAnSCTInsideAWellFramedListThatDoesNotParseIsKeptWithItsReason() throws {
        let timestamps = try SCTList.tlsExtension([0, 3, 0, 1, 7])
        XCTAssertEqual(timestamps.count, 1)
        XCTAssertEqual(timestamps[0].timestamp, .failure(.unsupportedVersion(7)))
    }

    func testRejectionsSayWhy() {
        XCTAssertEqual(SCTParseError.unsupportedVersion(1).description, "version 2 (only v1 is verified)")
        XCTAssertEqual(SCTRejection.malformed(.trailingBytes(2)).description, "malformed SCT: 2 bytes after the signature")
        XCTAssertTrue(SCTRejection.notEmbedded.description.contains("embedded SCTs only"))
    }
}
