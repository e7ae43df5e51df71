import Synchronization
import TrustX509

/// A bounded, thread-safe memory of the per-certificate verdicts that depend on nothing but the
/// certificate's own bytes and a few flags: which critical extensions the validator does not
/// process (RFC 5280 §4.2) and which web-PKI profile rules (``WebPKIProfile``: serial number,
/// names, extension criticality, SAN syntax, key type and size) the certificate breaks in a given
/// position. Keyed by the certificate's SHA-256 fingerprint and those flags.
///
/// Why it cannot change a verdict: every rule it remembers is a pure function of the DER bytes
/// (which the fingerprint identifies) and of the flags in the key — the certificate's position
/// (leaf, trust anchor, self-signed at the top of the chain), whether the caller allowed the
/// legacy common-name fallback, the minimum RSA modulus size, and whether the web-PKI profile is
/// on. A hit returns exactly what recomputing would. Nothing that depends on the verify date
/// (validity), the host name, the chain's other certificates (signatures, issuer rules, path
/// length, EKU chaining, name constraints) or revocation is ever stored: those are checked on
/// every evaluation. Certificates with and without problems are cached alike, since both answers
/// are equally deterministic.
public final class ProfileVerdictCache: Sendable {
    /// What one certificate in one position breaks, independent of time, host and neighbours.
    struct Verdict: Sendable {
        /// Names of critical extensions the validator does not process.
        let unhandledCriticalExtensions: [String]
        /// The profile rules broken (``CertificateProfileRules``).
        let profileViolations: [ProfileViolation]

        static let clean = Verdict(unhandledCriticalExtensions: [], profileViolations: [])
    }

    /// The flags a verdict depends on, besides the certificate.
    struct Flags: Hashable, Sendable {
        var isLeaf = false
        var isAnchor = false
        var isSelfSigned = false
        /// One of the purposes is TLS server authentication.
        var serverPurpose = false
        /// The chain ends at an anchor from the system trust store.
        var systemAnchored = false
        var allowsCommonNameFallback = false
        var rules = ProfileRuleSet()
        var minimumRSABits = 0

        /// The position flags in one word, the rules in another (`minimumRSABits` is clamped; sizes
        /// beyond 2^32 bits do not occur).
        var packed: (position: UInt64, rules: UInt64) {
            var bits: UInt64 = 0
            if isLeaf { bits |= 1 }
            if isAnchor { bits |= 2 }
            if isSelfSigned { bits |= 4 }
            if allowsCommonNameFallback { bits |= 8 }
            if serverPurpose { bits |= 16 }
            if systemAnchored { bits |= 32 }
            return (bits | UInt64(UInt32(clamping: max(0, minimumRSABits))) << 16, rules.bits)
        }
    }

    private struct Key: Hashable, Sendable {
        let certificate: DigestWords
        let flags: UInt64
        let rules: UInt64

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.certificate == rhs.certificate && lhs.flags == rhs.flags && lhs.rules == rhs.rules
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(certificate.w0 ^ (flags &* 0x9E37_79B9_7F4A_7C15) ^ (rules &* 0xC2B2_AE3D_27D4_EB4F))
        }
    }

    private struct Entry: Sendable {
        let verdict: Verdict
        var lastUse: UInt64
    }

    private struct State: Sendable {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// The most entries kept; the least recently used are evicted beyond it.
    public let capacity: Int
    private let state = Mutex(State())

    /// The process-wide cache used by ``ServerTrust``.
    public static let shared = ProfileVerdictCache(capacity: 4096)

    /// Creates a cache holding at most `capacity` verdicts.
    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The number of cached verdicts.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every entry.
    public func removeAll() { state.withLock { $0.entries.removeAll() } }

    /// The verdict for `certificate` under `flags`: remembered, or computed by `compute` and remembered.
    func verdict(for certificate: Certificate, flags: Flags, compute: () -> Verdict) -> Verdict {
        let packed = flags.packed
        let key = Key(certificate: DigestWords(certificate.sha256Fingerprint), flags: packed.position, rules: packed.rules)
        let known: Verdict? = state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.clock += 1
            state.entries.values[index].lastUse = state.clock
            return state.entries.values[index].verdict
        }
        if let known { return known }
        let verdict = compute()
        state.withLock { state in
            state.clock += 1
            state.entries[key] = Entry(verdict: verdict, lastUse: state.clock)
            if state.entries.count > capacity {
                // Evict the oldest eighth in one pass, so eviction stays amortised O(1) per insert.
                let cut = state.entries.values.map(\.lastUse).sorted()[state.entries.count / 8]
                state.entries = state.entries.filter { $0.value.lastUse > cut }
            }
        }
        return verdict
    }
}
