import TrustCrypto
import TrustX509

/// A bounded, thread-safe memory of signature mathematics already done: "libcrypto verified the
/// signature of this exact certificate with this exact issuer key", keyed by SHA-256 of the issuer's
/// SPKI and SHA-256 of the whole child certificate (which covers the signed bytes, the signature
/// algorithm and the signature value). The value is the signature algorithm decoded from the child,
/// so that a hit needs no decoding to apply the policy.
///
/// Why it cannot change a verdict: an entry records the result of a pure function of exactly what
/// its key identifies — the key bytes, the algorithm, the signed bytes and the signature — and nothing
/// else. The ``SignaturePolicy`` (legacy algorithms, minimum RSA size) is deliberately not part of the
/// entry: the validator applies it to every hit, on every evaluation, so a signature remembered
/// under a lenient policy is still rejected under a strict one. Everything time-
/// or context-dependent — validity at the verify date, host name, EKU, name constraints, revocation,
/// anchors — is checked on every evaluation too. Failures are never cached.
public final class SignatureCache: Sendable {
    /// Keyed by ``SignedBy``: SHA-256 digests packed into words, so hashing and comparing a key is a
    /// handful of integer operations.
    private let entries: BoundedCache<SignedBy, SignatureAlgorithm>

    /// The most entries kept; the least recently used are evicted beyond it.
    public var capacity: Int { entries.capacity }

    /// The process-wide cache used by ``ServerTrust``.
    public static let shared = SignatureCache(capacity: 4096)

    /// Creates a cache holding at most `capacity` verified signatures.
    public init(capacity: Int) { entries = BoundedCache(capacity: capacity) }

    /// The number of cached verified signatures; for the tests and benchmarks.
    @_spi(Testing) public var count: Int { entries.count }

    /// Forgets every entry.
    public func removeAll() { entries.removeAll() }

    /// The signature algorithm of `child` if libcrypto already verified its signature with `issuer`'s
    /// key, else nil. Says nothing about whether the signature policy accepts the algorithm or key: the
    /// caller checks that on every use (``SignatureVerifier/checkAcceptable(algorithm:key:policy:)``).
    func verifiedAlgorithm(child: Certificate, issuer: Certificate) -> SignatureAlgorithm? {
        entries.value(forKey: SignedBy(child, by: issuer))
    }

    /// Records that libcrypto verified `child`'s signature, made with `algorithm` (decoded from
    /// `child`), with `issuer`'s key.
    func recordVerified(child: Certificate, issuer: Certificate, algorithm: SignatureAlgorithm) {
        entries.insert(algorithm, forKey: SignedBy(child, by: issuer))
    }
}
