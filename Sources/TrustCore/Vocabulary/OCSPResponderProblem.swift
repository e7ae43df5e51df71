import TrustCrypto
import TrustX509

/// Why an OCSP response's signer is not an authorised responder for the certificate's issuer
/// (RFC 6960 §3.2 (2)–(4), §4.2.2.2).
public enum OCSPResponderProblem: Hashable, Sendable, CustomStringConvertible {
    /// The ResponderID names the issuer, whose key does not verify the signature.
    case issuerSignatureNotVerified(SignatureError)
    /// The responder certificate `delegate` is not signed by the issuer's key.
    case delegateNotIssuedByIssuer(delegate: DistinguishedName, issuer: DistinguishedName)
    /// The responder certificate `delegate` lacks id-kp-OCSPSigning.
    case delegateLacksOCSPSigning(delegate: DistinguishedName)
    /// The responder certificate `delegate` is not valid at the verify date.
    case delegateNotValidAtVerifyDate(delegate: DistinguishedName)
    /// The responder certificate's key does not verify the signature.
    case delegateSignatureNotVerified(SignatureError)
    /// A certificate in the response matches the ResponderID but names another issuer than `issuer`.
    case responderNotIssuedByIssuer(issuer: DistinguishedName)
    /// Neither the issuer nor any certificate in the response matches the ResponderID.
    case unknownResponder

    /// e.g. `signed by an unknown responder`.
    public var description: String {
        switch self {
        case let .issuerSignatureNotVerified(error): return "signature by the issuer does not verify: \(error)"
        case let .delegateNotIssuedByIssuer(delegate, issuer): return "responder certificate \(delegate) is not issued by \(issuer)"
        case let .delegateLacksOCSPSigning(delegate): return "responder certificate \(delegate) lacks id-kp-OCSPSigning (RFC 6960 §4.2.2.2)"
        case let .delegateNotValidAtVerifyDate(delegate): return "responder certificate \(delegate) is not valid at the verify date"
        case let .delegateSignatureNotVerified(error): return "signature by the delegated responder does not verify: \(error)"
        case let .responderNotIssuedByIssuer(issuer): return "responder certificate is not issued by \(issuer)"
        case .unknownResponder: return "signed by an unknown responder"
        }
    }
}
