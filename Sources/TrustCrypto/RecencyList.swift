/// Entries in slots linked from the most to the least recently used: the storage of each
/// ``BoundedCache`` shard (touched only under its lock) and of ``BoundedStore`` (under its owner's).
/// The slots have no holes: a removal moves the last slot into the freed one.
@usableFromInline struct RecencyList<Key: Hashable, Value> {
    @usableFromInline struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        /// The next more recently used slot, or -1 for the newest.
        @usableFromInline var newer: Int
        /// The next less recently used slot, or -1 for the oldest.
        @usableFromInline var older: Int

        @inlinable init(key: Key, value: Value, newer: Int, older: Int) {
            self.key = key
            self.value = value
            self.newer = newer
            self.older = older
        }
    }

    @usableFromInline let capacity: Int
    @usableFromInline var slots: [Key: Int] = [:]
    @usableFromInline var nodes: [Node] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1

    @inlinable init(capacity: Int) { self.capacity = capacity }

    @inlinable var count: Int { slots.count }

    @inlinable mutating func value(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return nodes[slot].value
    }

    /// Stores `value` (or, with `replacing` false, keeps an existing one) and returns what is stored.
    @inlinable mutating func insert(_ value: Value, forKey key: Key, replacing: Bool) -> Value {
        if let slot = slots[key] {
            if replacing { nodes[slot].value = value }
            moveToFront(slot)
            return nodes[slot].value
        }
        let slot: Int
        if nodes.count < capacity {
            slot = nodes.count
            nodes.append(Node(key: key, value: value, newer: -1, older: -1))
        } else {
            // Full: the least recently used slot is reused for the new entry.
            slot = oldest
            unlink(slot)
            slots.removeValue(forKey: nodes[slot].key)
            nodes[slot] = Node(key: key, value: value, newer: -1, older: -1)
        }
        slots[key] = slot
        linkAtFront(slot)
        return value
    }

    /// The value stored for `key`, leaving the order as it is.
    func peekValue(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        return nodes[slot].value
    }

    /// Replaces the value stored for `key`, leaving the order as it is; false when there is none.
    mutating func replaceValue(_ value: Value, forKey key: Key) -> Bool {
        guard let slot = slots[key] else { return false }
        nodes[slot].value = value
        return true
    }

    /// Removes the entry for `key` and returns its value.
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        unlink(slot)
        let removed = nodes[slot].value
        let last = nodes.count - 1
        if slot != last {
            // The last slot moves into the freed one; its neighbours and its key follow it.
            let moved = nodes[last]
            nodes[slot] = moved
            slots[moved.key] = slot
            if moved.newer >= 0 { nodes[moved.newer].older = slot } else { newest = slot }
            if moved.older >= 0 { nodes[moved.older].newer = slot } else { oldest = slot }
        }
        nodes.removeLast()
        return removed
    }

    /// The least recently used entry.
    var oldestEntry: (key: Key, value: Value)? {
        guard oldest >= 0 else { return nil }
        return (nodes[oldest].key, nodes[oldest].value)
    }

    /// Every stored value, in slot order (no particular order).
    var values: LazyMapSequence<[Node], Value> { nodes.lazy.map(\.value) }

    @inlinable mutating func removeAll() {
        slots.removeAll()
        nodes.removeAll()
        newest = -1
        oldest = -1
    }

    @inlinable mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    @inlinable mutating func unlink(_ slot: Int) {
        let newer = nodes[slot].newer, older = nodes[slot].older
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = -1
        nodes[slot].older = -1
    }

    @inlinable mutating func linkAtFront(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}

extension RecencyList: Sendable where Key: Sendable, Value: Sendable {}
extension RecencyList.Node: Sendable where Key: Sendable, Value: Sendable {}
