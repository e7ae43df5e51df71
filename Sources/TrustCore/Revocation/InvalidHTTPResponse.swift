/// Why an answer to a fetch is not a usable HTTP/1.x response, the reason of
/// ``FetchFailureReason/invalidResponse(_:)``: SwiftTrust's fetches send HTTP/1.0 requests and
/// read the answer until the server closes (RFC 1945), so anything else is refused, never guessed at.
public enum InvalidHTTPResponse: Hashable, Sendable, CustomStringConvertible {
    /// The answer ended before the blank line that ends the header section.
    case malformed
    /// The first line is not an `HTTP/1.0` or `HTTP/1.1` status line with a three-digit code
    /// (RFC 7230 §3.1.2): `line` is what came instead.
    case statusLineNotHTTP(line: String)
    /// A transfer coding other than identity (an HTTP/1.0 request is never answered chunked).
    case unsupportedTransferEncoding(String)
    /// A body shorter than its Content-Length, or a Content-Length that is not a number.
    case truncated

    /// One phrase naming what was wrong.
    public var description: String {
        switch self {
        case .malformed: return "malformed HTTP response"
        case let .statusLineNotHTTP(line): return "HTTP status \(line)"
        case let .unsupportedTransferEncoding(coding): return "unsupported transfer encoding \(coding)"
        case .truncated: return "truncated HTTP body"
        }
    }
}
