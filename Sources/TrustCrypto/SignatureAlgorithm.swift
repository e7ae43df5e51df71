/// A signature algorithm as named by an X.509 AlgorithmIdentifier.
///
/// Build one from DER with ``init(algorithmIdentifier:)``; the cases can also be used
/// directly.
public enum SignatureAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 with the given hash (RFC 8017 §8.2).
    case rsaPKCS1v15(DigestAlgorithm)
    /// RSASSA-PSS (RFC 8017 §8.1) with the message hash, the MGF1 hash and the exact salt length in bytes.
    case rsaPSS(hash: DigestAlgorithm, mgf1Hash: DigestAlgorithm, saltLength: Int)
    /// ECDSA with the given hash (RFC 5758 §3.2).
    case ecdsa(DigestAlgorithm)
    /// Ed25519 (RFC 8410; pure EdDSA, no pre-hash).
    case ed25519
    /// Ed448 (RFC 8410; pure EdDSA, no pre-hash).
    case ed448

    /// The hash applied to the message, or nil for EdDSA (whose hashing is part of the scheme).
    public var digest: DigestAlgorithm? {
        switch self {
        case let .rsaPKCS1v15(digest), let .ecdsa(digest): return digest
        case let .rsaPSS(hash, _, _): return hash
        case .ed25519, .ed448: return nil
        }
    }

    /// Whether the algorithm relies on SHA-1 anywhere (message hash or MGF1 hash).
    public var isLegacy: Bool {
        switch self {
        case let .rsaPKCS1v15(digest), let .ecdsa(digest): return digest == .sha1
        case let .rsaPSS(hash, mgf1Hash, _): return hash == .sha1 || mgf1Hash == .sha1
        case .ed25519, .ed448: return false
        }
    }

    /// The conventional name, e.g. `sha256WithRSAEncryption`, `ecdsa-with-SHA384`,
    /// `RSASSA-PSS (SHA-256, MGF1 with SHA-256, salt 32)` or `Ed25519`.
    public var description: String {
        switch self {
        case let .rsaPKCS1v15(digest):
            return "\(digest.compactName)WithRSAEncryption"
        case let .rsaPSS(hash, mgf1Hash, saltLength):
            return "RSASSA-PSS (\(hash), MGF1 with \(mgf1Hash), salt \(saltLength))"
        case let .ecdsa(digest):
            return "ecdsa-with-\(digest.compactName.uppercased())"
        case .ed25519:
            return "Ed25519"
        case .ed448:
            return "Ed448"
        }
    }
}

extension DigestAlgorithm {
    /// The spelling used inside OID names: `sha1`, `sha256` …
    var compactName: String {
        switch self {
        case .sha1: return "sha1"
        case .sha256: return "sha256"
        case .sha384: return "sha384"
        case .sha512: return "sha512"
        }
    }
}
