import Foundation
import Synchronization

/// Sends pin-failure reports to sinks, at most once per interval for the same failure.
///
/// The pin evaluator builds a ``PinValidationReport`` (with this reporter's ``identity``) when a
/// pin set fails, in enforce and in report-only mode alike, and calls ``report(_:to:)`` with the
/// domain's report URIs. Every sink receives every report that is not rate-limited; sinks that
/// send over the network (`HTTPPinningReportUploader`) POST it to the URIs. Nothing here blocks:
/// the rate-limit check is a dictionary lookup under a lock, and sinks must return at once.
///
/// ```swift
/// let uploader = try HTTPPinningReportUploader()
/// let reporter = PinningReporter(sinks: [uploader, RecordingPinningReportSink()])
/// reporter.report(report, to: [URL(string: "https://reports.example.com/pins")!])
/// ```
public final class PinningReporter: Sendable {
    /// TrustKit's interval: the same failure is reported at most once a day.
    public static let defaultRateLimitInterval: TimeInterval = 24 * 60 * 60
    /// How many distinct failures are remembered for rate limiting by default; beyond it the one
    /// reported longest ago is forgotten (and would be reported again if it recurs).
    public static let defaultMaximumRememberedFailures = 1024

    /// The sending application, for the reports evaluators build.
    public let identity: PinReportingIdentity
    /// The same failure is not reported again before this many seconds have passed; 0 (or less)
    /// reports every failure.
    public let rateLimitInterval: TimeInterval
    private let sinks: [any PinningReportSink]
    private let clock: @Sendable () -> Date
    private let limiter: Mutex<PinReportRateLimiter>

    /// A reporter.
    ///
    /// - Parameters:
    ///   - sinks: Who receives each report (all of them, in order).
    ///   - identity: The sending application. Default: this process (see ``PinReportingIdentity/init()``).
    ///   - rateLimitInterval: Seconds during which the same failure is not reported again; 0 (or
    ///     less, or NaN) turns rate limiting off. Default ``defaultRateLimitInterval`` (24 hours).
    ///   - maximumRememberedFailures: How many distinct failures rate limiting remembers (at least
    ///     1). Default ``defaultMaximumRememberedFailures``.
    ///   - clock: The current time; inject a fixed clock in tests.
    public init(
        sinks: [any PinningReportSink], identity: PinReportingIdentity = PinReportingIdentity(),
        rateLimitInterval: TimeInterval = PinningReporter.defaultRateLimitInterval,
        maximumRememberedFailures: Int = PinningReporter.defaultMaximumRememberedFailures,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.sinks = sinks
        self.identity = identity
        self.clock = clock
        // `!(x > 0)` also catches NaN: anything but a positive interval means no limiting.
        self.rateLimitInterval = rateLimitInterval > 0 ? rateLimitInterval : 0
        limiter = Mutex(PinReportRateLimiter(interval: self.rateLimitInterval, capacity: maximumRememberedFailures))
    }

    /// Hands `report` to every sink, addressed to `uris`, unless the same failure (see
    /// ``PinValidationReport``'s identifying fields: hosts, port, chain, pins, result) was reported
    /// less than ``rateLimitInterval`` ago.
    ///
    /// - Returns: Whether the report was handed to the sinks (false: rate-limited).
    @discardableResult
    public func report(_ report: PinValidationReport, to uris: [URL]) -> Bool {
        if rateLimitInterval > 0 {
            let now = clock()
            guard limiter.withLock({ $0.admit(report, at: now) }) else { return false }
        }
        for sink in sinks { sink.deliver(report, to: uris) }
        return true
    }

    /// How many distinct failures rate limiting remembers now (0 when it is off).
    public var rememberedFailureCount: Int { limiter.withLock { $0.count } }
}
