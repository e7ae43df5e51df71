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
    /// Not finite, beyond Int64, and finite but past year 65535 (`DERTime.maximumYear`).
    private static let unrepresentable: [Double] = [.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e18, 2_005_949_145_600]

    func testEvaluationRejectsUnrepresentableVerifyDatesWithItsOwnReason() throws {
        for seconds in Self.unrepresentable {
            let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
            trust.verifyDate = Date(timeIntervalSince1970: seconds)
            let evaluation = trust.evaluate()
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["-:verifyDateOutOfRange"])
            XCTAssertTrue(
                evaluation.failures.first?.description.contains("not a time X.509 can express") ?? false,
                "\(seconds): \(evaluation.failures)")
            XCTAssertThrowsError(try trust.evaluateWithError(), "\(seconds)")
        }
    }

    func testTheSameChainIsTrustedAtTheLastRepresentableSecond() throws {
        // The boundary is the year 65535, not some smaller cut-off: the chain is rejected only for
        // expiry there, not for the date.
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.verifyDate = Date(timeIntervalSince1970: 2_005_949_145_599.5)
        XCTAssertFalse(trust.evaluate().failures.contains { caseName($0.reason) == "verifyDateOutOfRange" })
        XCTAssertTrue(trust.evaluate().failures.contains { caseName($0.reason) == "expired" })
    }

    // MARK: - Past 9999 (issue 43 item 4)

    /// 12 January 10000, the instant of Apple's VerifyDateTests `testAfterNotAfter`
    /// (CFAbsoluteTime 252425000000, tests/TrustTests/EvaluationTests/VerifyDateTests.m).
    private static let january12Of10000 = Date(timeIntervalSinceReferenceDate: 252_425_000_000)

    func testAChainPast9999IsExpiredNamingEachCertificate() throws {
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.verifyDate = Self.january12Of10000
        let evaluation = trust.evaluate()
        // Every certificate has expired by then, the anchor too (Apple's SSL policy checks an
        // anchor's validity: ProfileRule.anchorValidity), each failure naming its certificate.
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:expired", "1:expired", "2:expired"])
        XCTAssertEqual(evaluation.chain.count, 3)
        XCTAssertEqual(evaluation.failures.map(\.subject), evaluation.chain.map(\.subject.description))
        XCTAssertEqual(evaluation.failures.map(\.reason), evaluation.chain.map { .expired(notAfter: $0.notAfter) })
    }

    /// A certificate whose notAfter is 99991231235959Z, RFC 5280 §4.1.2.5's "no well-defined
    /// expiration date", is valid until that second and expired after it: Apple's trustd compares
    /// the instants (`SecCertificateIsValid`, SecCertificate.c: `verifyTime <= _notAfter`, the
    /// notAfter decoded as any other time by `SecAbsoluteTimeFromDateContentWithError`), with no
    /// special case for 9999 (only Apple's own anchors skip expiry, `_ShouldSkipExpirationCheck`,
    /// SecPolicyServer.c), and its VerifyDateTests expect success on 1 October 9999 and failure on
    /// 12 January 10000 for a chain ending 31 December 9999.
    func testNotAfter9999IsValidUntilThenAndExpiredAfter() throws {
        let leaf = try TestCertificates.certificate("policy-options/far-future-leaf.pem")
        XCTAssertEqual(leaf.notAfter.description, "9999-12-31T23:59:59Z")
        // Apple's test evaluates under the default policy, BasicX509 (the SSL policy would refuse a
        // leaf valid for eight thousand years for its lifetime alone).
        let trust = try TestCertificates.trust(
            ["policy-options/far-future-leaf.pem"], anchors: ["policy-options/far-future-root.pem"],
            policies: [.basicX509])
        trust.verifyDate = Date(timeIntervalSinceReferenceDate: 252_416_070_000) // 1 October 9999, Apple's testFarFutureWithinValidity
        assertTrusted(trust.evaluate())
        trust.verifyDate = Date(timeIntervalSince1970: 253_402_300_799) // 9999-12-31T23:59:59Z: notAfter is inclusive
        assertTrusted(trust.evaluate())

        trust.verifyDate = ISO8601DateFormatter().date(from: "9999-12-31T23:59:59Z").map { $0.addingTimeInterval(86_401) }
        let evaluation = trust.evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:expired", "1:expired"])
        XCTAssertEqual(evaluation.failures.first?.subject, leaf.subject.description)
        guard case let .expired(notAfter)? = evaluation.failures.first?.reason else { return XCTFail("\(evaluation.failures)") }
        XCTAssertEqual(notAfter, leaf.notAfter)

        // The explanation of the chain at that instant writes the year past 9999 in ISO 8601's
        // expanded form, in text and JSON alike, and reports the same expiry.
        let diagnostics = ChainDiagnostics(trust: trust, host: TestCertificates.host, verifyDate: Date(timeIntervalSince1970: 253_402_387_200))
        XCTAssertEqual(diagnostics.verifyDate, "+10000-01-02T00:00:00Z")
        XCTAssertFalse(diagnostics.trusted)
        XCTAssertTrue(diagnostics.text(style: .plain).contains("expired"), diagnostics.text(style: .plain))
        let json = String(decoding: try JSONEncoder().encode(diagnostics), as: UTF8.self)
        XCTAssertTrue(json.contains("+10000-01-02T00:00:00Z"), json)
    }

    func testRevocationFetchingWithAnUnrepresentableDateFailsWithoutFetching() async throws {
        for seconds in Self.unrepresentable {
            let trust = try TestCertificates.trust(
                ["ecdsa/chain.pem"], policies: [.ssl(server: true, hostname: TestCertificates.host), .revocation([])])
            trust.verifyDate = Date(timeIntervalSince1970: seconds)
            let fetcher = RefusingFetcher()
            let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
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
    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        XCTFail("fetched \(request)")
        throw Refused()
    }
}
