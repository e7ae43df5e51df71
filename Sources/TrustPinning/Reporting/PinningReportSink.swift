import Foundation

/// Where a ``PinningReporter`` hands pin-failure reports: an uploader (`HTTPPinningReportUploader`
/// in TrustNIO POSTs them to the report URIs), a log, or a test's ``RecordingPinningReportSink``.
///
/// ``deliver(_:to:)`` is called on the thread that validated the pins, often inside a TLS
/// handshake: it must return at once and do any I/O elsewhere.
///
/// ```swift
/// struct LoggingSink: PinningReportSink {
///     func deliver(_ report: PinValidationReport, to reportURIs: [URL]) {
///         logger.warning("pin failure for \(report.hostname):\(report.port): \(report.validationResult)")
///     }
/// }
/// ```
public protocol PinningReportSink: Sendable {
    /// Takes `report`, whose configured destinations are `reportURIs` (sinks that do not send over
    /// the network ignore them). Must not block for I/O.
    func deliver(_ report: PinValidationReport, to reportURIs: [URL])
}
