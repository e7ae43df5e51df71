import Foundation
import TrustCore
import TrustX509

/// How each connection's `ServerTrust` is configured before it is judged: the anchors, extra
/// intermediates, verify date, profile and revocation checking that `SecTrustSetAnchorCertificates`,
/// `SecTrustSetVerifyDate` and `SecPolicyCreateRevocation` set on Apple's platforms.
///
/// Evaluators (``TLSTrustJudge/evaluator(_:)``) and security policies judge a trust configured this
/// way: `DefaultTrustEvaluator` trusts these anchors, for instance.
///
/// ```swift
/// var settings = TLSTrustSettings()
/// settings.anchors = try Certificate.loadAll(from: rootBytes)   // only these roots
/// settings.revocation = .useAnyAvailableMethod                   // fetched off the event loop
/// ```
public struct TLSTrustSettings: Sendable {
    /// The trust anchors; nil (the default) trusts the system trust store.
    public var anchors: [Certificate]?
    /// Whether the system trust store is trusted besides ``anchors``. Default false.
    public var trustsSystemAnchors = false
    /// Untrusted intermediates to build paths with, beyond those the peer presented.
    public var additionalIntermediates: [Certificate] = []
    /// The instant validity is checked at; nil means the time of the handshake.
    public var verifyDate: Date?
    /// The rules the chain is judged by (`TrustProfile.ssl` by default: Apple's SSL policy).
    public var profile: TrustProfile = .ssl
    /// Revocation checking (`SecPolicyCreateRevocation`); nil (the default) checks none. Without
    /// `.networkAccessDisabled` the verifier fetches CRLs and OCSP responses through
    /// ``revocationFetcher``, off the event loop.
    public var revocation: RevocationOptions?
    /// Where revocation information is fetched from; default `HTTPRevocationFetcher.shared`.
    public var revocationFetcher: any RevocationFetcher = HTTPRevocationFetcher.shared
    /// Any other configuration (maximum depth, signature policy, budget, …), applied last.
    public var configure: (@Sendable (ServerTrust) -> Void)?

    /// Settings that trust the system store, at the time of the handshake, under Apple's SSL policy.
    public init() {}

    /// Settings that trust only `anchors`.
    public init(anchors: [Certificate]) {
        self.anchors = anchors
    }

    /// Whether an evaluation under these settings may use the network (and so must not run on an event loop).
    var mayFetchRevocation: Bool {
        guard let revocation else { return false }
        return !revocation.contains(.networkAccessDisabled)
    }

    /// The policy that names `role`'s purpose and identity under ``profile``.
    func identityPolicy(for role: TLSPeerRole) -> TrustPolicy {
        switch (profile, role) {
        case let (.ssl, .server(host)): return .ssl(server: true, hostname: host)
        case (.ssl, .client): return .ssl(server: false, hostname: nil)
        case let (.webPKI, .server(host)): return .webPKI(server: true, hostname: host)
        case (.webPKI, .client): return .webPKI(server: false, hostname: nil)
        case let (.rfc5280, .server(host)), let (.rfc5280Strict, .server(host)):
            return .profile(profile, purpose: .serverAuth, hostname: host)
        case (.rfc5280, .client), (.rfc5280Strict, .client):
            return .profile(profile, purpose: .clientAuth, hostname: nil)
        }
    }

    /// The policies a plain evaluation under these settings checks for `role`: the identity policy
    /// alone; the profile and revocation are ``trustOptions``, which no judge can drop.
    func policies(for role: TLSPeerRole) -> [TrustPolicy] {
        [identityPolicy(for: role)]
    }

    /// What every evaluation of a connection's trust enforces, whichever judge decides: the profile
    /// (``TrustProfile/ssl``, the default, adds nothing: each judge's own policy decides, as on
    /// Apple's platforms) and the revocation flags.
    public var trustOptions: TrustOptions {
        TrustOptions(profile: profile == .ssl ? nil : profile, revocation: revocation)
    }

    /// A trust for `presented` (leaf first) configured by these settings, with `role`'s policies.
    func makeTrust(presented: [Certificate], role: TLSPeerRole) -> ServerTrust {
        let trust = ServerTrust(certificates: presented, policies: policies(for: role))
        trust.options = trustOptions
        if let anchors {
            trust.setAnchorCertificates(anchors)
            trust.anchorsOnly = !trustsSystemAnchors
        }
        if !additionalIntermediates.isEmpty { trust.additionalIntermediates = additionalIntermediates }
        if let verifyDate { trust.verifyDate = verifyDate }
        configure?(trust)
        return trust
    }
}
