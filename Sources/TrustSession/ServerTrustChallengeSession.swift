import TrustCore

/// The session side of the URLSession challenge flow that AFNetworking's `AFURLSessionManager` and
/// Alamofire's `SessionDelegate` implement, answering each connection's ``ServerTrustChallenge``.
///
/// The levels, asked in this order (docs/transport.md maps each AFNetworking and Alamofire delegate
/// path to them); the first level that is set decides:
/// 1. the per-connection (task-level) handler given when the connection's handlers are made;
/// 2. ``sessionHandler``, the session-level block;
/// 3. ``authenticationChallengeHandler``, AFNetworking 4's handler (its `nil` and
///    `performDefaultHandling` answers hand the challenge to the authority, as AFNetworking hands
///    them to its security policy);
/// 4. the ``authority``: Alamofire's `ServerTrustManager` (a host without an evaluator gets default
///    handling, or is rejected when `allHostsMustBeEvaluated`) or AFNetworking's `SecurityPolicy`;
///    with neither, default handling.
///
/// ```swift
/// let session = ServerTrustChallengeSession(authority: .serverTrustManager(try ServerTrustManager(evaluators: [
///     "api.example.com": PinnedCertificatesTrustEvaluator(certificates: pinned),
/// ])))
/// let verifier = try TLSTrustVerifier(settings: settings, judge: .challenges(session))
/// ```
public struct ServerTrustChallengeSession: Sendable {
    /// Who decides when no handler does.
    public enum Authority: Sendable {
        /// No manager, no policy: default handling.
        case none
        /// An authority another module supplies: TrustPinning's
        /// `Authority.serverTrustManager(_:)` (Alamofire's `Session(serverTrustManager:)`) and
        /// `Authority.securityPolicy(_:)` (AFNetworking's `AFURLSessionManager.securityPolicy`), or
        /// the caller's own.
        case custom(any ServerTrustChallengeAuthority)
    }

    /// The level that decided a challenge.
    public enum Level: Hashable, Sendable {
        /// The per-connection (task-level) handler.
        case task
        /// ``ServerTrustChallengeSession/sessionHandler``.
        case session
        /// ``ServerTrustChallengeSession/authenticationChallengeHandler`` (AFNetworking 4).
        case authenticationChallengeHandler
        /// The ``ServerTrustChallengeSession/authority`` (or default handling when it is `.none`).
        case authority
    }

    /// A decided challenge: the disposition, the error that cancels it (if any), and who decided.
    public struct Resolution: Sendable {
        /// The answer.
        public let disposition: ServerTrustChallengeDisposition
        /// The error carried by a cancellation (an evaluator's or security policy's reason, or the
        /// error AFNetworking 4's handler returned).
        public let error: (any Error)?
        /// The level that answered.
        public let level: Level
    }

    /// Who decides when no handler does.
    public var authority: Authority
    /// The session-level handler (`URLSession:didReceiveChallenge:completionHandler:`).
    public var sessionHandler: ServerTrustChallengeHandler?
    /// AFNetworking 4's `authenticationChallengeHandler`.
    public var authenticationChallengeHandler: (@Sendable (ServerTrustChallenge) -> AuthenticationChallengeResult)?

    /// A session with the given levels.
    public init(
        authority: Authority = .none, sessionHandler: ServerTrustChallengeHandler? = nil,
        authenticationChallengeHandler: (@Sendable (ServerTrustChallenge) -> AuthenticationChallengeResult)? = nil
    ) {
        self.authority = authority
        self.sessionHandler = sessionHandler
        self.authenticationChallengeHandler = authenticationChallengeHandler
    }

    /// Decides `challenge`, level by level.
    public func resolve(_ challenge: ServerTrustChallenge, taskHandler: ServerTrustChallengeHandler? = nil) -> Resolution {
        if let taskHandler { return Resolution(disposition: taskHandler(challenge), error: nil, level: .task) }
        if let sessionHandler { return Resolution(disposition: sessionHandler(challenge), error: nil, level: .session) }
        if let authenticationChallengeHandler {
            switch authenticationChallengeHandler(challenge) {
            case .credential:
                return Resolution(disposition: .useCredential, error: nil, level: .authenticationChallengeHandler)
            case let .error(error):
                return Resolution(disposition: .cancelAuthenticationChallenge, error: error, level: .authenticationChallengeHandler)
            case .none, .disposition(.performDefaultHandling):
                // AFNetworking 4: default handling of a server-trust challenge is the security policy.
                return authorityResolution(challenge)
            case .disposition(.useCredential):
                // AFNetworking asserts against this (there is no credential to use): fail closed.
                return Resolution(disposition: .cancelAuthenticationChallenge, error: nil, level: .authenticationChallengeHandler)
            case let .disposition(disposition):
                return Resolution(disposition: disposition, error: nil, level: .authenticationChallengeHandler)
            }
        }
        return authorityResolution(challenge)
    }

    /// Alamofire's `attemptServerTrustAuthentication(with:)`, or AFNetworking's security-policy step.
    private func authorityResolution(_ challenge: ServerTrustChallenge) -> Resolution {
        switch authority {
        case .none:
            return Resolution(disposition: .performDefaultHandling, error: nil, level: .authority)
        case let .custom(authority):
            do {
                return Resolution(disposition: try authority.answer(challenge), error: nil, level: .authority)
            } catch {
                return Resolution(disposition: .cancelAuthenticationChallenge, error: error, level: .authority)
            }
        }
    }

    /// Decides `challenge` and carries the disposition out: the trusted evaluation behind an
    /// acceptance (if any), or why the handshake fails.
    func answer(
        _ challenge: ServerTrustChallenge, taskHandler: ServerTrustChallengeHandler?,
        settings: TLSTrustSettings
    ) -> Result<TrustEvaluation?, TLSTrustFailure> {
        let resolution = resolve(challenge, taskHandler: taskHandler)
        switch resolution.disposition {
        case .useCredential:
            return .success(challenge.trust.lastEvaluation)
        case .performDefaultHandling:
            // A fresh trust: whatever a handler or evaluator did to the challenge's trust (pinned
            // anchors, other policies) is not the system's default evaluation. What the connection
            // fetched about the peer's revocation is about the peer, not a handler's choice: it stays.
            let trust = settings.makeTrust(presented: challenge.presentedCertificates, role: .server(host: challenge.host))
            trust.keepFetchedRevocationInformation(of: challenge.trust)
            let evaluation = trust.evaluate(policies: [.ssl(server: true, hostname: challenge.host)])
            challenge.trust.countPathBuilds(trust.pathBuildCount)
            return evaluation.isTrusted ? .success(evaluation) : .failure(.evaluationFailed(evaluation))
        case .cancelAuthenticationChallenge:
            return .failure(.challengeCancelled(host: challenge.host, error: resolution.error.map(ComparableError.init)))
        case .rejectProtectionSpace:
            return .failure(.protectionSpaceRejected(host: challenge.host))
        }
    }
}
