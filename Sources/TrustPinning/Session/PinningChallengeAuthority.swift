import TrustCore
import TrustSession

/// This module's authorities for TrustSession's URLSession challenge flow
/// (`ServerTrustChallengeSession`), which `ServerTrustChallengeSession.Authority.serverTrustManager(_:)`
/// and `ServerTrustChallengeSession.Authority.securityPolicy(_:)` make: the step that answers a
/// challenge no handler answered.
public enum PinningChallengeAuthority: ServerTrustChallengeAuthority {
    /// Alamofire's `Session(serverTrustManager:)`: the host's evaluator decides; a host without
    /// one gets default handling, or is rejected when every host must be evaluated.
    case serverTrustManager(ServerTrustManager)
    /// AFNetworking's `AFURLSessionManager.securityPolicy`.
    case securityPolicy(SecurityPolicy)

    /// Whether the manager's evaluators fetch revocation information for some host.
    public var fetchesRevocation: Bool { manager?.fetchesRevocation ?? false }

    /// The revocation flags the evaluator the manager chooses for `host` would fetch with.
    public func revocationToFetch(forHost host: String) -> RevocationOptions? { manager?.revocationToFetch(forHost: host) }

    /// The manager, when there is one (a security policy never fetches).
    private var manager: ServerTrustManager? {
        guard case let .serverTrustManager(manager) = self else { return nil }
        return manager
    }

    /// Alamofire's `attemptServerTrustAuthentication(with:)`, or AFNetworking's security-policy
    /// step: `.useCredential` when the evaluator or policy accepts, `.performDefaultHandling` for a
    /// host the manager has no evaluator for.
    ///
    /// - Throws: The evaluator's error (a ``ServerTrustFailureReason`` from this module's), or the
    ///   ``SecurityPolicyFailure``: the challenge is cancelled with it.
    public func answer(_ challenge: ServerTrustChallenge) throws -> ServerTrustChallengeDisposition {
        switch self {
        case let .serverTrustManager(manager):
            guard let evaluator = try manager.serverTrustEvaluator(forHost: challenge.host) else { return .performDefaultHandling }
            try evaluator.evaluate(challenge.trust, forHost: challenge.host)
            return .useCredential
        case let .securityPolicy(policy):
            try policy.evaluateWithError(challenge.trust, forDomain: challenge.host)
            return .useCredential
        }
    }
}

extension ServerTrustChallengeSession.Authority {
    /// Alamofire's `Session(serverTrustManager:)`: the host's evaluator decides; a host without one
    /// gets default handling, or is rejected when `allHostsMustBeEvaluated`.
    public static func serverTrustManager(_ manager: ServerTrustManager) -> Self {
        .custom(PinningChallengeAuthority.serverTrustManager(manager))
    }

    /// AFNetworking's `AFURLSessionManager.securityPolicy`.
    public static func securityPolicy(_ policy: SecurityPolicy) -> Self {
        .custom(PinningChallengeAuthority.securityPolicy(policy))
    }
}
