import Foundation
import Synchronization

/// A sink that keeps every report it is given, in order: for tests, and for applications that read
/// the failures back (to show or log them) instead of sending them anywhere.
///
/// ```swift
/// let recorder = RecordingPinningReportSink()
/// let reporter = PinningReporter(sinks: [recorder])
/// // … a pin failure …
/// recorder.deliveries.first?.report.validationResult   // .failed
/// ```
public final class RecordingPinningReportSink: PinningReportSink {
    /// One report and the URIs it was addressed to.
    public struct Delivery: Sendable, Hashable {
        /// The report.
        public let report: PinValidationReport
        /// The report URIs it was addressed to.
        public let reportURIs: [URL]
    }

    private let recorded = Mutex<[Delivery]>([])

    /// An empty recorder.
    public init() {}

    /// Appends the report.
    public func deliver(_ report: PinValidationReport, to reportURIs: [URL]) {
        recorded.withLock { $0.append(Delivery(report: report, reportURIs: reportURIs)) }
    }

    /// Every delivery so far, oldest first.
    public var deliveries: [Delivery] { recorded.withLock { $0 } }
}
