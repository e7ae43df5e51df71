/// A JWK entry of a SPIFFE bundle that a reader of X.509 authorities passes over, as
/// spiffe/spiffe `SPIFFE_Trust_Domain_and_Bundle.md` §4.2 and `X509-SVID.md` §6.2 require (an
/// entry of another SVID type, of an unknown key type or use, without a certificate), or the extra
/// certificates of an entry that has more than one.
public struct SPIFFEBundleIgnoredEntry: Hashable, Sendable, CustomStringConvertible {
    /// Why an entry, or part of it, is not used.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// `"use": "jwt-svid"`: a JWT-SVID authority, not an X.509 one.
        case jwtSVID
        /// No `use` parameter (§4.2.2: the entry MUST be ignored).
        case missingUse
        /// A `use` other than `x509-svid` and `jwt-svid` (§4.2.2: ignored).
        case unknownUse(String)
        /// An `x509-svid` entry without `kty` (§4.2.1: it MUST be set; the entry is not used).
        case missingKeyType
        /// An `x509-svid` entry whose `kty` is not EC, RSA or OKP (§4.2.1: ignored).
        case unknownKeyType(String)
        /// An `x509-svid` entry without an `x5c` value (X509-SVID §6.2: ignored).
        case noCertificate
        /// An `x509-svid` entry whose `x5c` holds `count` certificates: all but the first are
        /// ignored (X509-SVID §6.2).
        case extraCertificates(count: Int)

        /// The reason and its section.
        public var description: String {
            switch self {
            case .jwtSVID: return "a jwt-svid key, not an X.509 authority"
            case .missingUse: return "no \"use\" (ignored, SPIFFE bundle §4.2.2)"
            case let .unknownUse(use): return "unknown use \"\(TerminalText.escaped(use))\" (ignored, SPIFFE bundle §4.2.2)"
            case .missingKeyType: return "x509-svid key without \"kty\" (ignored, SPIFFE bundle §4.2.1)"
            case let .unknownKeyType(kty): return "unknown key type \"\(TerminalText.escaped(kty))\" (ignored, SPIFFE bundle §4.2.1)"
            case .noCertificate: return "x509-svid key without an x5c certificate (ignored, X509-SVID §6.2)"
            case let .extraCertificates(count): return "x5c holds \(count) certificates; all but the first are ignored (X509-SVID §6.2)"
            }
        }
    }

    /// The entry's position in `keys`, from 0.
    public let index: Int
    /// Why it is passed over.
    public let reason: Reason

    /// Creates a record.
    public init(index: Int, reason: Reason) {
        self.index = index
        self.reason = reason
    }

    /// `keys[2]: a jwt-svid key, not an X.509 authority`.
    public var description: String { "keys[\(index)]: \(reason)" }
}
