import NIOCore
import TrustCore
import TrustNIO
import XCTest

/// `PinReportUploadError`'s synthesized `==`: equal when the case and every value are; an underlying
/// error compared by value (or by type when it cannot be compared), never by text.
final class PinReportUploadErrorEqualityTests: XCTestCase {
    private struct Opaque: Error { let text: String }

    func testEqualValuesAreEqualAndHashAlike() {
        let pairs: [(PinReportUploadError, PinReportUploadError)] = [
            (.unsupportedScheme(nil), .unsupportedScheme(nil)),
            (.unsupportedScheme("ftp"), .unsupportedScheme("ftp")),
            (.invalidURI(.noHost), .invalidURI(.noHost)),
            (.tooManyUploadsInFlight(limit: 4), .tooManyUploadsInFlight(limit: 4)),
            (
                .localAddressNotAllowed(address: "127.0.0.1", scope: "loopback"),
                .localAddressNotAllowed(address: "127.0.0.1", scope: "loopback")
            ),
            (.reportEncodingFailed(ComparableError(Opaque(text: "x"))), .reportEncodingFailed(ComparableError(Opaque(text: "y")))),
            (.collectorNotTrusted(.noPeerCertificates), .collectorNotTrusted(.noPeerCertificates)),
            (.connectionFailed(ComparableError(ChannelError.eof)), .connectionFailed(ComparableError(ChannelError.eof))),
            (.timedOut, .timedOut),
        ]
        for (one, other) in pairs {
            XCTAssertEqual(one, other)
            XCTAssertEqual(one.hashValue, other.hashValue, "\(one)")
        }
    }

    func testDifferingPayloadsAndCasesAreNotEqual() {
        let distinct: [PinReportUploadError] = [
            .unsupportedScheme(nil), .unsupportedScheme("ftp"), .unsupportedScheme("gopher"),
            .invalidURI(.noHost), .invalidURI(.credentials),
            .tooManyUploadsInFlight(limit: 4), .tooManyUploadsInFlight(limit: 5),
            .shutDown, .plainHTTPNotAllowed,
            .localAddressNotAllowed(address: "127.0.0.1", scope: "loopback"),
            .localAddressNotAllowed(address: "10.0.0.1", scope: "loopback"),
            .localAddressNotAllowed(address: "127.0.0.1", scope: "private-use"),
            .reportEncodingFailed(ComparableError(Opaque(text: "x"))),
            .unsupportedEventLoopGroup, .connectTimedOut, .timedOut,
            .collectorNotTrusted(.noPeerCertificates),
            .collectorNotTrusted(.protectionSpaceRejected(host: "a.test")),
            .connectionFailed(ComparableError(ChannelError.eof)),
            .connectionFailed(ComparableError(ChannelError.ioOnClosedChannel)),
            .connectionFailed(ComparableError(Opaque(text: "x"))),
            .closedBeforeResponse, .malformedResponse,
        ]
        XCTAssertEqual(Set(distinct).count, distinct.count)
        for (index, one) in distinct.enumerated() {
            for other in distinct[(index + 1)...] { XCTAssertNotEqual(one, other) }
        }
    }
}
