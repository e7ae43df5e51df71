/// A bounded, thread-safe cache of ``VerificationKey``s keyed by their SubjectPublicKeyInfo.
///
/// Entries are keyed by the SHA-256 of the SPKI bytes, so equal SPKIs share one key object. A key
/// is a pure function of those bytes (nothing else is read to build it), so a hit returns what
/// parsing again would. When the cache is full, the least recently used entry is evicted (a
/// `BoundedCache`; ``TrustCaches/isEnabled`` switches it off). Invalid SPKIs are not cached: every
/// lookup of one throws again.
public final class VerificationKeyCache: Sendable {
    /// A process-wide cache with the default capacity.
    public static let shared = VerificationKeyCache()

    /// The most entries the cache holds.
    public var capacity: Int { keys.capacity }

    private let keys: BoundedCache<DigestWords, VerificationKey>

    /// Creates a cache holding at most `capacity` keys (at least 1; default 1024).
    public init(capacity: Int = 1024) {
        keys = BoundedCache(capacity: capacity)
    }

    /// The key for `spki`, parsed on first use and shared afterwards.
    ///
    /// - Throws: the errors of ``VerificationKey/init(spki:)``, or
    ///   ``SignatureError/cryptoFailure(_:)`` if the SPKI cannot be hashed.
    public func key(forSPKI spki: ArraySlice<UInt8>) throws(SignatureError) -> VerificationKey {
        guard let digest = Digest.checkedHash(.sha256, spki), digest.count == 32 else {
            throw .cryptoFailure("could not hash the SubjectPublicKeyInfo")
        }
        return try key(forSPKI: spki, sha256: digest)
    }

    /// ``key(forSPKI:)`` when the SHA-256 of `spki` is already known (a certificate keeps its SPKI's
    /// digest for pins and the signature cache): the bytes are not hashed a second time.
    /// `sha256` must be the SHA-256 of exactly `spki` — it is the cache key.
    package func key(forSPKI spki: ArraySlice<UInt8>, sha256: [UInt8]) throws(SignatureError) -> VerificationKey {
        guard sha256.count == 32 else { throw .cryptoFailure("an SPKI digest must be 32 bytes") }
        // Parsing runs outside the lock: it is the expensive part, and other lookups can proceed.
        return try keys.value(forKey: DigestWords(sha256)) { () throws(SignatureError) in try VerificationKey(spki: spki) }
    }

    /// The number of cached keys; for the tests and benchmarks.
    @_spi(Testing) public var count: Int { keys.count }

    /// Empties the cache. Keys already handed out stay valid.
    public func removeAll() { keys.removeAll() }
}
