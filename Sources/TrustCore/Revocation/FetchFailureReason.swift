import TrustX509

/// Why one fetch of a fetching evaluation gave nothing usable: the typed reason behind a status
/// that stays unknown, and the error ``RevocationFetcher``s throw (TrustHTTP's
/// `HTTPRevocationFetcher` throws only these; another fetcher's errors are read with
/// ``init(_:)``).
public enum FetchFailureReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every address `host` resolved to (`address` the last one judged) is loopback, link-local,
    /// private-use or otherwise not public (`scope`, as the IANA special-purpose registries say), and
    /// local addresses are not allowed for this fetch. Nothing was sent.
    case localDestinationRefused(host: String, address: String, scope: String)
    /// The evaluation's fetch deadline passed before the fetch ended (``ServerTrust/evaluate(fetching:within:)``).
    case deadlineReached
    /// The calling task was cancelled (the connection went away).
    case cancelled
    /// The fetcher's own time limit for one request passed (`seconds`).
    case timedOut(seconds: Double)
    /// The server answered with an HTTP status other than 200 (redirects are not followed).
    case httpStatus(Int)
    /// The host name did not resolve.
    case cannotResolve(host: String)
    /// No address of `host` accepted a connection on `port`.
    case connectionFailed(host: String, port: Int)
    /// The connection failed: `operation` is the system call that failed, `errno` its error number.
    case transportFailed(operation: SocketOperation, errno: Int32)
    /// The answer is not a usable HTTP response (malformed, truncated, an unsupported transfer coding).
    case invalidResponse(InvalidHTTPResponse)
    /// The answer was larger than the fetcher accepts (`limit` bytes).
    case responseTooLarge(limit: Int)
    /// The URL cannot be requested as written: `problem` names the rule.
    case invalidURL(url: String, problem: FetchURLProblem)
    /// What the URL served is not what was asked for (the failure's ``FetchFailure/purpose``: a
    /// CRL, an OCSP response, a certificate): `error` is why it does not parse as one.
    case unreadable(X509Error)
    /// The fetcher does not fetch this kind of document (issuer certificates).
    case notSupported
    /// The error a ``RevocationFetcher`` of your own threw (`underlying.error`), kept whole: compare
    /// or cast it rather than read its text.
    case fetcherError(ComparableError)

    /// The reason `error` stands for: itself when it is one, ``cancelled`` for a `CancellationError`,
    /// ``unreadable(_:)`` for an `X509Error` (what a fetch served did not parse as the document asked
    /// for), the matching case for an ``IssuerFetchError``, else ``fetcherError(_:)`` holding it.
    public init(_ error: any Error) {
        switch error {
        case let reason as FetchFailureReason: self = reason
        case is CancellationError: self = .cancelled
        case let error as X509Error: self = .unreadable(error)
        case let issuer as IssuerFetchError:
            switch issuer {
            case .notSupported: self = .notSupported
            case let .unreadable(_, error): self = .unreadable(error)
            }
        default: self = .fetcherError(ComparableError(error))
        }
    }

    /// One phrase, e.g. `fetch refused: 10.0.0.5 is a private-use address`, `HTTP 404`.
    public var description: String {
        switch self {
        case let .localDestinationRefused(host, address, scope):
            let article = scope.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return host == address
                ? "fetch refused: \(address) is \(article) \(scope) address"
                : "fetch refused: \(host) resolves to \(address), \(article) \(scope) address"
        case .deadlineReached: return "deadline reached (the evaluation's fetch deadline passed)"
        case .cancelled: return "cancelled"
        case let .timedOut(seconds): return "timed out after \(seconds) s"
        case let .httpStatus(code): return "HTTP \(code)"
        case let .cannotResolve(host): return "cannot resolve \(host)"
        case let .connectionFailed(host, port): return "cannot connect to \(host):\(port)"
        case let .transportFailed(operation, errno): return "\(operation) failed (errno \(errno))"
        case let .invalidResponse(problem): return "invalid HTTP response: \(problem)"
        case let .responseTooLarge(limit): return "response larger than \(limit) bytes"
        case let .invalidURL(url, problem): return "invalid URL: \(problem): \(url)"
        case let .unreadable(error): return "unreadable: \(error)"
        case .notSupported: return "the fetcher does not fetch this kind of document"
        case let .fetcherError(underlying): return "fetch failed: \(underlying)"
        }
    }
}
