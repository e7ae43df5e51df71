import Foundation

/// What became of a pin-failure report addressed to one report URI: what
/// ``HTTPPinningReportUploader``'s completion callback receives.
public struct PinReportUpload: Sendable {
    /// How an upload ended.
    public enum Outcome: Sendable {
        /// The collector answered with a 2xx status.
        case delivered(statusCode: Int)
        /// The collector answered with another status. Redirects (3xx) end here too: they are not
        /// followed, so a report never goes anywhere but the configured URI.
        case rejectedByCollector(statusCode: Int)
        /// The upload was attempted and failed (connection, TLS trust, timeout, response).
        case failed(PinReportUploadError)
        /// The URI was refused without connecting: unsupported scheme, invalid URI, or a report
        /// that could not be encoded.
        case refused(PinReportUploadError)
        /// The upload was dropped without connecting: too many in flight, or shut down.
        case dropped(PinReportUploadError)
    }

    /// The report URI.
    public let uri: URL
    /// How the upload to it ended.
    public let outcome: Outcome
}
