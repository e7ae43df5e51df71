import Logging
import Synchronization

/// The records loggers made by ``logger(level:)`` received, in order.
final class LogRecords: Sendable {
    private let events = Mutex<[LogEvent]>([])

    /// Every record so far.
    var all: [LogEvent] { events.withLock { $0 } }

    /// The records at `level`.
    func at(_ level: Logger.Level) -> [LogEvent] { all.filter { $0.level == level } }

    /// A logger recording here whatever is at `level` or above.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "swifttrust.tests") { _ in RecordingLogHandler(records: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ event: LogEvent) { events.withLock { $0.append(event) } }
}

/// A swift-log handler keeping each record it is given (level, message, metadata, error) in a
/// ``LogRecords``, for tests to read.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { records.append(event) }
}

extension LogEvent {
    /// The metadata value under `key` as text, nil when absent.
    func text(_ key: String) -> String? { metadata?[key]?.description }

    /// The elements of the array metadata value under `key` as text; nil when absent or not an array.
    func list(_ key: String) -> [String]? {
        guard case let .array(values)? = metadata?[key] else { return nil }
        return values.map(\.description)
    }
}
