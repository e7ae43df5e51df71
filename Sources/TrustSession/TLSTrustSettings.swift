import Foundation
import TrustCore
import TrustHTTP
import TrustX509

/// How each connection's `ServerTrust` is configured before it is judged: the anchors, extra
/// intermediates, verify date, profile and revocation checking that `SecTrustSetAnchorCertificates`,
/// `SecTrustSetVerifyDate` and `SecPolicyCreateRevocation` set on Apple's platforms.
///
/// Evaluators (TrustPinning's `TLSTrustJudge.evaluator(_:)`) and security policies judge a trust configured this
/// way: `DefaultTrustEvaluator` trusts these anchors, for instance.
///
/// ```swift
/// var settings = TLSTrustSettings()
/// settings.anchors = try Certificate.loadAll(from: rootBytes)   // only these roots
/// settings.revocation = .useAnyAvailableMethod                   // fetched off the event loop
/// ```
public struct TLSTrustSettings: Sendable {
    /// Anchors, intermediates, verify date, options (profile, revocation, limits, RFC 5280 inputs)
    /// and supplied revocation information: the one value each connection's `ServerTrust` is
    /// created with (``trustOptions`` aside). The accessors below read and write it.
    public var configuration = TrustConfiguration()
    /// The trust anchors (``configuration``'s); nil (the default) trusts the system trust store.
    public var anchors: [Certificate]? {
        get { configuration.anchors }
        set { configuration.anchors = newValue }
    }
    /// Where each handshake's anchors come from when they change while the process runs
    /// (``ReloadingTrustAnchors``) or depend on the peer (SPIFFE trust bundles by trust domain): read
    /// once per handshake, and used for every evaluation of it, as ``anchors`` would be (with
    /// ``anchorsOnly``). Setting both this and ``anchors`` is refused (`TLSTrustDecider.init`).
    public var anchorProvider: (any TrustAnchorProvider)?
    /// Who the peer must be once its chain validated: a rule on the verified leaf's names (SPIFFE ID,
    /// DNS name, URI, IP address, e-mail, subject attribute), checked inside the decision, so a peer
    /// it refuses fails the handshake with ``TLSTrustFailure/identityNotAllowed(_:)``. nil (the
    /// default) allows every peer the chain validation trusts. A judge that accepts without
    /// evaluating cannot be combined with it (`TLSTrustConfigurationError.identityRuleNeedsEvaluation`).
    public var requiredIdentity: IdentityRule?
    /// Whether ``anchors``, when set, are the only anchors (``configuration``'s,
    /// `SecTrustSetAnchorCertificatesOnly`). Default true, as after `SecTrustSetAnchorCertificates`;
    /// false trusts the system trust store besides them.
    public var anchorsOnly: Bool {
        get { configuration.anchorsOnly }
        set { configuration.anchorsOnly = newValue }
    }
    /// Whether clients (mutual TLS) may chain to the system trust store. Default false: verifying a
    /// client needs explicit ``anchors`` (or an ``anchorProvider``) with ``anchorsOnly`` (the CA that issues the clients'
    /// certificates), as rustls' client verifier needs its roots; otherwise any publicly trusted
    /// certificate whose EKU allows clientAuth would get in. Set it only to trust exactly that.
    public var systemStoreTrustsClients = false
    /// Untrusted intermediates to build paths with, beyond those the peer presented (``configuration``'s).
    public var additionalIntermediates: [Certificate] {
        get { configuration.additionalIntermediates }
        set { configuration.additionalIntermediates = newValue }
    }
    /// The instant validity is checked at (``configuration``'s); nil means the time of the handshake.
    public var verifyDate: Date? {
        get { configuration.verifyDate }
        set { configuration.verifyDate = newValue }
    }
    /// ``configuration``'s options: profile (nil: each judge's own policy decides, Apple's SSL policy
    /// for a plain evaluation), revocation, limits, signature policy, RFC 5280 policy inputs, public
    /// suffixes. Every connection's trust gets them (``trustOptions``), and no judge can drop them.
    public var options: TrustOptions {
        get { configuration.options }
        set { configuration.options = newValue }
    }
    /// Revocation checking (`SecPolicyCreateRevocation`); nil (the default) checks none. Without
    /// `.networkAccessDisabled` the verifier fetches CRLs and OCSP responses through
    /// ``revocationFetching``, off the event loop. ``options``' revocation.
    public var revocation: RevocationOptions? {
        get { configuration.options.revocation }
        set { configuration.options.revocation = newValue }
    }
    /// How revocation information (and missing issuers) is fetched, and where what was fetched is
    /// kept: the value set here, else `RevocationFetching.shared` (`HTTPRevocationFetcher.shared`
    /// with `FetchCache.shared`), its fetcher allowing local addresses when
    /// ``fetchesFromLocalAddresses``. Set a fetcher and its cache together
    /// (`RevocationFetching(fetcher: mine, cache: nil)` caches nothing); setting only
    /// `revocationFetching.fetcher` keeps the cache this property had.
    public var revocationFetching: RevocationFetching {
        get {
            customFetching ?? (fetchesFromLocalAddresses ? RevocationFetching.sharedAllowingLocalAddresses : RevocationFetching.shared)
        }
        set { customFetching = newValue }
    }
    private var customFetching: RevocationFetching?
    /// Whether the default fetcher may connect to loopback, link-local and private-use addresses
    /// for every fetch: CRLs, OCSP and caIssuers, of servers and clients. Default false. A
    /// ``revocationFetching`` set explicitly is used as it is. Clients
    /// verified against explicit ``anchors`` alone have their CRL and OCSP URLs fetched from local
    /// addresses without it (`ServerTrust.revocationFetchesMayReachLocalAddresses`, set in
    /// ``configure`` to change that; docs/revocation.md, "Local addresses").
    public var fetchesFromLocalAddresses = false
    /// How long one handshake's verification may spend fetching revocation information, all of it:
    /// every CRL and OCSP request, every URL, waiting for a request slot and resolving host names.
    /// When it passes, fetching stops and the peer is judged on what was fetched: a status left
    /// unknown is accepted only in soft-fail mode (a failure under `.requirePositiveResponse`).
    /// Default `ServerTrust.defaultRevocationFetchDeadline` (5 s, our choice); a judge's own
    /// fetching (Alamofire's `RevocationTrustEvaluator`) shares the same deadline.
    public var revocationFetchDeadline: Duration = ServerTrust.defaultRevocationFetchDeadline
    /// Anything else to do to each connection's trust (supply CRLs or OCSP responses, …), applied last.
    public var configure: (@Sendable (ServerTrust) -> Void)?

