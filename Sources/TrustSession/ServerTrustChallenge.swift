import TrustCore
import TrustX509

/// A server-trust authentication challenge: `NSURLAuthenticationChallenge` with the
/// `NSURLAuthenticationMethodServerTrust` protection space, for one TLS connection.
public struct ServerTrustChallenge: Sendable {
    /// The host connected to (the protection space's host; the SNI name or the IP address).
    public let host: String
    /// The port connected to, when known.
    public let port: Int?
    /// The server's trust, configured by the verifier's ``TLSTrustSettings`` (`protectionSpace.serverTrust`).
    public let trust: ServerTrust

    /// The certificates the server presented, leaf first.
    public var presentedCertificates: [Certificate] { trust.certificates }

    /// A challenge for `trust` from `host`:`port`.
    public init(host: String, port: Int?, trust: ServerTrust) {
        self.host = host
        self.port = port
        self.trust = trust
    }
}

/// How a challenge handler answers (`NSURLSessionAuthChallengeDisposition`), and what each
/// answer does to the TLS handshake.
public enum ServerTrustChallengeDisposition: Hashable, Sendable, CaseIterable {
    /// `NSURLSessionAuthChallengeUseCredential` with a trust credential: the server is accepted.
    case useCredential
    /// `NSURLSessionAuthChallengePerformDefaultHandling`: the system's evaluation decides, here the
    /// verifier's ``TLSTrustSettings`` (the system trust store unless anchors are configured) under
    /// Apple's SSL policy for the host, without any pinning.
    case performDefaultHandling
    /// `NSURLSessionAuthChallengeCancelAuthenticationChallenge`: the handshake fails
    /// (``TLSTrustFailure/challengeCancelled(host:error:)``).
    case cancelAuthenticationChallenge
    /// `NSURLSessionAuthChallengeRejectProtectionSpace`: URLSession would try the next protection
    /// space; a TLS connection has only the server-trust one, so the handshake fails
    /// (``TLSTrustFailure/protectionSpaceRejected(host:)``). It never falls back to accepting.
    case rejectProtectionSpace
}

/// A challenge handler: the task-level `URLSession:task:didReceiveChallenge:` block (per connection)
/// or the session-level `URLSession:didReceiveChallenge:` block (AFNetworking's
/// `setSessionDidReceiveAuthenticationChallengeBlock:`).
public typealias ServerTrustChallengeHandler = @Sendable (ServerTrustChallenge) -> ServerTrustChallengeDisposition

/// What AFNetworking 4's `authenticationChallengeHandler` returns: `id` in Objective-C.
public enum AuthenticationChallengeResult: Sendable {
    /// An `NSURLCredential`: use it (the server is accepted).
    case credential
    /// An `NSNumber` disposition. AFNetworking asserts it is `performDefaultHandling` (the security
    /// policy then evaluates), `cancelAuthenticationChallenge` or `rejectProtectionSpace`;
    /// `useCredential` without a credential is that assertion failing, and cancels the challenge here.
    case disposition(ServerTrustChallengeDisposition)
    /// An `NSError`: the challenge is cancelled and the task fails with this error.
    case error(any Error)
    /// `nil`: default handling, which for a server-trust challenge is the security policy's evaluation.
    case none
}
