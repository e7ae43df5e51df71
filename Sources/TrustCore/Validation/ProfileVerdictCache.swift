import TrustCrypto
import TrustX509

/// A bounded, thread-safe memory of the per-certificate verdicts that depend on nothing but the
/// certificate's own bytes and a few flags: which critical extensions the validator does not
/// process (RFC 5280 §4.2) and which web-PKI profile rules (``TrustProfile/webPKI``: serial number,
/// names, extension criticality, SAN syntax, key type and size) the certificate breaks in a given
/// position. One entry holds the verdicts of every certificate of one chain, keyed by each
/// certificate's SHA-256 fingerprint and flags, in order (a `BoundedCache`;
/// ``TrustCaches/isEnabled`` switches it off).
///
/// Why it cannot change a verdict: every rule it remembers is a pure function of the DER bytes
/// (which the fingerprint identifies) and of the flags in the key — the certificate's position
/// (leaf, trust anchor, self-signed at the top of the chain), whether the caller allowed the
/// legacy common-name fallback, the minimum RSA modulus size, and whether the web-PKI profile is
/// on. A hit returns exactly what recomputing would. Nothing that depends on the verify date
/// (validity), the host name, the chain's other certificates (signatures, issuer rules, path
/// length, EKU chaining, name constraints) or revocation is ever stored: those are checked on
/// every evaluation. Certificates with and without problems are cached alike, since both answers
/// are equally deterministic. Keying a chain's verdicts on all of its positions adds nothing they
/// depend on that a per-certificate key lacked: the verdict of each position is still computed from
/// its own certificate and flags alone. (Audited: the computation in `PathValidator.staticVerdicts` reads the
/// certificate, the fixed set of extensions the validator understands, and the flags; of the
/// options it reads the profile switch, the common-name waiver and the signature policy's effective
/// minimum RSA size — 1024 bits when legacy algorithms are allowed — all of which are in the key,
/// unpacked, so no two distinct settings share an entry.)
public final class ProfileVerdictCache: Sendable {
    /// What one certificate in one position breaks, independent of time, host and neighbours.
    struct Verdict: Sendable {
        /// Names of critical extensions the validator does not process.
        let unhandledCriticalExtensions: [String]
        /// The name of an extension validation reads whose view did not decode (never expected;
        /// reported for every position, anchors included).
        let undecodableExtension: String?
        /// Web-PKI profile violations (empty when the profile is off).
        let profileViolations: [ProfileViolation]
    }

    /// The flags a verdict depends on, besides the certificate. With the profile off, every flag
    /// keeps its default: the critical-extension rule reads none of them.
    struct Flags: Hashable, Sendable {
        var isLeaf = false
        var isAnchor = false
        var isSelfSigned = false
        /// One of the purposes is TLS server authentication.
        var serverPurpose = false
        /// The chain ends at a root of the distribution's trust store (``AnchorSource/system``).
        var systemAnchored = false
        /// The chain ends at a root an administrator installed (``AnchorSource/administrator``).
        var administratorAnchored = false
        var allowsCommonNameFallback = false
        /// The signature policy allows legacy algorithms everywhere (waives the SHA-1 rule).
        var allowsLegacyAlgorithms = false
        /// The profile rules in force.
        var rules = ProfileRuleSet()
        var minimumRSABits = 0

        /// Three words instead of eight fields, hashed on every lookup. Only the hash is packed;
        /// equality (synthesised) compares every field exactly, so distinct settings never share an entry.
        func hash(into hasher: inout Hasher) {
            hasher.combine(rules.bits)
            hasher.combine(positionBits)
            hasher.combine(minimumRSABits)
        }

        /// The eight Boolean flags, one bit each.
        var positionBits: Int {
            (isLeaf ? 1 : 0) | (isAnchor ? 2 : 0) | (isSelfSigned ? 4 : 0) | (serverPurpose ? 8 : 0)
                | (systemAnchored ? 16 : 0) | (allowsCommonNameFallback ? 32 : 0) | (administratorAnchored ? 64 : 0)
                | (allowsLegacyAlgorithms ? 128 : 0)
        }
    }

    /// One certificate of a chain (by SHA-256) and the flags of its position.
    struct Position: Hashable, Sendable {
        let certificate: DigestWords
        let flags: Flags
    }

    /// Everything the verdicts of one chain depend on: every certificate's bytes and flags, in order.
    /// One entry per chain rather than per certificate, so that a chain seen before costs one lookup
    /// (one hash, one lock) instead of one per certificate.
    private struct Key: Hashable, Sendable {
        let positions: [Position]

        /// One word per position: a digest word (already uniform) with the position's bits folded in,
        /// and the settings shared by a chain's positions once. Only the hash is abridged; equality
        /// (synthesised) compares every field of every position exactly, so distinct keys never share
        /// an entry (a hash that ignores a field is still consistent with `==`).
        func hash(into hasher: inout Hasher) {
            hasher.combine(positions.count)
            for position in positions {
                hasher.combine(position.certificate.w0 ^ UInt64(truncatingIfNeeded: position.flags.positionBits))
            }
            if let first = positions.first {
                hasher.combine(first.flags.rules.bits)
                hasher.combine(first.flags.minimumRSABits)
            }
        }
    }

    private let verdicts: BoundedCache<Key, [Verdict]>

    /// The most entries (chains) kept; the least recently used are evicted beyond it.
    public var capacity: Int { verdicts.capacity }

    /// The process-wide cache used by ``ServerTrust``.
    public static let shared = ProfileVerdictCache(capacity: 4096)

    /// Creates a cache holding the verdicts of at most `capacity` chains.
    public init(capacity: Int) { verdicts = BoundedCache(capacity: capacity) }

    /// The number of chains whose verdicts are cached; for the tests and benchmarks.
    @_spi(Testing) public var count: Int { verdicts.count }

    /// Forgets every entry.
    public func removeAll() { verdicts.removeAll() }

    /// The verdicts for the certificates of one chain in the positions `positions` describe (one per
    /// certificate, in order): remembered, or computed by `compute` and remembered. `compute` must
    /// read nothing but the certificates and the flags of `positions`, and return one verdict per position.
    func verdicts(for positions: [Position], compute: () -> [Verdict]) -> [Verdict] {
        verdicts.value(forKey: Key(positions: positions), orCompute: compute)
    }
}
