import Foundation
import TrustCrypto

/// Remembers which pin failures were reported recently, so the same failure is reported at most
/// once per interval (TrustKit's `TSKReportsRateLimiter`, which keeps identical reports to one a day).
///
/// A failure is identified as TrustKit identifies it: noted hostname, hostname, port, validated
/// chain, known pins and validation result; never the date (every report has a new one) nor the
/// enforce flag or the app identity. The set of pins counts, not their order. Each failure is
/// remembered as the SHA-256 of those fields, so memory is bounded by the number of failures
/// (``capacity``), not by the size of their chains.
///
/// Not thread-safe: ``PinningReporter`` calls it under its lock.
struct PinReportRateLimiter {
    /// At most this many failures are remembered; the oldest is forgotten first.
    let capacity: Int
    /// A failure reported less than this long ago is not reported again.
    let interval: TimeInterval
    /// When each remembered failure was last reported, least recently reported first. Always on, a
    /// BoundedStore and not a BoundedCache: switching caches off must not lift the rate limit.
    private var lastReported: BoundedStore<[UInt8], Date>

    init(interval: TimeInterval, capacity: Int) {
        self.interval = interval
        self.capacity = max(1, capacity)
        lastReported = BoundedStore(capacity: self.capacity)
    }

    /// The number of failures currently remembered.
    var count: Int { lastReported.count }

    /// Whether `report` may be sent at `now`; if so, it is remembered as sent at `now`.
    ///
    /// A clock that went back (now earlier than the last report) does not hold a failure back:
    /// the report is sent and the interval restarts, so a stepped clock cannot silence reports.
    mutating func admit(_ report: PinValidationReport, at now: Date) -> Bool {
        let key = Self.key(of: report)
        if let last = lastReported[key] {
            let elapsed = now.timeIntervalSince(last)
            if elapsed >= 0, elapsed < interval { return false }
            lastReported.removeValue(forKey: key)
        }
        forgetExpired(at: now)
        // The newest; when full, the failure reported longest ago is forgotten.
        lastReported.remember(now, forKey: key)
        return true
    }

    /// Drops the failures whose interval has passed (they are the oldest).
    private mutating func forgetExpired(at now: Date) {
        while let oldest = lastReported.oldest, now.timeIntervalSince(oldest.value) >= interval {
            lastReported.removeValue(forKey: oldest.key)
        }
    }

    /// SHA-256 over the identifying fields, each length-prefixed so no two field lists share an encoding.
    static func key(of report: PinValidationReport) -> [UInt8] {
        var bytes: [UInt8] = []
        func append(_ field: String) {
            let utf8 = Array(field.utf8)
            withUnsafeBytes(of: UInt64(utf8.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
        }
        append(report.notedHostname)
        append(report.hostname)
        append(String(report.port))
        append(String(report.validationResult.rawValue))
        append(String(report.validatedCertificateChain.count))
        report.validatedCertificateChain.forEach(append)
        let pins = report.knownPins.sorted()
        append(String(pins.count))
        pins.forEach(append)
        return Digest.sha256(bytes)
    }
}
