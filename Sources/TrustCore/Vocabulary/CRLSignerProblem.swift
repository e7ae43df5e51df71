import TrustCrypto
import TrustX509

/// Why a certificate with a CRL issuer's name and key cannot be the CRL's signer
/// (RFC 5280 §6.3.3 (f), (g)).
public enum CRLSignerProblem: Hashable, Sendable, CustomStringConvertible {
    /// The candidate `signer`'s keyUsage is present and lacks cRLSign (RFC 5280 §4.2.1.3).
    case keyUsageLacksCRLSign(signer: DistinguishedName)
    /// The candidate `signer`'s key does not verify the CRL's signature.
    case signatureNotVerified(signer: DistinguishedName, error: SignatureError)
    /// The candidate `signer` is not on the chain, and its own path to the chain's trust anchor does
    /// not validate: `firstFailure` is the first failure of that path's best attempt, nil when no
    /// path from the signer to the anchor could be built at all.
    case noValidPath(signer: DistinguishedName, firstFailure: TrustFailure?)

    /// e.g. `CN=CRL signer's keyUsage lacks cRLSign`.
    public var description: String {
        switch self {
        case let .keyUsageLacksCRLSign(signer): return "\(signer)'s keyUsage lacks cRLSign"
        case let .signatureNotVerified(signer, error): return "signature not made by \(signer)'s key: \(error)"
        case let .noValidPath(signer, firstFailure):
            return "CRL signer \(signer) has no valid path to the trust anchor: \(firstFailure.map(\.description) ?? "no path")"
        }
    }
}
