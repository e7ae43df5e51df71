import Foundation
import TrustCore
import TrustCrypto
import TrustX509
import TrustTestSupport
import XCTest

/// The fetcher apart from its cache (issue 42): a fetching evaluation given no cache asks its
/// fetcher every time; given a ``FetchCache`` it asks once and then answers from the cache, with
/// the same verdict; the caches-off switch (`TrustCaches`, `SWIFTTRUST_CACHES=off`) turns both parts
/// of the cache off, the caIssuers downloads included.
final class FetchCacheTests: CachesOnTestCase {
    private typealias Kit = RevocationKit
    private static let issuerURL = IssuerFetchingTests.url

    private func crlFetcher() throws -> RecordingFetcher {
        RecordingFetcher(crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")])
    }

    /// `count` evaluations of new trusts for the revoked leaf under `options`, through `fetcher`
    /// and `cache`: each must find the leaf revoked from `source`. (The committed CRL's nextUpdate
    /// is in 2099, so it is cached; the committed OCSP responses' have passed in real time, and a
    /// cache keeps nothing past its nextUpdate.)
    private func evaluateRevokedLeaf(
        _ count: Int, options: RevocationOptions, fetcher: RecordingFetcher, cache: FetchCache?,
        source: RevocationSource, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        for round in 0..<count {
            let evaluation = await (try Kit.trust(Kit.revokedLeaf, options: options)).evaluate(fetchingWith: fetcher, cache: cache)
            XCTAssertEqual(
                Kit.status(evaluation, 0), .revoked(source: source, time: Kit.revocationDate, reason: .keyCompromise),
                "evaluation \(round)", file: file, line: line)
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"], file: file, line: line)
        }
    }

    func testAFetcherWithoutACacheFetchesEveryTimeAndOneWithTheCacheDoesNot() async throws {
        let uncached = try crlFetcher()
        try await evaluateRevokedLeaf(3, options: [.crl], fetcher: uncached, cache: nil, source: .fetchedCRL(url: Kit.crlURL))
        XCTAssertEqual(uncached.calls.map(\.kind), ["crl", "crl", "crl"], "no cache: every evaluation asks the fetcher")

        let cache = FetchCache()
        let cached = try crlFetcher()
        try await evaluateRevokedLeaf(3, options: [.crl], fetcher: cached, cache: cache, source: .fetchedCRL(url: Kit.crlURL))
        XCTAssertEqual(cached.calls.map(\.kind), ["crl"], "with the cache: one fetch, then the verified CRL from the cache")
        XCTAssertEqual(cache.count, 1)

        // A cache is its own: another one knows nothing, and one emptied is asked again.
        let other = try crlFetcher()
        try await evaluateRevokedLeaf(1, options: [.crl], fetcher: other, cache: FetchCache(), source: .fetchedCRL(url: Kit.crlURL))
        XCTAssertEqual(other.calls.count, 1)
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        try await evaluateRevokedLeaf(1, options: [.crl], fetcher: cached, cache: cache, source: .fetchedCRL(url: Kit.crlURL))
        XCTAssertEqual(cached.calls.count, 2)
    }

    func testTheRevocationFetchingValueCarriesItsCacheToTheEngine() async throws {
        let cache = FetchCache()
        let fetcher = try crlFetcher()
        let fetching = RevocationFetching(fetcher: fetcher, cache: cache)
        for _ in 0..<2 {
            let evaluation = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetching: fetching)
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        }
        XCTAssertEqual(fetcher.calls.count, 1)
        XCTAssertEqual(cache.count, 1)
    }

    func testWithCachesOffEveryEvaluationFetchesWithTheSameVerdict() async throws {
        let cache = FetchCache()
        TrustCaches.isEnabled = false
        let fetcher = try crlFetcher()
        try await evaluateRevokedLeaf(3, options: [.crl], fetcher: fetcher, cache: cache, source: .fetchedCRL(url: Kit.crlURL))
        XCTAssertEqual(fetcher.calls.count, 3, "caches off: the cache neither answers nor keeps")
        XCTAssertEqual(cache.count, 0)
    }

    // MARK: caIssuers downloads

    /// `count` evaluations of new trusts for the leaf sent alone, through `server` and `cache`:
    /// each must complete the chain with the downloaded intermediate.
    private func evaluateLeafAlone(
        _ count: Int, server: IssuerFetchingTests.IssuerServer, cache: FetchCache?,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        for round in 0..<count {
            let trust = try IssuerFetchingTests.leafAlone()
            let evaluation = await trust.evaluate(fetchingWith: server, cache: cache)
            XCTAssertTrue(evaluation.isTrusted, "evaluation \(round): \(evaluation.failures)", file: file, line: line)
            XCTAssertEqual(evaluation.chain.count, 3, file: file, line: line)
            XCTAssertEqual(trust.fetchedIssuers.map(\.url), [Self.issuerURL], "shown as fetched, cached or not", file: file, line: line)
        }
    }

    private func issuerServer() throws -> IssuerFetchingTests.IssuerServer {
        IssuerFetchingTests.IssuerServer([Self.issuerURL: Array(try TestCertificates.certificate("ecdsa/intermediate.pem").derEncoded)])
    }

    func testIssuerDownloadsAreCachedAndTheCachesOffSwitchDisablesThem() async throws {
        let uncached = try issuerServer()
        try await evaluateLeafAlone(2, server: uncached, cache: nil)
        XCTAssertEqual(uncached.requests, [Self.issuerURL, Self.issuerURL], "no cache: downloaded every time")

        let cache = FetchCache()
        let cached = try issuerServer()
        try await evaluateLeafAlone(3, server: cached, cache: cache)
        XCTAssertEqual(cached.requests, [Self.issuerURL], "with the cache: downloaded once")
        XCTAssertEqual(cache.count, 1)

        // The one switch: with caches off the download cache answers nothing and keeps nothing.
        TrustCaches.isEnabled = false
        let off = try issuerServer()
        try await evaluateLeafAlone(2, server: off, cache: FetchCache())
        try await evaluateLeafAlone(1, server: off, cache: cache)
        XCTAssertEqual(off.requests.count, 3, "caches off: every evaluation downloads, even with a cache that holds the URL")
        TrustCaches.isEnabled = true
        try await evaluateLeafAlone(1, server: off, cache: cache)
        XCTAssertEqual(off.requests.count, 3, "what was kept before is used again once caches are on")
    }

    func testDocumentedDefaults() {
        let cache = FetchCache()
        XCTAssertEqual(cache.capacity, 256)
        XCTAssertEqual(cache.issuerDownloadCapacity, 64)
        XCTAssertEqual(cache.lifetime, 3600, "nothing is reused for more than an hour")
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(FetchCache(capacity: 8, issuerDownloadCapacity: 2, lifetime: 60).issuerDownloadCapacity, 2)
    }
}
