/// Which signature algorithms and key sizes ``SignatureVerifier`` accepts, and how the profiles treat
/// the legacy ones (SHA-1, RSA keys under ``minimumRSAModulusBits``).
///
/// By default (``default``, ``LegacyAlgorithms/asProfileDecides``) verification works as Apple's does:
/// SHA-1 signatures and RSA keys of 1024 bits or more verify, and whether a certificate may use them is
/// the profile's rule. Apple refuses them only in TLS server chains (`SecPolicyRemoveWeakHashOptions`,
/// `SecPolicyAddStrongKeySizeOptions`: the `signatureHashAlgorithm` and `strongKeySize` rules of the
/// `ssl` and `webpki` profiles); TLS client chains, BasicX509 and OCSP responses accept them.
/// RSA moduli under ``absoluteMinimumRSAModulusBits`` are never accepted.
public struct SignaturePolicy: Hashable, Sendable {
    /// RSA moduli smaller than this are rejected under every policy (Apple's `SecCertificateIsWeakKey`).
    public static let absoluteMinimumRSAModulusBits = 1024

    /// How SHA-1 and RSA keys between ``absoluteMinimumRSAModulusBits`` and ``minimumRSAModulusBits``
    /// are treated.
    public enum LegacyAlgorithms: Hashable, Sendable {
        /// They verify; the profile decides where they are refused (Apple's model, the default).
        case asProfileDecides
        /// Accepted everywhere: the profiles' rules against them are waived (old private PKIs).
        case allowed
        /// Refused in every signature an evaluation verifies (certificates, CRLs, OCSP responses),
        /// whatever the profile, with EC keys under 256 bits (P-192, P-224): stricter than Apple.
        case refused
    }

    /// How legacy algorithms are treated.
    public var legacyAlgorithms: LegacyAlgorithms

    /// The smallest RSA modulus, in bits, of a strong key: what the TLS server key-size rule requires
    /// (Apple's 2048), and, when legacy algorithms are ``LegacyAlgorithms/refused``, what verification
    /// requires of every key.
    public var minimumRSAModulusBits: Int = 2048

    /// Whether legacy algorithms are ``LegacyAlgorithms/allowed`` everywhere. Setting it to `false`
    /// refuses them everywhere (its meaning before the profiles decided).
    public var allowsLegacyAlgorithms: Bool {
        get { legacyAlgorithms == .allowed }
        set { legacyAlgorithms = newValue ? .allowed : .refused }
    }

    /// Creates a policy.
    public init(legacyAlgorithms: LegacyAlgorithms = .asProfileDecides, minimumRSAModulusBits: Int = 2048) {
        self.legacyAlgorithms = legacyAlgorithms
        self.minimumRSAModulusBits = minimumRSAModulusBits
    }

    /// Apple's model: legacy algorithms verify, the profile decides where they are refused.
    public static let `default` = SignaturePolicy()

    /// Legacy algorithms accepted everywhere, for old certificates (`trustctl --allow-legacy-algorithms`).
    public static let legacy = SignaturePolicy(legacyAlgorithms: .allowed)

    /// Legacy algorithms refused in every signature verified: no SHA-1, RSA keys of at least 2048 bits
    /// (SwiftTrust's default before it followed Apple).
    public static let modern = SignaturePolicy(legacyAlgorithms: .refused)

    /// Throws when `algorithm` or `key` is not acceptable under this policy.
    func check(_ algorithm: SignatureAlgorithm, key: PublicKeyDescription) throws(SignatureError) {
        let refusesLegacy = legacyAlgorithms == .refused
        if algorithm.isLegacy && refusesLegacy {
            throw .legacyAlgorithm(algorithm.description)
        }
        switch key.kind {
        case let .rsa(bits):
            if bits < SignaturePolicy.absoluteMinimumRSAModulusBits {
                throw .weakKey(bits: bits)
            }
            if bits < minimumRSAModulusBits && refusesLegacy {
                throw .weakKey(bits: bits)
            }
        case let .ec(curve) where curve.bits < 256 && refusesLegacy:
            // P-192 and P-224 (which Apple's BasicX509 accepts) are legacy curves too.
            throw .weakCurve(curve.description)
        default:
            break
        }
    }
}
