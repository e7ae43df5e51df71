import TrustCore

/// Who answers a ``ServerTrustChallenge`` that no handler of a ``ServerTrustChallengeSession``
/// answered (``ServerTrustChallengeSession/Authority/custom(_:)``): Alamofire's `ServerTrustManager`
/// and AFNetworking's `SecurityPolicy` in TrustPinning
/// (`ServerTrustChallengeSession.Authority.serverTrustManager(_:)` and `.securityPolicy(_:)` are
/// declared there).
public protocol ServerTrustChallengeAuthority: Sendable {
    /// Whether the authority's own evaluations fetch revocation information for some host.
    /// Default: false.
    var fetchesRevocation: Bool { get }

    /// The revocation flags the authority's evaluation of a challenge for `host` would fetch with
    /// (fetched first by the decider); nil when it fetches nothing. Default: nil.
    func revocationToFetch(forHost host: String) -> RevocationOptions?

    /// Answers `challenge` (whose trust it may reconfigure): `.useCredential` to accept,
    /// `.performDefaultHandling` for the system's default evaluation, or another disposition.
    ///
    /// - Throws: Why the challenge is cancelled (`cancelAuthenticationChallenge`), which
    ///   ``TLSTrustFailure/challengeCancelled(host:error:)`` carries; a ``TLSTrustJudgeFailure``
    ///   lends the failure its ``TLSTrustFailure/trustFailures``.
    func answer(_ challenge: ServerTrustChallenge) throws -> ServerTrustChallengeDisposition
}

extension ServerTrustChallengeAuthority {
    /// False: the authority fetches nothing.
    public var fetchesRevocation: Bool { false }

    /// Nil: the authority fetches nothing.
    public func revocationToFetch(forHost host: String) -> RevocationOptions? { nil }
}
