import Foundation
import TrustCrypto
import TrustCore
import XCTest

/// The caIssuers download cache: fresh downloads are returned, expired ones are not, and with
/// caches switched off (``TrustCaches/isEnabled``) nothing is stored or returned.
final class IssuerDownloadCacheTests: XCTestCase {
    private let url = "http://ca.swifttrust.test/intermediate.crt"
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs `body` with the caches switch set to `enabled`, and sets it back afterwards.
    private func withCaching(_ enabled: Bool, _ body: () -> Void) {
        let wasEnabled = TrustCaches.isEnabled
        defer { TrustCaches.isEnabled = wasEnabled }
        TrustCaches.isEnabled = enabled
        body()
    }

    func testAFreshDownloadIsReturnedAndAnExpiredOneIsNot() {
        withCaching(true) {
            let cache = IssuerDownloadCache(capacity: 4, lifetime: 60)
            cache.store([1, 2, 3], for: url, now: start)
            XCTAssertEqual(cache.bytes(for: url, now: start.addingTimeInterval(59)), [1, 2, 3])
            XCTAssertNil(cache.bytes(for: url, now: start.addingTimeInterval(60)), "expired at the end of its lifetime")
            XCTAssertNil(cache.bytes(for: "http://ca.swifttrust.test/other.crt", now: start))
        }
    }

    func testWithCachesOffNothingIsStoredOrReturned() {
        let cache = IssuerDownloadCache(capacity: 4, lifetime: 60)
        let off = "http://ca.swifttrust.test/off.crt"
        withCaching(true) { cache.store([9], for: url, now: start) }
        withCaching(false) {
            XCTAssertNil(cache.bytes(for: url, now: start), "a download kept before is not returned while caches are off")
            cache.store([1, 2, 3], for: off, now: start)
            XCTAssertNil(cache.bytes(for: off, now: start))
        }
        withCaching(true) {
            XCTAssertNil(cache.bytes(for: off, now: start), "nothing was stored while caches were off")
            XCTAssertEqual(cache.bytes(for: url, now: start), [9], "what was kept before is used again once caches are on")
        }
    }

    func testTheLeastRecentlyUsedDownloadIsForgottenFirst() {
        withCaching(true) {
            let cache = IssuerDownloadCache(capacity: 2, lifetime: 60)
            cache.store([1], for: "http://a.test/1", now: start)
            cache.store([2], for: "http://a.test/2", now: start)
            XCTAssertEqual(cache.bytes(for: "http://a.test/1", now: start), [1])
            cache.store([3], for: "http://a.test/3", now: start)
            XCTAssertNil(cache.bytes(for: "http://a.test/2", now: start))
            XCTAssertEqual(cache.bytes(for: "http://a.test/1", now: start), [1])
            XCTAssertEqual(cache.bytes(for: "http://a.test/3", now: start), [3])
        }
    }
}
