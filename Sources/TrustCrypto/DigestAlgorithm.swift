/// A hash function used for digests and inside signature algorithms.
public enum DigestAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// SHA-1 (FIPS 180-4). Collision-broken: accepted in signatures only as a legacy algorithm.
    case sha1
    /// SHA-256 (FIPS 180-4).
    case sha256
    /// SHA-384 (FIPS 180-4).
    case sha384
    /// SHA-512 (FIPS 180-4).
    case sha512

    /// The length of the digest in bytes (20, 32, 48 or 64).
    public var outputByteCount: Int {
        switch self {
        case .sha1: return 20
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The conventional name, e.g. `SHA-256`.
    public var description: String {
        switch self {
        case .sha1: return "SHA-1"
        case .sha256: return "SHA-256"
        case .sha384: return "SHA-384"
        case .sha512: return "SHA-512"
        }
    }
}
