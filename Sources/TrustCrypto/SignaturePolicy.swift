/// Which algorithms and key sizes ``SignatureVerifier`` accepts.
///
/// By default SHA-1 (anywhere in the algorithm) and RSA moduli under
/// ``minimumRSAModulusBits`` are rejected. Allowing legacy algorithms accepts SHA-1 and RSA
/// moduli down to ``absoluteMinimumRSAModulusBits``; keys below that are never accepted.
public struct SignaturePolicy: Hashable, Sendable {
    /// RSA moduli smaller than this are rejected under every policy.
    public static let absoluteMinimumRSAModulusBits = 1024

    /// Whether SHA-1-based signatures and RSA keys smaller than ``minimumRSAModulusBits``
    /// (but at least ``absoluteMinimumRSAModulusBits``) are accepted.
    public var allowsLegacyAlgorithms: Bool

    /// The smallest RSA modulus, in bits, accepted when legacy algorithms are not allowed.
    public var minimumRSAModulusBits: Int = 2048

    /// Creates a policy.
    public init(allowsLegacyAlgorithms: Bool = false, minimumRSAModulusBits: Int = 2048) {
        self.allowsLegacyAlgorithms = allowsLegacyAlgorithms
        self.minimumRSAModulusBits = minimumRSAModulusBits
    }

    /// Modern algorithms only: no SHA-1, RSA keys of at least 2048 bits.
    public static let `default` = SignaturePolicy()

    /// Also accepts SHA-1 and RSA keys of 1024 bits or more, for old certificates.
    public static let legacy = SignaturePolicy(allowsLegacyAlgorithms: true)

    /// Throws when `algorithm` or `key` is not acceptable under this policy.
    func check(_ algorithm: SignatureAlgorithm, key: PublicKeyDescription) throws(SignatureError) {
        if algorithm.isLegacy && !allowsLegacyAlgorithms {
            throw .legacyAlgorithm(algorithm.description)
        }
        if case let .rsa(bits) = key.kind {
            if bits < SignaturePolicy.absoluteMinimumRSAModulusBits {
                throw .weakKey(bits: bits)
            }
            if bits < minimumRSAModulusBits && !allowsLegacyAlgorithms {
                throw .weakKey(bits: bits)
            }
        }
    }
}
