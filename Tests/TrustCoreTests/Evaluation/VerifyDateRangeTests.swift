import Foundation
import TrustCore
@testable import TrustDiagnostics
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// A caller's verify date may be any `Date`, including ones no X.509 time can express: such a date
/// is a rejection with its own reason, in evaluation, revocation fetching and diagnostics — never a trap
/// (`Int64(Double)` traps on NaN, infinities and magnitudes of 2⁶³ or more).
final class VerifyDateRangeTests: XCTestCase {
    /// Not finite, beyond Int64, and finite but past year 9999.
    private static let unrepresentable: [Double] = [.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e18, 253_402_300_800]

    func testEvaluationRejectsUnrepresentableVerifyDatesWithItsOwnReason() throws {
        for seconds in Self.unrepresentable {
            let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
            trust.verifyDate = Date(timeIntervalSince1970: seconds)
            let evaluation = trust.evaluate()
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["-:verifyDateOutOfRange"])
            XCTAssertTrue(evaluation.failures.first?.description.contains("not a time X.509 can express") ?? false,
                          "\(seconds): \(evaluation.failures)")
            XCTAssertThrowsError(try trust.evaluateWithError(), "\(seconds)")
        }
    }

    func testTheSameChainIsTrustedAtTheLastRepresentableSecond() throws {
        // The boundary is the year 9999, not some smaller cut-off: the chain is rejected only for
        // expiry there, not for the date.
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.verifyDate = Date(timeIntervalSince1970: 253_402_300_799.5)
        XCTAssertFalse(trust.evaluate().failures.contains { caseName($0.reason) == "verifyDateOutOfRange" })
        XCTAssertTrue(trust.evaluate().failures.contains { caseName($0.reason) == "expired" })
    }

    func testRevocationFetchingWithAnUnrepresentableDateFailsWithoutFetching() async throws {
        for seconds in Self.unrepresentable {
            let trust = try TestCertificates.trust(["ecdsa/chain.pem"], policies: [.ssl(server: true, hostname: TestCertificates.host), .revocation([])])
            trust.verifyDate = Date(timeIntervalSince1970: seconds)
            let fetcher = RefusingFetcher()
            let evaluation = await trust.evaluate(fetchingWith: fetcher)
            XCTAssertEqual(failureSummary(evaluation), ["-:verifyDateOutOfRange"], "\(seconds)")
        }
    }

    func testDiagnosticsOfAnUnrepresentableDateReportTheReason() throws {
        for seconds in Self.unrepresentable {
            let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
            let date = Date(timeIntervalSince1970: seconds)
            trust.verifyDate = date
            let diagnostics = ChainDiagnostics(trust: trust, host: TestCertificates.host, verifyDate: date)
            XCTAssertFalse(diagnostics.trusted)
            XCTAssertEqual(diagnostics.verifyDate, "", "no ISO 8601 text for a date that has none")
            XCTAssertTrue(diagnostics.failures.contains { $0.contains("not a time X.509 can express") }, "\(diagnostics.failures)")
            XCTAssertTrue(diagnostics.text(style: .plain).contains("not a time X.509 can express"))
        }
    }
}

/// A fetcher that must not be asked: the evaluation fails before any revocation work.
private struct RefusingFetcher: RevocationFetcher {
    struct Refused: Error {}
    func fetchCRL(from url: String) async throws -> [UInt8] {
        XCTFail("fetched \(url)")
        throw Refused()
    }
    func fetchOCSPResponse(from url: String, request: [UInt8]) async throws -> [UInt8] {
        XCTFail("fetched \(url)")
        throw Refused()
    }
}
