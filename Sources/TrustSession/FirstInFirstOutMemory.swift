/// A map that holds at most ``capacity`` keys and forgets the oldest inserted first (updating a
/// key's value does not make it younger). Not locked: its owner keeps it behind its own lock. What
/// the resumed-session chains (``ResumedSessionChains``) and TrustNIO's window of recently trusted
/// peers' expiries remember.
package struct FirstInFirstOutMemory<Key: Hashable, Value> {
    /// The most keys held.
    package let capacity: Int
    private var values: [Key: Value] = [:]
    private var order: [Key] = []
    private var start = 0

    /// An empty memory of at most `capacity` keys (values below 1 mean 1).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The value remembered for `key`.
    package subscript(key: Key) -> Value? { values[key] }

    /// Every value remembered, in no particular order.
    package var allValues: Dictionary<Key, Value>.Values { values.values }

    /// Remembers `value` for `key`, forgetting the oldest key when that makes one too many.
    package mutating func remember(_ value: Value, for key: Key) {
        if values.updateValue(value, forKey: key) != nil { return }
        order.append(key)
        if order.count - start > capacity {
            values[order[start]] = nil
            start += 1
            // Compact now and then, so that the order list stays within twice the capacity.
            if start >= capacity {
                order.removeFirst(start)
                start = 0
            }
        }
    }
}

extension FirstInFirstOutMemory: Sendable where Key: Sendable, Value: Sendable {}
