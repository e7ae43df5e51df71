import Foundation
import TrustSession

/// The error a ``TLSTrustVerifier`` attaches to a rejection's log record (swift-log's `error:`):
/// the typed failure, described with the control and bidi characters a peer may have put in its
/// certificates' names escaped as `trustctl` escapes them, so that no log handler that prints the
/// error (`StreamLogHandler` among them) can be made to forge a log line.
public struct TLSTrustLogError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The rejection, unescaped, for handlers that read it as data.
    public let failure: TLSTrustFailure

    /// Wraps `failure`.
    public init(_ failure: TLSTrustFailure) {
        self.failure = failure
    }

    /// The failure's description, escaped (`\u000a` for a line feed, …), as `TLSTrustFailure`
    /// describes itself.
    public var description: String { failure.description }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
