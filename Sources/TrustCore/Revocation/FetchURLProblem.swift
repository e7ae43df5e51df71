/// Why a URL cannot be fetched as written, the reason of
/// ``FetchFailureReason/invalidURL(url:problem:)``. A certificate's URL is the peer's text: each
/// refusal names the rule rather than sending a request the URL did not mean.
public enum FetchURLProblem: Hashable, Sendable, CustomStringConvertible {
    /// The text does not parse as a URL.
    case notAURL
    /// The scheme (`scheme`, nil when there is none) is not one of those fetched for this use
    /// (`supported`, sorted, e.g. `["http"]`: revocation and caIssuers URLs are plain HTTP,
    /// RFC 5280 §4.2.1.13, RFC 6960 Appendix A.1).
    case unsupportedScheme(String?, supported: [String])
    /// The URL carries a user name or password: no Authorization header is ever sent, so they
    /// would be silently dropped.
    case credentials
    /// The URL names no host.
    case noHost
    /// The host has characters a Host header cannot carry.
    case invalidHostCharacters
    /// The port is outside 1–65535.
    case portOutOfRange(Int)
    /// The path or query has characters a request line cannot carry.
    case invalidPathCharacters

    /// One phrase naming the rule.
    public var description: String {
        switch self {
        case .notAURL: return "not a URL"
        case let .unsupportedScheme(_, supported):
            return "only \(supported.map { "\($0)://" }.joined(separator: " and ")) URLs are fetched"
        case .credentials: return "credentials in the URL"
        case .noHost: return "no host"
        case .invalidHostCharacters: return "host has characters a Host header cannot carry"
        case let .portOutOfRange(port): return "port \(port) is outside 1-65535"
        case .invalidPathCharacters: return "path has characters a request line cannot carry"
        }
    }
}
