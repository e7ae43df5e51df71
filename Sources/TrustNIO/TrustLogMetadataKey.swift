/// The swift-log metadata keys under which a ``TLSTrustVerifier`` (given a `Logger`) and an
/// ``HTTPPinningReportUploader`` describe what they decided, so that a log pipeline can filter and
/// index on them.
///
/// A verifier writes one record per verification: `"TLS peer trusted"` at `debug` level, or
/// `"TLS peer rejected"` at `info` level, with:
///
/// | Key | Value |
/// | --- | --- |
/// | `swifttrust.verdict` | `trusted` or `rejected` |
/// | `swifttrust.peer` | the peer's role: `server` or `client` (mutual TLS) |
/// | `swifttrust.host` | the host a server was verified for (server peers only) |
/// | `swifttrust.port` | the port connected to, when the verifier was told it |
/// | `swifttrust.leaf` | the subject of the leaf the peer presented |
/// | `swifttrust.presented` | the subjects of the certificates the peer presented, leaf first |
/// | `swifttrust.chain` | the subjects of the validated chain, leaf to anchor (trusted peers with one) |
/// | `swifttrust.reason` | why the peer was rejected: the `TLSTrustFailure` description (rejections only) |
///
/// An uploader writes one record per report URI: `"pin report delivered"` at `debug` level, or
/// `"pin report not delivered"` at `info` level, with ``reportURI``, ``upload``, ``statusCode``
/// (when the collector answered) and ``reason`` (when it failed, was refused or dropped).
///
/// The observer ``TLSTrustMetrics/anchorReloadObserver(logger:)`` gives a `ReloadingTrustAnchors`
/// writes `"trust anchors reloaded"` at `info` level with ``anchorCount``, or `"trust anchors not
/// reloaded"` at `warning` level with ``anchorPath`` (the file or directory that failed),
/// ``reason`` (the rule it broke) and ``anchorCount`` (the size of the set kept).
///
/// Only what the peer presented in the handshake is logged (names from its certificates), never
/// key material. Text taken from certificates is passed through `TerminalText.escaped(_:)`, so a
/// subject cannot forge log lines with newlines or control characters.
public enum TrustLogMetadataKey {
    /// `swifttrust.verdict`: `trusted` or `rejected`.
    public static let verdict = "swifttrust.verdict"
    /// `swifttrust.peer`: `server` or `client`.
    public static let peer = "swifttrust.peer"
    /// `swifttrust.host`: the host a server peer was verified for.
    public static let host = "swifttrust.host"
    /// `swifttrust.port`: the port connected to, when known.
    public static let port = "swifttrust.port"
    /// `swifttrust.leaf`: the presented leaf's subject (RFC 4514 form).
    public static let leaf = "swifttrust.leaf"
    /// `swifttrust.presented`: the presented certificates' subjects, leaf first.
    public static let presented = "swifttrust.presented"
    /// `swifttrust.chain`: the validated chain's subjects, leaf to anchor.
    public static let chain = "swifttrust.chain"
    /// `swifttrust.reason`: why the peer was rejected, or why a pin report was not delivered.
    public static let reason = "swifttrust.reason"
    /// `swifttrust.report_uri`: the report URI a pin report was addressed to.
    public static let reportURI = "swifttrust.report_uri"
    /// `swifttrust.upload`: how a pin report upload ended: `delivered`, `rejected_by_collector`,
    /// `failed`, `refused` or `dropped` (``PinReportUpload/Outcome``).
    public static let upload = "swifttrust.upload"
    /// `swifttrust.status_code`: the HTTP status a report collector answered with.
    public static let statusCode = "swifttrust.status_code"
    /// `swifttrust.anchors.path`: the trust anchor file or directory a reload failed on.
    public static let anchorPath = "swifttrust.anchors.path"
    /// `swifttrust.anchors.count`: how many trust anchors are in use after a reload (or kept after a
    /// failed one).
    public static let anchorCount = "swifttrust.anchors.count"
}
