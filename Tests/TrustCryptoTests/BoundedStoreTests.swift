import TrustCrypto
import XCTest

/// BoundedStore: first in, first out, bounded, and never switched off by ``TrustCaches``.
final class BoundedStoreTests: XCTestCase {
    func testTheOldestKeyIsForgottenFirstAndReplacingKeepsAge() {
        var store = BoundedStore<String, Int>(capacity: 2)
        store.remember(1, forKey: "a")
        store.remember(2, forKey: "b")
        store.remember(10, forKey: "a")
        XCTAssertEqual(store["a"], 10)
        XCTAssertEqual(store.oldest?.key, "a", "replacing a value does not make its key younger")
        _ = store["a"]
        XCTAssertEqual(store.oldest?.key, "a", "reading does not either")
        store.remember(3, forKey: "c")
        XCTAssertNil(store["a"])
        XCTAssertEqual(store["b"], 2)
        XCTAssertEqual(store["c"], 3)
        XCTAssertEqual(store.count, 2)
    }

    func testRemovingAnyKeyKeepsTheOrderOfTheOthers() {
        for removed in 0..<5 {
            var store = BoundedStore<Int, Int>(capacity: 5)
            for key in 0..<5 { store.remember(key * 10, forKey: key) }
            XCTAssertEqual(store.removeValue(forKey: removed), removed * 10)
            XCTAssertNil(store.removeValue(forKey: removed))
            XCTAssertEqual(store.count, 4)
            XCTAssertEqual(Set(store.values), Set((0..<5).filter { $0 != removed }.map { $0 * 10 }))
            var order: [Int] = []
            while let oldest = store.oldest {
                order.append(oldest.key)
                XCTAssertEqual(store.removeValue(forKey: oldest.key), oldest.key * 10)
            }
            XCTAssertEqual(order, (0..<5).filter { $0 != removed }, "removing \(removed)")
            XCTAssertEqual(store.count, 0)
        }
    }

    func testARemovedKeyRememberedAgainIsTheNewest() {
        var store = BoundedStore<String, Int>(capacity: 3)
        for (value, key) in ["a", "b", "c"].enumerated() { store.remember(value, forKey: key) }
        store.removeValue(forKey: "a")
        store.remember(9, forKey: "a")
        store.remember(4, forKey: "d")
        XCTAssertNil(store["b"], "b was the oldest")
        XCTAssertEqual(store.oldest?.key, "c")
        XCTAssertEqual(store["a"], 9)
    }

    func testCapacityIsAtLeastOne() {
        var store = BoundedStore<Int, Int>(capacity: 0)
        XCTAssertEqual(store.capacity, 1)
        store.remember(1, forKey: 1)
        store.remember(2, forKey: 2)
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(store[2], 2)
    }

    func testCachesOffDoesNotSwitchItOff() {
        let wasEnabled = TrustCaches.isEnabled
        defer { TrustCaches.isEnabled = wasEnabled }
        TrustCaches.isEnabled = false
        var store = BoundedStore<String, Int>(capacity: 2)
        store.remember(1, forKey: "a")
        XCTAssertEqual(store["a"], 1)
    }
}
