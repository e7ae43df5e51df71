/// Why an algorithm, key or signature was rejected.
public enum SignatureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The algorithm (given as a dotted OID or a name) is not one this library verifies.
    case unsupportedAlgorithm(String)
    /// An AlgorithmIdentifier or its parameters violate RFC 3279 / 4055 / 5480 / 8410 or DER.
    case malformedAlgorithmParameters(String)
    /// A SubjectPublicKeyInfo or the key inside it is malformed.
    case malformedKey(String)
    /// An EC key spells out its curve instead of naming it (forbidden by RFC 5480 §2.1.1).
    case explicitCurveParameters
    /// An EC key names a curve (dotted OID) other than the NIST P-192, P-224, P-256, P-384 or P-521.
    case unsupportedCurve(String)
    /// An RSA public exponent (in decimal, or its size when longer than 64 bits) that is even, below 3
    /// or above ``PublicKeyDescription/maximumRSAPublicExponent`` (2^33 − 1, as ring and BoringSSL).
    case unsupportedRSAPublicExponent(String)
    /// The signature algorithm cannot be used with the key's type.
    case keyAlgorithmMismatch(algorithm: String, key: String)
    /// The algorithm (named) relies on SHA-1 and the policy does not allow legacy algorithms.
    case legacyAlgorithm(String)
    /// The RSA modulus is smaller than the policy allows.
    case weakKey(bits: Int)
    /// The EC key's curve (e.g. `P-224`) is smaller than the policy allows (``SignaturePolicy/modern``: P-256).
    case weakCurve(String)
    /// The signature does not verify (wrong key, altered data, or a malformed signature value).
    case invalidSignature
    /// libcrypto failed for a reason unrelated to the input (for example, allocation failure).
    case cryptoFailure(String)

    /// A one-line, human-readable explanation.
    public var description: String {
        switch self {
        case let .unsupportedAlgorithm(oid):
            return "unsupported algorithm \(oid)"
        case let .malformedAlgorithmParameters(reason):
            return "malformed algorithm identifier: \(reason)"
        case let .malformedKey(reason):
            return "malformed public key: \(reason)"
        case .explicitCurveParameters:
            return "EC public key uses explicit curve parameters; only named curves (P-256, P-384, P-521) are accepted (RFC 5480)"
        case let .unsupportedCurve(oid):
            return "unsupported elliptic curve \(oid); only P-256, P-384 and P-521 are accepted"
        case let .unsupportedRSAPublicExponent(exponent):
            return "RSA public exponent \(exponent) is not accepted: it must be odd, at least 3 and at most 2^33 − 1"
        case let .keyAlgorithmMismatch(algorithm, key):
            return "signature algorithm \(algorithm) cannot be used with a \(key) key"
        case let .legacyAlgorithm(name):
            return "signature algorithm \(name) is disabled (SHA-1); enable legacy algorithms to accept it"
        case let .weakCurve(curve):
            return "EC key on \(curve) is below the policy's minimum curve (P-256); enable legacy algorithms to accept it"
        case let .weakKey(bits):
            if bits < SignaturePolicy.absoluteMinimumRSAModulusBits {
                return "RSA key of \(bits) bits is too weak and is never accepted (minimum \(SignaturePolicy.absoluteMinimumRSAModulusBits) bits)"
            }
            return "RSA key of \(bits) bits is below the policy's minimum modulus size; enable legacy algorithms to accept it"
        case .invalidSignature:
            return "signature is invalid"
        case let .cryptoFailure(reason):
            return "libcrypto failure: \(reason)"
        }
    }
}