    /// Settings that trust the system store, at the time of the handshake, under Apple's SSL policy.
    public init() {}

    /// Settings that trust only `anchors`.
    public init(anchors: [Certificate]) {
        configuration = TrustConfiguration(anchors: anchors)
    }

    /// Settings for `configuration`.
    public init(configuration: TrustConfiguration) {
        self.configuration = configuration
    }

    /// The profile the role's policy names: ``options``' profile, Apple's SSL policy when none is set.
    var identityProfile: TrustProfile { configuration.options.profile ?? .ssl }

    /// Whether an evaluation under these settings may use the network (and so must not run on an event loop).
    var mayFetchRevocation: Bool {
        guard let revocation else { return false }
        return !revocation.contains(.networkAccessDisabled)
    }

    /// The policy that names `role`'s purpose and identity under ``identityProfile``
    /// (`TrustPolicy.init(profile:purpose:hostname:)`).
    func identityPolicy(for role: TLSPeerRole) -> TrustPolicy {
        let profile = identityProfile
        switch role {
        // An X.509-SVID names its peer by SPIFFE ID, not host name: none is checked. The role's purpose
        // is, as RFC 5280 §4.2.1.12 reads it (a conforming SVID lists both or no EKU: TrustProfile.spiffe).
        case let .server(host): return TrustPolicy(profile: profile, purpose: .serverAuth, hostname: profile == .spiffe ? nil : host)
        case .client: return TrustPolicy(profile: profile, purpose: .clientAuth, hostname: nil)
        }
    }

    /// The policies a plain evaluation under these settings checks for `role`: the identity policy
    /// alone; the profile and revocation are ``trustOptions``, which no judge can drop.
    func policies(for role: TLSPeerRole) -> [TrustPolicy] {
        [identityPolicy(for: role)]
    }

    /// What every evaluation of a connection's trust enforces, whichever judge decides: the profile
    /// (`TrustProfile.ssl`, the default, adds nothing: each judge's own policy decides, as on
    /// Apple's platforms) and the revocation flags.
    public var trustOptions: TrustOptions {
        var options = options
        if options.profile == .ssl { options.profile = nil }
        return options
    }

    /// A trust for `presented` (leaf first) created with ``configuration`` (its options as
    /// ``trustOptions``) and `role`'s policies, then given to ``configure``.
    func makeTrust(presented: [Certificate], role: TLSPeerRole) -> ServerTrust {
        var configuration = configuration
        configuration.options = trustOptions
        // A client's caIssuers URL is never fetched: before its CertificateVerify, anyone can present
        // any certificate, and would choose what the server requests.
        if case .client = role { configuration.options.fetchesMissingIssuers = false }
        let trust = ServerTrust(certificates: presented, policies: policies(for: role), configuration: configuration)
        // A client chain validated to explicit anchors alone: its CRL and OCSP URLs were signed by the
        // CA that issues the clients and may reach local addresses (a private PKI's own network).
        if case .client = role, hasExplicitAnchors, anchorsOnly, !systemStoreTrustsClients {
            trust.revocationFetchesMayReachLocalAddresses = true
        }
        configure?(trust)
        return trust
    }
}
