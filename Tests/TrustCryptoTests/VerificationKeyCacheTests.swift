import Dispatch
@_spi(Testing) import TrustCrypto
import XCTest

final class VerificationKeyCacheTests: XCTestCase {
    func testSameSPKIReturnsSameInstance() throws {
        let cache = VerificationKeyCache(capacity: 8)
        let first = try cache.key(forSPKI: Fixtures.p256SPKI[...])
        // Equal bytes in a different buffer and at a different offset.
        let padded = [0x00] + Fixtures.p256SPKI
        let second = try cache.key(forSPKI: padded[1...])
        XCTAssertTrue(first === second)
        XCTAssertEqual(cache.count, 1)
        let other = try cache.key(forSPKI: Fixtures.p384SPKI[...])
        XCTAssertFalse(first === other)
        XCTAssertEqual(cache.count, 2)
    }

    func testAKnownDigestFindsTheEntryOfItsSPKI() throws {
        // A certificate passes its SPKI's digest (kept for pins) instead of having it hashed again.
        let cache = VerificationKeyCache(capacity: 8)
        let first = try cache.key(forSPKI: Fixtures.p256SPKI[...])
        let digest = Digest.sha256(Fixtures.p256SPKI)
        XCTAssertTrue(first === (try cache.key(forSPKI: Fixtures.p256SPKI[...], sha256: digest)))
        XCTAssertEqual(cache.count, 1)
        XCTAssertThrowsError(try cache.key(forSPKI: Fixtures.p256SPKI[...], sha256: Array(digest.prefix(31)))) { error in
            guard case .cryptoFailure? = error as? SignatureError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(cache.count, 1)
    }

    func testRespectsCapacityAndEvictsLeastRecentlyUsed() throws {
        let cache = VerificationKeyCache(capacity: 3)
        XCTAssertEqual(cache.capacity, 3)
        let rsa = try cache.key(forSPKI: Fixtures.rsa2048SPKI[...])
        _ = try cache.key(forSPKI: Fixtures.p256SPKI[...])
        _ = try cache.key(forSPKI: Fixtures.p384SPKI[...])
        XCTAssertEqual(cache.count, 3)
        // Touch RSA so P-256 becomes the least recently used.
        XCTAssertTrue(try cache.key(forSPKI: Fixtures.rsa2048SPKI[...]) === rsa)
        _ = try cache.key(forSPKI: Fixtures.ed25519SPKI[...])
        XCTAssertEqual(cache.count, 3)
        // RSA survived; P-256 was evicted (a new instance is created, evicting the next LRU).
        XCTAssertTrue(try cache.key(forSPKI: Fixtures.rsa2048SPKI[...]) === rsa)
        for spki in [Fixtures.p256SPKI, Fixtures.p521SPKI, Fixtures.ed448SPKI, Fixtures.rsa1024SPKI, Fixtures.p384SPKI] {
            _ = try cache.key(forSPKI: spki[...])
            XCTAssertLessThanOrEqual(cache.count, 3)
        }
        XCTAssertEqual(cache.count, 3)
    }

    func testEvictedKeyIsRecreatedAsANewInstance() throws {
        let cache = VerificationKeyCache(capacity: 1)
        let first = try cache.key(forSPKI: Fixtures.p256SPKI[...])
        _ = try cache.key(forSPKI: Fixtures.p384SPKI[...])
        XCTAssertEqual(cache.count, 1)
        let again = try cache.key(forSPKI: Fixtures.p256SPKI[...])
        XCTAssertFalse(first === again)
        // The evicted key is still usable by whoever holds it.
        XCTAssertNoThrow(try verify(Fixtures.p256Signature, Fixtures.message, .ecdsa(.sha256), first))
    }

    func testCapacityIsAtLeastOne() {
        XCTAssertEqual(VerificationKeyCache(capacity: 0).capacity, 1)
        XCTAssertEqual(VerificationKeyCache(capacity: -5).capacity, 1)
        XCTAssertEqual(VerificationKeyCache().capacity, 1024)
    }

    func testRemoveAll() throws {
        let cache = VerificationKeyCache()
        _ = try cache.key(forSPKI: Fixtures.ed25519SPKI[...])
        _ = try cache.key(forSPKI: Fixtures.ed448SPKI[...])
        XCTAssertEqual(cache.count, 2)
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
    }

    func testInvalidSPKIIsNotCached() {
        let cache = VerificationKeyCache()
        for _ in 0..<2 {
            assertThrows(.explicitCurveParameters) { _ = try cache.key(forSPKI: Fixtures.p256ExplicitSPKI[...]) }
        }
        XCTAssertEqual(cache.count, 0)
    }

    func testSharedCacheIsUsable() throws {
        let key = try VerificationKeyCache.shared.key(forSPKI: Fixtures.ed448SPKI[...])
        XCTAssertTrue(try VerificationKeyCache.shared.key(forSPKI: Fixtures.ed448SPKI[...]) === key)
    }

    func testConcurrentLookupsShareOneInstancePerSPKI() throws {
        let cache = VerificationKeyCache(capacity: 16)
        let spkis = [Fixtures.rsa2048SPKI, Fixtures.p256SPKI, Fixtures.p384SPKI, Fixtures.ed25519SPKI]
        let results = ResultBox<ObjectIdentifier>(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let key = try? cache.key(forSPKI: spkis[index % spkis.count][...])
            results.set(index, key.map(ObjectIdentifier.init))
        }
        let identities = results.values
        XCTAssertEqual(identities.compactMap { $0 }.count, 64)
        for spkiIndex in spkis.indices {
            let group = Set(stride(from: spkiIndex, to: 64, by: spkis.count).map { identities[$0] })
            XCTAssertEqual(group.count, 1, "SPKI \(spkiIndex) produced several instances")
        }
        XCTAssertEqual(cache.count, spkis.count)
    }

    func testRacingFirstLookupsOfOneSPKIReturnOneInstance() {
        // Fresh caches, every thread asking for the same key at once: threads that lose the
        // race to insert must get the winner's instance, not their own.
        for _ in 0..<50 {
            let cache = VerificationKeyCache(capacity: 4)
            let results = ResultBox<ObjectIdentifier>(count: 8)
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let key = try? cache.key(forSPKI: Fixtures.rsa2048SPKI[...])
                results.set(index, key.map(ObjectIdentifier.init))
            }
            let identities = Set(results.values)
            XCTAssertEqual(identities.count, 1)
            XCTAssertFalse(identities.contains(nil))
            XCTAssertEqual(cache.count, 1)
        }
    }
}

/// A lock-protected array for collecting results from `concurrentPerform`.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value?]

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value?) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [Value?] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
