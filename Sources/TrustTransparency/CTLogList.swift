import Foundation

/// The logs a Certificate Transparency decision trusts, with when the list was last known to be
/// current (trustd's `TrustedCTLogs.plist` and its asset check-in date, `OTATrustUtilities.m`).
///
/// Load one with ``loadJSON(_:file:updated:)`` (Apple's published list, schema v4) or
/// ``loadPropertyList(_:file:updated:)`` (the form trustd ships and its tests pass to
/// `SecTrustSetTrustedLogs`). No list is built in: a list goes stale, and trustd stops enforcing
/// CT once its list is 60 days old (``isFresh(at:)``).
public struct CTLogList: Hashable, Sendable {
    /// How long a list stays fresh: trustd's `kSecOTAPKIAssetStalenessDisable`, 60 days.
    public static let freshness: TimeInterval = 60 * 24 * 60 * 60
    /// The most logs one list may hold (Apple's lists hold about a hundred).
    public static let maximumLogCount = 10_000

    /// The logs, in list order.
    public let logs: [CTLog]
    /// When the list was last known to be current: the JSON `log_list_timestamp`, or what the
    /// caller said (when it fetched the list); nil when unknown.
    public let updated: Date?
    /// The list's `version`, if it has one.
    public let version: String?
    /// Log index by ID.
    private let indexByID: [[UInt8]: Int]

    /// A list of `logs` last known current at `updated`.
    ///
    /// - Throws: ``CTLogListLoadError`` (file `"<memory>"`) when two logs share an ID or there are
    ///   more than ``maximumLogCount``.
    public init(logs: [CTLog], updated: Date? = nil, version: String? = nil) throws(CTLogListLoadError) {
        try self.init(logs: logs, updated: updated, version: version, file: "<memory>")
    }

    init(logs: [CTLog], updated: Date?, version: String?, file: String) throws(CTLogListLoadError) {
        guard logs.count <= Self.maximumLogCount else {
            throw CTLogListLoadError(file: file, rule: .tooManyLogs(limit: Self.maximumLogCount))
        }
        var index: [[UInt8]: Int] = [:]
        for (position, log) in logs.enumerated() {
            guard index.updateValue(position, forKey: log.id) == nil else {
                throw CTLogListLoadError(file: file, rule: .duplicateLogID(log.base64ID))
            }
        }
        self.logs = logs
        self.updated = updated
        self.version = version
        indexByID = index
    }

    /// The log with ID `id`, if listed.
    public func log(id: some Collection<UInt8>) -> CTLog? {
        indexByID[Array(id)].map { logs[$0] }
    }

    /// Whether the list was updated within ``freshness`` of `date`, either way, as trustd's
    /// `SecOTAPKIAssetStalenessLessThanSeconds` measures it (`fabs(age) < 60 days`). A list whose
    /// update time is unknown is not fresh.
    public func isFresh(at date: Date) -> Bool {
        guard let updated else { return false }
        return abs(date.timeIntervalSince(updated)) < Self.freshness
    }

    /// The same logs, last known current at `updated` (when the caller fetched or checked it).
    public func updated(at updated: Date) -> CTLogList {
        CTLogList(checked: logs, updated: updated, version: version, index: indexByID)
    }

    /// Logs already checked for duplicate IDs, with their index.
    private init(checked logs: [CTLog], updated: Date?, version: String?, index: [[UInt8]: Int]) {
        self.logs = logs
        self.updated = updated
        self.version = version
        indexByID = index
    }
}
