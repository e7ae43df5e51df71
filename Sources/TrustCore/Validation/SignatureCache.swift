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
        let issuer: DigestWords
        let certificate: DigestWords
        let legacy: Bool

        init(issuerKey: [UInt8], certificate: [UInt8], legacy: Bool) {
            issuer = DigestWords(issuerKey)
            self.certificate = DigestWords(certificate)
            self.legacy = legacy
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.issuer == rhs.issuer && lhs.certificate == rhs.certificate && lhs.legacy == rhs.legacy
        }

        func hash(into hasher: inout Hasher) {
            // Words of two SHA-256 digests: one mixed word is as good as all of them.
            hasher.combine(certificate.w0 ^ (issuer.w0 &* 0x9E37_79B9_7F4A_7C15) ^ (legacy ? 1 : 0))
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
            // One hash: find the entry, then refresh its age in place.
            guard let index = state.entries.index(forKey: key) else { return false }
            state.clock += 1
            state.entries.values[index] = state.clock
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
