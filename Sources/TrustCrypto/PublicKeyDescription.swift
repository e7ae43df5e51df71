import TrustDER

/// What a SubjectPublicKeyInfo holds — algorithm, size or curve — decoded in pure Swift.
///
/// Parsing validates the key's structure strictly (RFC 3279, RFC 5480, RFC 8410) but does
/// not touch libcrypto; ``VerificationKey`` builds on it.
public struct PublicKeyDescription: Hashable, Sendable, CustomStringConvertible {
    /// The key's algorithm and size.
    public enum Kind: Hashable, Sendable {
        /// An RSA key (`rsaEncryption`) with the exact bit length of its modulus.
        case rsa(modulusBits: Int)
        /// An EC key (`id-ecPublicKey`) on a named curve.
        case ec(curve: NamedCurve)
        /// An Ed25519 key (32 bytes).
        case ed25519
        /// An Ed448 key (57 bytes).
        case ed448
        /// A key algorithm this library does not verify with, by dotted OID.
        case unknown(algorithmOID: String)
    }

    /// The named elliptic curves accepted for EC keys: the NIST prime curves Apple's corecrypto knows
    /// (`ccec_cp_for_oid`: P-192, P-224, P-256, P-384, P-521). Which sizes a chain may use is the
    /// profile's rule (Apple's 160-bit minimum everywhere, 256 bits in TLS server chains, P-256/384/521
    /// in the web PKI).
    public enum NamedCurve: Hashable, Sendable, CustomStringConvertible {
        /// NIST P-192 (secp192r1, prime192v1).
        case p192
        /// NIST P-224 (secp224r1).
        case p224
        /// NIST P-256 (secp256r1, prime256v1).
        case p256
        /// NIST P-384 (secp384r1).
        case p384
        /// NIST P-521 (secp521r1).
        case p521

        /// The length of a field element (and of the group order) in bytes: 24, 28, 32, 48 or 66.
        public var coordinateByteCount: Int {
            switch self {
            case .p192: return 24
            case .p224: return 28
            case .p256: return 32
            case .p384: return 48
            case .p521: return 66
            }
        }

        /// The curve's size in bits: 192, 224, 256, 384 or 521.
        public var bits: Int {
            switch self {
            case .p192: return 192
            case .p224: return 224
            case .p256: return 256
            case .p384: return 384
            case .p521: return 521
            }
        }

        /// The NIST name, e.g. `P-256`.
        public var description: String { "P-\(bits)" }
    }

    /// The key's algorithm and size.
    public let kind: Kind

    /// Describes an already-known kind of key.
    public init(kind: Kind) {
        self.kind = kind
    }

    /// A short label: `RSA 2048`, `ECDSA P-256`, `Ed25519`, `Ed448`, or
    /// `unknown key algorithm <OID>`.
    public var description: String {
        switch kind {
        case let .rsa(bits): return "RSA \(bits)"
        case let .ec(curve): return "ECDSA \(curve)"
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        case let .unknown(oid): return "unknown key algorithm \(oid)"
        }
    }
}
