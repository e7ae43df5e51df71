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
    /// SPIFFE X.509-SVIDs (spiffe/spiffe `standards/X509-SVID.md`): RFC 5280 path validation (the
    /// rules of ``rfc5280``), signing certificates that are CAs, the trust anchor included
    /// (``ProfileRule/anchorIsCA``, X509-SVID §4.1), and the SVID rules: one URI subjectAltName that
    /// is a SPIFFE ID with a path, a leaf that is no CA, with keyUsage digitalSignature and neither
    /// keyCertSign nor cRLSign, signing certificates with keyUsage.
    ///
    /// The peer's identity is its SPIFFE ID, not a host name: TLS settings under this profile check
    /// no host name (authorise the ID after validation). Extended key usage: X509-SVID §4.4 says a
    /// leaf SHOULD carry it and, when it does, lists both serverAuth and clientAuth; go-spiffe's
    /// `x509svid.Verify` checks none (`ExtKeyUsageAny`). A TLS peer is checked for its role's purpose
    /// as RFC 5280 §4.2.1.12 reads it (``TrustPolicy/profile(_:purpose:hostname:)`` with serverAuth or
    /// clientAuth): a leaf without the extension passes, one that lists the purpose passes (every
    /// conforming SVID does), one that lists only the other purpose fails. Intermediates' extended
    /// key usage is not chained (§4.4: libraries differ; go-spiffe does not chain it).
    case spiffe

    /// `rfc5280`, `rfc5280-strict`, `basic`, `ssl`, `webpki` or `spiffe` (the names `trustctl --profile` takes).
    public var description: String {
        switch self {
        case .rfc5280: return "rfc5280"
        case .rfc5280Strict: return "rfc5280-strict"
        case .basicX509: return "basic"
        case .ssl: return "ssl"
        case .webPKI: return "webpki"
        case .spiffe: return "spiffe"
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
        case "spiffe", "x509-svid": self = .spiffe
        default: return nil
        }
    }
}
