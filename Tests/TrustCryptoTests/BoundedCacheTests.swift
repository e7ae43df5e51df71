import Dispatch
@_spi(Testing) import TrustCrypto
import TrustTestSupport
import XCTest

final class BoundedCacheTests: CachesOnTestCase {
    func testStoresAndReturnsValues() {
        let cache = BoundedCache<String, Int>(capacity: 4)
        XCTAssertNil(cache.value(forKey: "a"))
        cache.insert(1, forKey: "a")
        cache.insert(2, forKey: "b")
        XCTAssertEqual(cache.value(forKey: "a"), 1)
        XCTAssertEqual(cache.value(forKey: "b"), 2)
        cache.insert(3, forKey: "a")
        XCTAssertEqual(cache.value(forKey: "a"), 3, "insert replaces")
        XCTAssertEqual(cache.count, 2)
    }

    func testEvictsTheLeastRecentlyUsed() {
        let cache = BoundedCache<Int, String>(capacity: 3)
        for key in 1...3 { cache.insert("\(key)", forKey: key) }
        // Reading 1 and re-inserting 2 make 3 the least recently used.
        XCTAssertEqual(cache.value(forKey: 1), "1")
        cache.insert("two", forKey: 2)
        cache.insert("4", forKey: 4)
        XCTAssertEqual(cache.count, 3)
        XCTAssertNil(cache.value(forKey: 3))
        XCTAssertEqual(cache.value(forKey: 1), "1")
        XCTAssertEqual(cache.value(forKey: 2), "two")
        XCTAssertEqual(cache.value(forKey: 4), "4")
        // Now 1 is the oldest again (2 and 4 were read after it).
        cache.insert("5", forKey: 5)
        XCTAssertNil(cache.value(forKey: 1))
        XCTAssertEqual([2, 4, 5].compactMap { cache.value(forKey: $0) }, ["two", "4", "5"])
    }

    func testLongRunsStayWithinCapacityAndKeepTheNewest() {
        let cache = BoundedCache<Int, Int>(capacity: 64)
        for key in 0..<10_000 {
            cache.insert(key * 2, forKey: key)
            XCTAssertLessThanOrEqual(cache.count, 64)
        }
        XCTAssertEqual((9_936..<10_000).compactMap { cache.value(forKey: $0) }, (9_936..<10_000).map { $0 * 2 })
        XCTAssertNil(cache.value(forKey: 9_935))
    }

    func testLargeCachesAreShardedAndStayWithinCapacity() {
        let cache = BoundedCache<Int, Int>(capacity: 1024)
        XCTAssertEqual(cache.shardCount, 16)
        XCTAssertEqual(BoundedCache<Int, Int>(capacity: 255).shardCount, 1, "small caches keep exact LRU order")
        for key in 0..<50_000 { cache.insert(key, forKey: key) }
        // Every shard (64 entries) has seen thousands of keys: all are full, none is over.
        XCTAssertEqual(cache.count, 1024)
        // Each of the 64 newest keys is among the newest of its own shard, so none was evicted.
        XCTAssertEqual((49_936..<50_000).compactMap { cache.value(forKey: $0) }, Array(49_936..<50_000))
        XCTAssertNil(cache.value(forKey: 0))
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
    }

    func testCapacityIsAtLeastOne() {
        XCTAssertEqual(BoundedCache<Int, Int>(capacity: 0).capacity, 1)
        XCTAssertEqual(BoundedCache<Int, Int>(capacity: -3).capacity, 1)
        let single = BoundedCache<Int, Int>(capacity: 1)
        single.insert(1, forKey: 1)
        single.insert(2, forKey: 2)
        XCTAssertEqual(single.count, 1)
        XCTAssertNil(single.value(forKey: 1))
        XCTAssertEqual(single.value(forKey: 2), 2)
    }

