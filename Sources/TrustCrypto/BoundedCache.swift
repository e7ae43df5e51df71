import Synchronization

/// A thread-safe cache that holds at most ``capacity`` values and evicts the least recently used.
///
/// Every cache in SwiftTrust is one of these (``VerificationKeyCache``, the signature and
/// profile-verdict caches of the validator, verified revocation responses, caIssuers downloads), so
/// that bounding, eviction, locking and the global switch are written once. State that must not be
/// switched off is a ``BoundedStore``, the same storage without the switch. A cache may only ever hold the value of a pure function of its key: the
/// key must cover *everything* the value depends on, so that a hit returns exactly what recomputing
/// would, and no cache can change a verdict.
///
/// While ``TrustCaches/isEnabled`` is false, every lookup misses and nothing is stored; entries made
/// before stay (they are still correct) and are used again once caching is switched back on.
///
/// Lookups, insertions and evictions are O(1): a dictionary from key to slot, and the slots linked in
/// recency order. The lock is held only for that bookkeeping, never while a value is computed.
///
/// A cache of 256 entries or more is split into ``shardCount`` shards, each its own LRU of an equal
/// part of the capacity behind its own lock, chosen by the key's hash: concurrent evaluations then
/// rarely wait for one another (the validator's caches are consulted several times per evaluation,
/// and one lock for all of them serialised the cores). The key is hashed once, outside the lock.
/// Eviction is least-recently-used within a shard. Smaller caches keep one shard and exact LRU order.
///
/// The implementation is `@inlinable`, so that the caches of other modules (keyed on their own private
/// types) are specialised for their key and value instead of going through generic witness tables on
/// every lookup. It stays `public` for that reason: as `package` with `@inlinable package` members,
/// Swift 6.3 does not specialise it in the other modules, and every lookup would then pay for
/// generic metadata instantiation.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most entries the cache holds (at least 1).
    public let capacity: Int

    /// One lock and one recency list per shard.
    @usableFromInline final class Shard: Sendable {
        @usableFromInline let list: Mutex<RecencyList<HashedKey<Key>, Value>>
        @inlinable init(capacity: Int) { list = Mutex(RecencyList(capacity: capacity)) }
    }

    @usableFromInline let shards: [Shard]

    /// The number of shards of a cache holding `capacity` entries.
    @inlinable static func shardCount(capacity: Int) -> Int { capacity >= 256 ? 16 : 1 }

    /// Creates an empty cache holding at most `capacity` entries (values below 1 mean 1).
    @inlinable public init(capacity: Int) {
        let capacity = max(1, capacity)
        self.capacity = capacity
        let count = BoundedCache.shardCount(capacity: capacity)
        // Each shard gets an equal part, rounded down, so the total never exceeds `capacity`.
        shards = (0..<count).map { _ in Shard(capacity: capacity / count) }
    }

    /// The number of shards (1, or 16 for a capacity of 256 or more); for the tests.
    @_spi(Testing) public var shardCount: Int { shards.count }

    @inlinable func shard(_ key: HashedKey<Key>) -> Shard {
        shards[Int(UInt(bitPattern: key.hash) % UInt(shards.count))]
    }

    /// The value stored for `key`, which becomes the most recently used; nil when there is none or
    /// caching is switched off.
    @inlinable public func value(forKey key: Key) -> Value? {
        guard TrustCaches.isEnabled else { return nil }
        let hashed = HashedKey(key)
        return shard(hashed).list.withLock { $0.value(forKey: hashed) }
    }

    /// Stores `value` for `key` (replacing any earlier value) as the most recently used entry,
    /// evicting the least recently used one when the cache is full. Does nothing while caching is
    /// switched off.
    @inlinable public func insert(_ value: Value, forKey key: Key) {
        guard TrustCaches.isEnabled else { return }
        let hashed = HashedKey(key)
        shard(hashed).list.withLock { _ = $0.insert(value, forKey: hashed, replacing: true) }
    }

    /// The value for `key`: the stored one, or else `compute()`'s result, which is stored.
    ///
    /// `compute` runs outside the lock, so other lookups proceed meanwhile. When two callers compute
    /// the same key at once, the first value stored wins and both get it (callers can rely on sharing
    /// one instance). Errors are not cached: the next call computes again.
    @inlinable public func value<Failure: Error>(forKey key: Key, orCompute compute: () throws(Failure) -> Value) throws(Failure) -> Value {
        guard TrustCaches.isEnabled else { return try compute() }
        let hashed = HashedKey(key)
        let shard = shard(hashed)
        if let known = shard.list.withLock({ $0.value(forKey: hashed) }) { return known }
        let computed = try compute()
        return shard.list.withLock { $0.insert(computed, forKey: hashed, replacing: false) }
    }

    /// The number of stored entries.
    @inlinable public var count: Int {
        shards.reduce(0) { total, shard in total + shard.list.withLock { $0.count } }
    }

    /// Removes every entry. Values already handed out stay valid.
    @inlinable public func removeAll() {
        for shard in shards { shard.list.withLock { $0.removeAll() } }
    }
}

/// A key with its hash value computed once, before any lock is taken.
@usableFromInline struct HashedKey<Key: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline let key: Key
    @usableFromInline let hash: Int

    @inlinable init(_ key: Key) {
        self.key = key
        hash = key.hashValue
    }

    @inlinable static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }

    @inlinable func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
