#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import TrustNIO
import TrustSession

/// AsyncHTTPClient with SwiftTrust deciding every connection: one `HTTPClient` per host (the
/// connection hook does not know the host), each configured by
/// `HTTPClient.Configuration.verifyConnections(toHost:with:boringSSL:onOutcome:)`, and requests
/// routed to the client of their URL's host.
///
/// ```swift
/// let manager = try ServerTrustManager(evaluators: ["api.example.com": PinnedSPKIHashesTrustEvaluator(pins: pins)])
/// let client = try TrustedHTTPClient(verifier: TLSTrustVerifier(evaluator: manager))
/// let response = try await client.execute(HTTPClientRequest(url: "https://api.example.com/v1"), timeout: .seconds(10))
/// // a refused server: `execute` throws a TLSTrustError whose `failure` says why; nothing was sent to it
/// try await client.shutdown()
/// ```
///
/// Redirects are followed here, not by AsyncHTTPClient, so each hop is decided for its own host:
/// up to ``maximumRedirects`` `https://` redirects of requests without a body (303, and 301/302
/// of anything but GET/HEAD, become GET, as browsers do); a redirect elsewhere (`http://`, or of a
/// request with a body) is returned to the caller as it is.
public final class TrustedHTTPClient: Sendable {
    /// How many hosts one client serves (one `HTTPClient` each).
    public static let maximumHosts = 256

    /// Who decides each connection.
    public let verifier: TLSTrustVerifier
    /// How many redirects ``execute(_:timeout:logger:)`` follows.
    public let maximumRedirects: Int
    private let configuration: HTTPClient.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let boringSSL: BoringSSLVerification
    private let onOutcome: (@Sendable (String, TLSTrustOutcome) -> Void)?
    private let clients = Mutex<[String: HTTPClient]>([:])

    /// A client whose connections `verifier` decides.
    ///
    /// - Parameters:
    ///   - verifier: The judge, settings and logger of every connection (a `ServerTrustManager`
    ///     judges each host by its own evaluator).
    ///   - configuration: The base of each host's `HTTPClient` configuration.
    ///   - eventLoopGroup: Where connections run.
    ///   - boringSSL: Whether BoringSSL's own verification stays on (``BoringSSLVerification``).
    ///   - maximumRedirects: How many `https://` redirects to follow. Default 5, as AsyncHTTPClient.
    ///   - onOutcome: Hears each connection's host and outcome (the peer's identity, or the reason).
    /// - Throws: ``HTTPClientTrustConfigurationError/boringSSLContradictsJudge``.
    public init(
        verifier: TLSTrustVerifier, configuration: HTTPClient.Configuration = .init(),
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        boringSSL: BoringSSLVerification = .automatic, maximumRedirects: Int = 5,
        onOutcome: (@Sendable (String, TLSTrustOutcome) -> Void)? = nil
    ) throws(HTTPClientTrustConfigurationError) {
        var probe = configuration.tlsConfiguration ?? .makeClientConfiguration()
        try HTTPClient.Configuration.apply(
            boringSSL, settings: verifier.settings,
            judgeSkipsEvaluation: verifier.judge.acceptsWithoutEvaluating, to: &probe)
        self.verifier = verifier
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.boringSSL = boringSSL
        self.maximumRedirects = max(0, maximumRedirects)
        self.onOutcome = onOutcome
    }

    /// The `HTTPClient` for `host` (made on first use): every connection it makes is decided by
    /// ``verifier`` for `host`. Use it for requests to `host` only.
    ///
    /// - Throws: ``HTTPClientTrustConfigurationError/tooManyHosts(limit:)``.
    public func client(forHost host: String) throws(HTTPClientTrustConfigurationError) -> HTTPClient {
        let key = host.lowercased()
        if let client = clients.withLock({ $0[key] }) { return client }
        var configuration = configuration
        var hear: (@Sendable (TLSTrustOutcome) -> Void)?
        if let onOutcome { hear = { outcome in onOutcome(key, outcome) } }
        try configuration.verifyConnections(toHost: key, with: verifier, boringSSL: boringSSL, onOutcome: hear)
        let made = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        let (client, unused) = clients.withLock { clients -> (HTTPClient?, HTTPClient?) in
            // Another task may have made one meanwhile: the first stays, the other is shut down.
            if let existing = clients[key] { return (existing, made) }
            guard clients.count < Self.maximumHosts else { return (nil, made) }
            clients[key] = made
            return (made, nil)
        }
        if let unused { unused.shutdown { _ in } }
        guard let client else { throw .tooManyHosts(limit: Self.maximumHosts) }
        return client
    }

    /// Sends `request` on the client of its URL's host, following `https://` redirects each on the
    /// client of its own host.
    ///
    /// - Throws: ``HTTPClientTrustConfigurationError/notHTTPS(url:)`` for a URL that is not
    ///   `https://` (nothing is sent); a `TLSTrustError` when SwiftTrust refused a server (its
    ///   `failure` says why; no request byte was written to that server); AsyncHTTPClient's errors.
    public func execute(_ request: HTTPClientRequest, timeout: TimeAmount, logger: Logger? = nil) async throws -> HTTPClientResponse {
        let deadline = NIODeadline.now() + timeout
        var request = request
        var redirects = 0
        while true {
            guard let url = URL(string: request.url), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty else {
                throw HTTPClientTrustConfigurationError.notHTTPS(url: request.url)
            }
            let response = try await client(forHost: host).execute(request, deadline: deadline, logger: logger)
            guard redirects < maximumRedirects, let next = Self.redirect(of: request, from: url, response: response) else {
                return response
            }
            // The redirect's own body is not for the caller: read (bounded) and dropped.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            request = next
            redirects += 1
        }
    }

    /// The request a redirect response asks for: nil when it is none, has no usable `Location`,
    /// points anywhere but `https://`, or the request has a body.
    static func redirect(of request: HTTPClientRequest, from url: URL, response: HTTPClientResponse) -> HTTPClientRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status.code), request.body == nil,
            let location = response.headers.first(name: "location"),
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            target.scheme?.lowercased() == "https", target.host?.isEmpty == false
        else { return nil }
        var next = request
        next.url = target.absoluteString
        switch response.status.code {
        case 303: if request.method != .HEAD { next.method = .GET }
        case 301, 302: if request.method != .GET, request.method != .HEAD { next.method = .GET }
        default: break // 307, 308 keep the method
        }
        if target.host?.lowercased() != url.host?.lowercased() {
            // Credentials are for the host they were given to.
            next.headers.remove(name: "authorization")
            next.headers.remove(name: "cookie")
        }
        return next
    }

    /// Shuts every host's client down.
    public func shutdown() async throws {
        let all = clients.withLock { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
        for client in all { try await client.shutdown() }
    }
}
#endif // AsyncHTTPClient
