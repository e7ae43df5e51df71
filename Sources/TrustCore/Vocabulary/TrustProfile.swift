/// A named set of validation rules (docs/profiles.md lists every rule and the profiles that apply it).
///
/// Every profile applies RFC 5280 §6.1 path validation; the profiles differ in the
/// ``ProfileRule``s they add (``rules``). ``webPKI`` applies every rule of ``ssl`` and of
/// ``rfc5280Strict`` but four: nameConstraints may be non-critical under the CA/Browser Forum, and
/// three RFC 5280 strictnesses Apple relaxes (v1 intermediates under a v1 anchor, the critical
/// extensions trustd parses, revocation proof of the leaf only) follow Apple.
public enum TrustProfile: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// RFC 5280 §6.1 path validation, certificate policies included, nothing else: the profile NIST
    /// PKITS tests.
    case rfc5280
    /// RFC 5280 §6.1 plus RFC 5280 §4's certificate-profile MUSTs for every certificate, the trust
    /// anchor included (what pyca/cryptography enforces and x509-limbo's `rfc5280::` cases expect).
    case rfc5280Strict
    /// Apple's BasicX509 policy (`SecPolicyCreateBasicX509`, `SecPolicyAddBasicX509Options`): RFC 5280
    /// plus what Apple checks of every chain: the anchor's validity and CA flags, weak keys (RSA under
    /// 1024 bits, unknown key kinds), key-identifier linkage and non-empty subjects. SHA-1 and RSA
    /// keys of 1024 bits or more are accepted, as Apple accepts them outside TLS server chains.
    case basicX509
    /// RFC 5280 plus exactly Apple's SSL policy checks (`SecPolicyCreateSSL`), with Apple's scoping of
    /// which rules apply to every chain and which only to chains ending at a system-store anchor.
    case ssl
    /// Apple's SSL checks plus the CA/Browser Forum Baseline Requirements' certificate profile.
    case webPKI

    /// `rfc5280`, `rfc5280-strict`, `basic`, `ssl` or `webpki` (the names `trustctl --profile` takes).
    public var description: String {
        switch self {
        case .rfc5280: return "rfc5280"
        case .rfc5280Strict: return "rfc5280-strict"
        case .basicX509: return "basic"
        case .ssl: return "ssl"
        case .webPKI: return "webpki"
        }
    }

    /// The profile `trustctl --profile` names (``description``), case-insensitively.
    public init?(name: String) {
        switch name.lowercased() {
        case "rfc5280": self = .rfc5280
        case "rfc5280-strict", "rfc5280strict": self = .rfc5280Strict
        case "basic", "basicx509", "basic-x509": self = .basicX509
        case "ssl", "apple", "tls": self = .ssl
        case "webpki", "web-pki", "cabf": self = .webPKI
        default: return nil
        }
    }
}
