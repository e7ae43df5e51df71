import Synchronization
import TrustCrypto
import TrustX509

/// A bounded, thread-safe memory of signatures already verified: "this issuer key signed this
/// exact certificate", keyed by SHA-256 of the issuer's SPKI and SHA-256 of the whole child
/// certificate (which covers the signed bytes, the algorithm and the signature value).
///
/// Why it cannot change a verdict: an entry is only written after libcrypto verified that exact
/// signature with that exact key under the same signature policy, and a hit only skips repeating
/// that pure computation. Everything time- or context-dependent — validity at the verify date,
/// host name, EKU, name constraints, revocation, anchors — is checked on every evaluation.
/// Failures are never cached.
public final class SignatureCache: Sendable {
    /// SHA-256 digests packed into words, so hashing and comparing a key is a handful of integer operations.
    private struct Key: Hashable, Sendable {
        let issuer: (UInt64, UInt64, UInt64, UInt64)
        let certificate: (UInt64, UInt64, UInt64, UInt64)
        let legacy: Bool

        init(issuerKey: [UInt8], certificate: [UInt8], legacy: Bool) {
            issuer = Key.pack(issuerKey)
            self.certificate = Key.pack(certificate)
            self.legacy = legacy
        }

        static func pack(_ digest: [UInt8]) -> (UInt64, UInt64, UInt64, UInt64) {
            var words: [UInt64] = [0, 0, 0, 0]
            for (index, byte) in digest.prefix(32).enumerated() { words[index / 8] = words[index / 8] << 8 | UInt64(byte) }
            return (words[0], words[1], words[2], words[3])
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.issuer == rhs.issuer && lhs.certificate == rhs.certificate && lhs.legacy == rhs.legacy
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(certificate.0)
            hasher.combine(issuer.0)
            hasher.combine(legacy)
        }
    }

    private struct State: Sendable {
        var entries: [Key: UInt64] = [:]
        var clock: UInt64 = 0
    }

    /// The most entries kept; the least recently used are evicted beyond it.
    public let capacity: Int
    private let state = Mutex(State())

    /// The process-wide cache used by ``ServerTrust``.
    public static let shared = SignatureCache(capacity: 4096)

    /// Creates a cache holding at most `capacity` verified signatures.
    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The number of cached verified signatures.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every entry.
    public func removeAll() { state.withLock { $0.entries.removeAll() } }

    /// Whether `issuer`'s key is known to have signed `child` under `policy`.
    func contains(child: Certificate, issuer: Certificate, policy: SignaturePolicy) -> Bool {
        let key = Key(issuerKey: issuer.spkiSHA256, certificate: child.sha256Fingerprint, legacy: policy.allowsLegacyAlgorithms)
        return state.withLock { state in
            guard state.entries[key] != nil else { return false }
            state.clock += 1
            state.entries[key] = state.clock
            return true
        }
    }

    /// Records a verified signature.
    func insert(child: Certificate, issuer: Certificate, policy: SignaturePolicy) {
        let key = Key(issuerKey: issuer.spkiSHA256, certificate: child.sha256Fingerprint, legacy: policy.allowsLegacyAlgorithms)
        state.withLock { state in
            state.clock += 1
            state.entries[key] = state.clock
            if state.entries.count > capacity {
                // Evict the oldest eighth in one pass, so eviction stays amortised O(1) per insert.
                let cut = state.entries.values.sorted()[state.entries.count / 8]
                state.entries = state.entries.filter { $0.value > cut }
            }
        }
    }
}
