import MetricsTestKit
import Synchronization
import TrustCore
import TrustNIO
import TrustSession
import XCTest

/// `TLSTrustMetrics.meteredFetcher(_:)` around a stub fetcher: each kind counted by result, its
/// local-address variant used and counted, a base that fetches no issuers not counted; a verifier's
/// metering leaves the settings' cache as it is.
final class MeteredRevocationFetcherTests: XCTestCase {
    private func fetches(_ recorded: TestMetrics, _ kind: String, _ result: String) -> Int64 {
        recorded.counterTotal(label: TLSTrustMetrics.fetchesLabel, dimensions: [("kind", kind), ("result", result)])
    }

    func testEachKindIsCountedByResult() async throws {
        let recorded = TestMetrics()
        let fetcher = TLSTrustMetrics(factory: recorded).meteredFetcher(StubFetcher(failing: false))
        _ = try await fetcher.fetchCRL(from: "http://crl.test/a.crl")
        _ = try await fetcher.fetchCRL(from: "http://crl.test/b.crl")
        _ = try await fetcher.fetchOCSPResponse(from: "http://ocsp.test", request: [0x30, 0x00])
        _ = try await fetcher.fetchIssuerCertificates(from: "http://ca.test/issuer.der")
        XCTAssertEqual(fetches(recorded, "crl", "ok"), 2)
        XCTAssertEqual(fetches(recorded, "ocsp", "ok"), 1)
        XCTAssertEqual(fetches(recorded, "ca_issuers", "ok"), 1)

        let failing = TLSTrustMetrics(factory: recorded).meteredFetcher(StubFetcher(failing: true))
        await XCTAssertThrowsErrorAsync { _ = try await failing.fetchCRL(from: "http://crl.test/a.crl") }
        await XCTAssertThrowsErrorAsync { _ = try await failing.fetchOCSPResponse(from: "http://ocsp.test", request: []) }
        await XCTAssertThrowsErrorAsync { _ = try await failing.fetchIssuerCertificates(from: "http://ca.test/issuer.der") }
        XCTAssertEqual(fetches(recorded, "crl", "failed"), 1)
        XCTAssertEqual(fetches(recorded, "ocsp", "failed"), 1)
        XCTAssertEqual(fetches(recorded, "ca_issuers", "failed"), 1)
    }

    func testTheLocalAddressVariantIsTheBasesAndCounts() async throws {
        let recorded = TestMetrics()
        let fetcher = TLSTrustMetrics(factory: recorded).meteredFetcher(StubFetcher(failing: false))
        let local = fetcher.allowingLocalAddresses()
        let answer = try await local.fetchCRL(from: "http://127.0.0.1/a.crl")
        XCTAssertEqual(answer, StubFetcher.localAnswer, "the base's local variant answered")
        XCTAssertEqual(fetches(recorded, "crl", "ok"), 1)
    }

    func testAVerifierMetersTheSettingsFetcherAndKeepsTheirCache() throws {
        let cache = FetchCache(capacity: 4)
        var settings = TLSTrustSettings()
        settings.revocationFetching = RevocationFetching(fetcher: StubFetcher(failing: false), cache: cache)
        let metered = try TLSTrustVerifier(settings: settings, metrics: TLSTrustMetrics(factory: TestMetrics())).settings.revocationFetching
        XCTAssertFalse(metered.fetcher is StubFetcher, "the fetcher is metered")
        XCTAssertTrue(metered.cache === cache, "the cache is the settings' own")
        settings.revocationFetching.cache = nil
        let uncached = try TLSTrustVerifier(settings: settings, metrics: TLSTrustMetrics(factory: TestMetrics())).settings.revocationFetching
        XCTAssertNil(uncached.cache, "no cache stays no cache")
    }

    func testABaseThatFetchesNoIssuersIsNotCounted() async throws {
        let recorded = TestMetrics()
        let fetcher = TLSTrustMetrics(factory: recorded).meteredFetcher(NoRevocationFetcher())
        do {
            _ = try await fetcher.fetchIssuerCertificates(from: "http://ca.test/issuer.der")
            XCTFail("fetched")
        } catch {
            XCTAssertEqual(error as? IssuerFetchError, .notSupported)
        }
        XCTAssertTrue(recorded.counters(label: TLSTrustMetrics.fetchesLabel).isEmpty)
    }

    func testDisabledMetricsReturnTheFetcherItselfAndAMeteredOneIsNotWrappedTwice() {
        let base = StubFetcher(failing: false)
        XCTAssertTrue(TLSTrustMetrics.disabled.meteredFetcher(base) as? StubFetcher === base)
        let metrics = TLSTrustMetrics(factory: TestMetrics())
        let once = metrics.meteredFetcher(base)
        XCTAssertEqual(String(describing: type(of: metrics.meteredFetcher(once))), String(describing: type(of: once)))
        XCTAssertFalse(once is StubFetcher)
    }
}

/// Answers every fetch with fixed bytes (or fails), and has a local-address variant.
private final class StubFetcher: RevocationFetcher {
    struct Refused: Error {}
    static let answer: [UInt8] = [0x01]
    static let localAnswer: [UInt8] = [0x02]

    let failing: Bool
    let isLocal: Bool

    init(failing: Bool, isLocal: Bool = false) {
        self.failing = failing
        self.isLocal = isLocal
    }

    private func answer() throws -> [UInt8] {
        if failing { throw Refused() }
        return isLocal ? Self.localAnswer : Self.answer
    }

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { try answer() }
    func fetchIssuerCertificates(from url: String) async throws -> [UInt8] { try answer() }

    func allowingLocalAddresses() -> any RevocationFetcher {
        StubFetcher(failing: failing, isLocal: true)
    }
}

/// Fails the test unless `body` throws.
private func XCTAssertThrowsErrorAsync(_ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line) async {
    do {
        try await body()
        XCTFail("no error thrown", file: file, line: line)
    } catch {}
}
