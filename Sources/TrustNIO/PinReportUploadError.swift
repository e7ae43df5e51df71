import Foundation
import NIOCore
import TrustCore
import TrustHTTP

/// Why a pin-failure report was not uploaded to a report URI.
///
/// Equal when the cases and their values are; an error a case carries (a `ComparableError`)
/// compares by value when its type is `Equatable`, otherwise by its type (never by its text).
public enum PinReportUploadError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The URI's scheme is neither `http` nor `https` (nil: it has none). Nothing was sent.
    case unsupportedScheme(String?)
    /// The URI cannot be requested: no host, a port outside 1–65535, credentials (which are never
    /// sent), or characters an HTTP request line cannot carry (`problem` says which). Nothing was sent.
    case invalidURI(FetchURLProblem)
    /// ``HTTPPinningReportUploader/maximumConcurrentUploads`` uploads were already in flight, so this
    /// one was dropped rather than queued: a flood of failures cannot pile up connections.
    case tooManyUploadsInFlight(limit: Int)
    /// The uploader was shut down.
    case shutDown
    /// The URI is `http://` and the uploader's ``PinReportCollectorPolicy`` does not allow plain
    /// HTTP. Nothing was sent.
    case plainHTTPNotAllowed
    /// The collector's address (`address`, as connected to, or as written in the URI) is a
    /// loopback, link-local, private-use or other non-public address (`scope`), which the
    /// ``PinReportCollectorPolicy`` does not allow. Nothing was sent.
    case localAddressNotAllowed(address: String, scope: String)
    /// The report could not be encoded as JSON. Nothing was sent.
    case reportEncodingFailed(ComparableError)
    /// The event-loop group given to the uploader cannot run NIOPosix sockets.
    case unsupportedEventLoopGroup
    /// The connection was not established within the connect timeout.
    case connectTimedOut
    /// The upload did not finish (connect, TLS, request, status line) within the total timeout.
    case timedOut
    /// The collector's TLS certificate was not trusted for its host: the report was not sent to it.
    case collectorNotTrusted(TLSTrustFailure)
    /// The connection failed (refused, reset, TLS error, DNS failure, …).
    case connectionFailed(ComparableError)
    /// The collector closed the connection before sending a status line.
    case closedBeforeResponse
    /// The collector's response did not start with an HTTP/1.x status line within the bytes read.
    case malformedResponse

    /// What went wrong, for logs.
    public var description: String {
        switch self {
        case let .unsupportedScheme(scheme):
            return "unsupported report URI scheme \(scheme.map { "'\($0)'" } ?? "(none)"): only http and https are sent to"
        case let .invalidURI(problem): return "invalid report URI: \(problem)"
        case let .tooManyUploadsInFlight(limit): return "report dropped: \(limit) uploads already in flight"
        case .shutDown: return "report dropped: the uploader was shut down"
        case .plainHTTPNotAllowed:
            return "plain http report URI refused: reports go over https unless the collector policy allows http"
        case let .localAddressNotAllowed(address, scope):
            return "report collector at \(scope) address \(address) refused: the collector policy does not allow local addresses"
        case let .reportEncodingFailed(error): return "the report could not be encoded as JSON: \(error)"
        case .unsupportedEventLoopGroup: return "the event-loop group cannot run NIOPosix client sockets"
        case .connectTimedOut: return "connecting to the report collector timed out"
        case .timedOut: return "the report upload timed out"
        case let .collectorNotTrusted(failure): return "the report collector's certificate is not trusted: \(failure)"
        case let .connectionFailed(error): return "the report upload failed: \(error)"
        case .closedBeforeResponse: return "the report collector closed the connection without a response"
        case .malformedResponse: return "the report collector's response has no HTTP/1.x status line"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

extension PinReportUploadError {
    /// Why a report URI is not an HTTP target, as an upload error.
    init(_ error: HTTPTargetError) {
        switch error.problem {
        case let .unsupportedScheme(scheme, _): self = .unsupportedScheme(scheme)
        default: self = .invalidURI(error.problem)
        }
    }
}