    func testComputeStoresItsResultAndFirstStoredValueWins() {
        let cache = BoundedCache<String, Int>(capacity: 4)
        var calls = 0
        XCTAssertEqual(
            cache.value(forKey: "k") {
                calls += 1; return 7
            }, 7)
        XCTAssertEqual(
            cache.value(forKey: "k") {
                calls += 1; return 8
            }, 7)
        XCTAssertEqual(calls, 1)
    }

    func testErrorsAreNotCached() {
        struct Failure: Error {}
        let cache = BoundedCache<String, Int>(capacity: 4)
        for _ in 0..<2 {
            XCTAssertThrowsError(try cache.value(forKey: "bad") { () throws(Failure) -> Int in throw Failure() })
        }
        XCTAssertEqual(cache.count, 0)
    }

    func testRemoveAllEmptiesTheCacheAndItFillsAgain() {
        let cache = BoundedCache<Int, Int>(capacity: 2)
        cache.insert(1, forKey: 1)
        cache.insert(2, forKey: 2)
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertNil(cache.value(forKey: 1))
        for key in 3...5 { cache.insert(key, forKey: key) }
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual([4, 5].compactMap { cache.value(forKey: $0) }, [4, 5])
    }

    // MARK: The global switch

    func testSwitchedOffEveryLookupMissesAndNothingIsStored() {
        let cache = BoundedCache<String, Int>(capacity: 4)
        cache.insert(1, forKey: "kept")
        TrustCaches.isEnabled = false
        XCTAssertNil(cache.value(forKey: "kept"))
        cache.insert(2, forKey: "new")
        var calls = 0
        XCTAssertEqual(
            cache.value(forKey: "computed") {
                calls += 1; return 3
            }, 3)
        XCTAssertEqual(
            cache.value(forKey: "computed") {
                calls += 1; return 4
            }, 4)
        XCTAssertEqual(calls, 2)
        XCTAssertEqual(cache.count, 1, "only the entry made before switching off")
        // Switching back on finds the earlier entry again (it is still correct) and nothing else.
        TrustCaches.isEnabled = true
        XCTAssertEqual(cache.value(forKey: "kept"), 1)
        XCTAssertNil(cache.value(forKey: "new"))
        XCTAssertNil(cache.value(forKey: "computed"))
    }

    func testSwitchedOffTheKeyCacheHandsOutFreshKeys() throws {
        let cache = VerificationKeyCache(capacity: 4)
        TrustCaches.isEnabled = false
        let first = try cache.key(forSPKI: Fixtures.p256SPKI[...])
        let second = try cache.key(forSPKI: Fixtures.p256SPKI[...])
        XCTAssertFalse(first === second)
        XCTAssertEqual(cache.count, 0)
    }

    func testEnvironmentValues() {
        for value in [nil, "", "on", "ON", "1", "true", "yes"] as [String?] {
            XCTAssertTrue(TrustCaches.isEnabled(environmentValue: value), "\(value ?? "unset")")
        }
        for value in ["off", "OFF", "0", "false", "no", "disable", "of"] {
            XCTAssertFalse(TrustCaches.isEnabled(environmentValue: value), value)
        }
        XCTAssertEqual(TrustCaches.environmentVariable, "SWIFTTRUST_CACHES")
    }

    // MARK: Concurrency

    func testConcurrentUseKeepsTheBoundAndEveryAnswerIsRight() {
        let cache = BoundedCache<Int, Int>(capacity: 32)
        let wrong = ResultBox<Bool>(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var sawWrong = false
            for step in 0..<2_000 {
                let key = (step * 7 + worker) % 100
                if let value = cache.value(forKey: key), value != key * 3 { sawWrong = true }
                if cache.value(forKey: key, orCompute: { key * 3 }) != key * 3 { sawWrong = true }
            }
            wrong.set(worker, sawWrong)
        }
        XCTAssertEqual(wrong.values, Array(repeating: false, count: 8))
        XCTAssertLessThanOrEqual(cache.count, 32)
    }
}
