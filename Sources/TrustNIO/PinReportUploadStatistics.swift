/// Counts of what an ``HTTPPinningReportUploader`` did with the uploads it was given, one per
/// report and URI.
public struct PinReportUploadStatistics: Sendable, Hashable {
    /// Uploads started (connections attempted).
    public var started = 0
    /// Uploads the collector answered with 2xx.
    public var delivered = 0
    /// Uploads the collector answered with another status (including unfollowed redirects).
    public var rejectedByCollector = 0
    /// Uploads that failed (connection, TLS trust, timeout, malformed response).
    public var failed = 0
    /// URIs refused without connecting (unsupported scheme, invalid URI, unencodable report).
    public var refused = 0
    /// Uploads dropped without connecting (too many in flight, shut down).
    public var dropped = 0
    /// Uploads in flight now.
    public var inFlight = 0
}
