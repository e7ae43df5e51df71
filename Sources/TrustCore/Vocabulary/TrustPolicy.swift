import TrustDER
import TrustX509

/// Revocation-checking flags, mirroring Apple's `kSecRevocation*` options.
///
/// - Methods: `.ocsp`, `.crl`, or both (`.useAnyAvailableMethod`); neither means both.
/// - Soft fail (default): a revoked certificate fails; no fresh information is accepted.
/// - Hard fail (`.requirePositiveResponse`): the leaf needs fresh, authenticated proof of good
///   status, or evaluation fails (Apple's `SecPVCPathCheckRevocationResponsesReceived`); under the
///   RFC 5280 profiles every non-anchor certificate does (``ProfileRule/revocationProofForEveryCertificate``).
///   A revoked intermediate fails in either mode.
/// - `.preferCRL` changes only the order in which methods are fetched over the network.
/// - `.networkAccessDisabled`: only CRLs and OCSP responses supplied to the ``ServerTrust`` are used.
/// - A CRL for the certificate's issuer that fails integrity checks fails evaluation in either mode.
///
/// docs/revocation.md has the full table of combinations.
public struct RevocationOptions: OptionSet, Hashable, Sendable {
    /// The raw flags.
    public let rawValue: UInt32
    /// Creates options from raw flags.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    // Each method's flag (`.ocsp`, bit 0; `.crl`, bit 1; `.preferCRL`, bit 2) is declared in its
    // folder, `Revocation/Methods/`; a new method takes the next bit free (5).
    /// Fail unless the leaf (under the RFC 5280 profiles, every non-anchor certificate) has fresh proof
    /// of good status (`kSecRevocationRequirePositiveResponse`).
    public static let requirePositiveResponse = RevocationOptions(rawValue: 1 << 3)
    /// Use only supplied CRLs and OCSP responses, never the network (`kSecRevocationNetworkAccessDisabled`).
    public static let networkAccessDisabled = RevocationOptions(rawValue: 1 << 4)
    /// Use whichever method is available (`kSecRevocationUseAnyAvailableMethod`): every method's
    /// flag, `[.ocsp, .crl]`.
    public static var useAnyAvailableMethod: RevocationOptions { RevocationMethodRegistry.methodFlags }
}

/// What a trust evaluation checks, modelled on Apple's `SecPolicy` kinds. Every policy of a
/// ``ServerTrust`` must pass, as with `SecTrustSetPolicies`; each names the ``TrustProfile`` whose
/// rules it applies (docs/profiles.md lists every rule of every profile).
public enum TrustPolicy: Hashable, Sendable {
    /// Apple's SSL policy (`SecPolicyCreateSSL(server, hostname)`), the default: RFC 5280 path
    /// validation plus Apple's TLS checks. `server: true` checks a server certificate (serverAuth),
    /// `false` a client one (clientAuth); a non-nil `hostname` (DNS name or IP address) must match
    /// the leaf's subjectAltName.
    case ssl(server: Bool, hostname: String?)
    /// The strict web-PKI profile: Apple's SSL checks plus the CA/Browser Forum Baseline
    /// Requirements' certificate-profile rules (for those who want browser-grade strictness).
    case webPKI(server: Bool, hostname: String?)
    /// Apple's BasicX509 policy (`SecPolicyCreateBasicX509`): RFC 5280 path validation plus the
    /// checks Apple makes of every chain (``TrustProfile/basicX509``); no purpose, no host name.
    case basicX509
    /// Validation under any ``TrustProfile``, with an optional purpose (extendedKeyUsage) and
    /// reference identity: `.profile(.rfc5280, purpose: .serverAuth, hostname: "example.com")` is RFC
    /// 5280 path validation plus those two checks, without Apple's or the CA/Browser Forum's rules.
    case profile(TrustProfile, purpose: KeyPurpose?, hostname: String?)
    /// The leaf must name this mailbox in an rfc822Name subjectAltName (local part compared
    /// exactly, domain case-insensitively: `EmailAddress`). With `.ssl(server: false, hostname: nil)`
    /// it checks a TLS client certificate issued to a person; every `.email` policy must match.
    case email(String)
    /// Revocation checking with the given flags.
    case revocation(RevocationOptions)

    /// The policy that checks `profile`'s rules, `purpose` and `hostname` (a DNS name or IP address):
    /// the one mapping of profile × purpose × identity to a policy, for every caller (the transport's
    /// per-role policy, `trustctl`). Apple's SSL and the web-PKI profile with serverAuth or clientAuth
    /// are ``ssl(server:hostname:)`` and ``webPKI(server:hostname:)``; BasicX509 with neither purpose
    /// nor name is ``basicX509``; everything else is ``profile(_:purpose:hostname:)``.
    public init(profile: TrustProfile, purpose: KeyPurpose?, hostname: String?) {
        switch (profile, purpose) {
        case (.ssl, .serverAuth?): self = .ssl(server: true, hostname: hostname)
        case (.ssl, .clientAuth?): self = .ssl(server: false, hostname: hostname)
        case (.webPKI, .serverAuth?): self = .webPKI(server: true, hostname: hostname)
        case (.webPKI, .clientAuth?): self = .webPKI(server: false, hostname: hostname)
        case (.basicX509, nil) where hostname == nil: self = .basicX509
        default: self = .profile(profile, purpose: purpose, hostname: hostname)
        }
    }

    /// The profile whose rules this policy applies; nil for `.revocation`, which adds no profile.
    public var profile: TrustProfile? {
        switch self {
        case .ssl: return .ssl
        case .webPKI: return .webPKI
        case .basicX509: return .basicX509
        case let .profile(profile, _, _): return profile
        case .revocation, .email: return nil
        }
    }
}

/// The purpose a leaf must be fit for.
public enum KeyPurpose: Hashable, Sendable, CustomStringConvertible {
    /// TLS server authentication (id-kp-serverAuth).
    case serverAuth
    /// TLS client authentication (id-kp-clientAuth).
    case clientAuth
    /// Another extended key usage OID.
    case other(ASN1ObjectIdentifier)

    /// The EKU OID.
    public var oid: ASN1ObjectIdentifier {
        switch self {
        case .serverAuth: return OID.serverAuth
        case .clientAuth: return OID.clientAuth
        case let .other(oid): return oid
        }
    }

    /// `serverAuth`, `clientAuth` or the OID.
    public var description: String {
        switch self {
        case .serverAuth: return "serverAuth"
        case .clientAuth: return "clientAuth"
        case let .other(oid): return OID.name(of: oid)
        }
    }
}
