/// Bounded storage that ``TrustCaches`` never switches off: at most ``capacity`` keys, the oldest
/// forgotten first.
///
/// The same storage as a ``BoundedCache`` shard, for state that is *not* a cache, because losing it
/// changes what happens: the chains resumed TLS sessions are re-verified with, the pin-report rate
/// limiter's memory, the window of peers' expiries. A cache may be switched off without changing a
/// verdict; these may not, so they use this type instead.
///
/// Age is the order in which keys were first stored: ``remember(_:forKey:)`` of a key already held
/// replaces its value and leaves its age, and reading never changes it (first in, first out). To
/// make a key the newest, remove it and remember it again. Every operation is O(1) but ``values``.
///
/// Not locked: its owner keeps it behind its own lock (a `Mutex`).
package struct BoundedStore<Key: Hashable, Value> {
    private var entries: RecencyList<Key, Value>

    /// An empty store of at most `capacity` keys (values below 1 mean 1).
    package init(capacity: Int) {
        entries = RecencyList(capacity: max(1, capacity))
    }

    /// The most keys held.
    package var capacity: Int { entries.capacity }

    /// The number of keys held.
    package var count: Int { entries.count }

    /// The value held for `key`.
    package subscript(key: Key) -> Value? { entries.peekValue(forKey: key) }

    /// Holds `value` for `key`: replaces the value of a key already held (its age unchanged), or
    /// stores a new key as the newest, forgetting the oldest when the store is full.
    package mutating func remember(_ value: Value, forKey key: Key) {
        if entries.replaceValue(value, forKey: key) { return }
        _ = entries.insert(value, forKey: key, replacing: true)
    }

    /// Forgets `key`; returns the value it held.
    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? { entries.removeValue(forKey: key) }

    /// The key held longest, with its value.
    package var oldest: (key: Key, value: Value)? { entries.oldestEntry }

    /// Every value held, in no particular order.
    package var values: some Sequence<Value> { entries.values }
}

extension BoundedStore: Sendable where Key: Sendable, Value: Sendable {}
