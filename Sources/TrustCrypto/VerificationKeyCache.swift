import Synchronization

/// A bounded, thread-safe cache of ``VerificationKey``s keyed by their SubjectPublicKeyInfo.
///
/// Entries are keyed by the SHA-256 of the SPKI bytes, so equal SPKIs share one key object.
/// When the cache is full, the least recently used entry is evicted. Invalid SPKIs are not
/// cached: every lookup of one throws again.
public final class VerificationKeyCache: Sendable {
    /// A process-wide cache with the default capacity.
    public static let shared = VerificationKeyCache()

    /// The most entries the cache holds.
    public let capacity: Int

    private let state: Mutex<State>

    /// Creates a cache holding at most `capacity` keys (at least 1; default 1024).
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
        self.state = Mutex(State())
    }

    /// The key for `spki`, parsed on first use and shared afterwards.
    ///
    /// - Throws: the errors of ``VerificationKey/init(spki:)``, or
    ///   ``SignatureError/cryptoFailure(_:)`` if the SPKI cannot be hashed.
    public func key(forSPKI spki: ArraySlice<UInt8>) throws(SignatureError) -> VerificationKey {
        guard let digest = Digest.checkedHash(.sha256, spki), let fingerprint = Fingerprint(digest) else {
            throw .cryptoFailure("could not hash the SubjectPublicKeyInfo")
        }
        if let cached = state.withLock({ $0.lookup(fingerprint) }) {
            return cached
        }
        // Parse outside the lock: it is the expensive part, and other lookups can proceed.
        let created = try VerificationKey(spki: spki)
        let capacity = self.capacity
        return state.withLock { $0.insert(created, for: fingerprint, capacity: capacity) }
    }

    /// The number of cached keys.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// Empties the cache. Keys already handed out stay valid.
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// The SHA-256 of an SPKI, as four words (cheaper to hash and compare than an array).
    private struct Fingerprint: Hashable, Sendable {
        let words: (UInt64, UInt64, UInt64, UInt64)

        init?(_ digest: [UInt8]) {
            guard digest.count == 32 else { return nil }
            func word(_ index: Int) -> UInt64 {
                var value: UInt64 = 0
                for byte in digest[(index * 8)..<(index * 8 + 8)] { value = value << 8 | UInt64(byte) }
                return value
            }
            words = (word(0), word(1), word(2), word(3))
        }

        static func == (lhs: Fingerprint, rhs: Fingerprint) -> Bool {
            lhs.words == rhs.words
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    private struct Entry {
        let key: VerificationKey
        var lastUse: UInt64
    }

    /// The mutable state, only ever touched under the mutex.
    private struct State {
        var entries: [Fingerprint: Entry] = [:]
        var clock: UInt64 = 0

        mutating func lookup(_ fingerprint: Fingerprint) -> VerificationKey? {
            guard let entry = entries[fingerprint] else { return nil }
            clock &+= 1
            entries[fingerprint]?.lastUse = clock
            return entry.key
        }

        /// Inserts `key` unless another thread got there first, in which case the existing
        /// key is returned so every caller shares one instance.
        mutating func insert(_ key: VerificationKey, for fingerprint: Fingerprint, capacity: Int) -> VerificationKey {
            if let existing = lookup(fingerprint) { return existing }
            while entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                entries.removeValue(forKey: oldest)
            }
            clock &+= 1
            entries[fingerprint] = Entry(key: key, lastUse: clock)
            return key
        }
    }
}
