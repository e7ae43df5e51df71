import Foundation
import TrustCore
import TrustHTTP
import TrustX509
import XCTest

/// Issue 40 items 3 and 7: a fetching evaluation records why a fetch gave nothing (refused as a
/// local destination, cut short by the deadline), on the certificate's revocation status, and the
/// trust keeps it for the judge's later evaluations.
final class FetchFailureRecordingTests: XCTestCase {
    typealias Kit = RevocationKit

    /// Refuses every request as HTTPRevocationFetcher refuses a URL on a private-use address.
    struct RefusingFetcher: RevocationFetcher {
        static let refusal = RevocationFetchError.localDestinationRefused(host: "10.0.0.5", address: "10.0.0.5", scope: "private-use")
        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { throw Self.refusal }
    }

    /// Never answers, and ignores cancellation (as a thread stuck in getaddrinfo does).
    struct StuckFetcher: RevocationFetcher {
        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
            let end = Date().addingTimeInterval(3)
            while Date() < end { try? await Task.sleep(nanoseconds: 20_000_000) }
            return []
        }
    }

    func testARefusedFetchIsRecordedOnTheStatusAndKeptForLaterEvaluations() async throws {
        let trust = try Kit.trust(Kit.goodLeaf, options: [.crl])
        let evaluation = await trust.evaluate(fetchingWith: RefusingFetcher(), cache: nil)
        XCTAssertTrue(evaluation.isTrusted, "soft fail: \(evaluation)")
        let expected = "unknown: CRL \(Kit.crlURL) not fetched: fetch refused: 10.0.0.5 is a private-use address"
        XCTAssertEqual(Kit.status(evaluation, 0)?.description, expected)
        let status = try XCTUnwrap(evaluation.revocationStatuses.first { $0.index == 0 })
        XCTAssertEqual(status.fetchFailures, [FetchFailure(url: Kit.crlURL, purpose: .crl, reason: RefusingFetcher.refusal)])
        XCTAssertEqual(evaluation.fetchFailures, status.fetchFailures)
        // A TLS judge evaluates the trust again offline after the fetching evaluation: still said.
        XCTAssertEqual(Kit.status(trust.evaluate(), 0)?.description, expected)
        XCTAssertEqual(trust.evaluate().fetchFailures, status.fetchFailures)

        // Hard fail: the failure names the refusal.
        let hard = await (try Kit.trust(Kit.goodLeaf, options: [.crl, .requirePositiveResponse])).evaluate(
            fetchingWith: RefusingFetcher(), cache: nil)
        XCTAssertFalse(hard.isTrusted)
        XCTAssertTrue(Kit.firstFailure(hard).contains("fetch refused: 10.0.0.5 is a private-use address"), Kit.firstFailure(hard))
    }

    /// A fetcher of the caller's own, throwing the caller's own error.
    struct FailingFetcher: RevocationFetcher {
        struct Outage: Error, Hashable { let code: Int }
        let code: Int
        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { throw Outage(code: code) }
    }

    /// Serves the same bytes for every URL.
    struct ServingFetcher: RevocationFetcher {
        let bytes: [UInt8]
        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { bytes }
    }

    func testAFetchersOwnErrorIsKeptWholeNotAsText() async throws {
        let trust = try Kit.trust(Kit.goodLeaf, options: [.crl])
        let evaluation = await trust.evaluate(fetchingWith: FailingFetcher(code: 7), cache: nil)
        let reasons = evaluation.fetchFailures.map(\.reason)
        XCTAssertEqual(reasons, [.fetcherError(ComparableError(FailingFetcher.Outage(code: 7)))])
        XCTAssertNotEqual(reasons, [.fetcherError(ComparableError(FailingFetcher.Outage(code: 8)))], "compared by value")
        guard case let .fetcherError(underlying)? = reasons.first else { return XCTFail("\(reasons)") }
        XCTAssertEqual(underlying.error as? FailingFetcher.Outage, FailingFetcher.Outage(code: 7), "the caller's error comes back")
        XCTAssertEqual(
            Kit.status(evaluation, 0)?.description,
            "unknown: CRL \(Kit.crlURL) not fetched: fetch failed: \(FailingFetcher.Outage(code: 7))")
    }

    func testWhatAURLServedThatIsNotTheDocumentIsUnreadableWithTheParseError() async throws {
        let trust = try Kit.trust(Kit.goodLeaf, options: [.crl])
        let evaluation = await trust.evaluate(fetchingWith: ServingFetcher(bytes: Array("<html>".utf8)), cache: nil)
        XCTAssertEqual(evaluation.fetchFailures.map(\.purpose), [.crl])
        guard case let .unreadable(error)? = evaluation.fetchFailures.first?.reason else {
            return XCTFail("\(evaluation.fetchFailures)")
        }
        XCTAssertThrowsError(try CertificateRevocationList.loadAll(from: Array("<html>".utf8))) {
            XCTAssertEqual($0 as? X509Error, error, "the CRL reader's own error")
        }
        XCTAssertEqual(
            Kit.status(evaluation, 0)?.description, "unknown: CRL \(Kit.crlURL) not fetched: unreadable: \(error)")
    }

    func testAFetchCutShortByTheDeadlineIsRecorded() async throws {
        let trust = try Kit.trust(Kit.goodLeaf, options: [.crl])
        let started = Date()
        let evaluation = await trust.evaluate(fetchingWith: StuckFetcher(), cache: nil, within: .milliseconds(300))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertTrue(evaluation.isTrusted, "soft fail: \(evaluation)")
        XCTAssertEqual(
            Kit.status(evaluation, 0)?.description,
            "unknown: CRL \(Kit.crlURL) not fetched: deadline reached (the evaluation's fetch deadline passed)")
        XCTAssertEqual(evaluation.fetchFailures.map(\.reason), [.deadlineReached])
    }
}
