import Foundation
import TrustCrypto
import TrustDocuments

extension CTLogList {
    /// Reads the property-list form trustd ships (`TrustedCTLogs.plist`) and its tests pass to
    /// `SecTrustSetTrustedLogs` (`CTTests.m`, `CTlogs.plist`): an array of dictionaries.
    ///
    /// Read, as `CertificateTransparency.m` and `ConvertTrustedCTLogsArrayToDictionary` read them:
    /// `key` (data, SubjectPublicKeyInfo DER; required), `log_id` (data; used as given, else the
    /// key's SHA-256), `operator` and `description` (strings), `expiry` (date: retired since),
    /// `frozen` (date: read-only since), `start_inclusive` and `end_exclusive` (dates: the
    /// shard). Other keys are not read. Every listed log is trusted (trustd's list holds only
    /// trusted logs): its ``CTLog/state`` is ``CTLog/State/retired`` with an `expiry`,
    /// ``CTLog/State/readOnly`` with a `frozen` date, ``CTLog/State/usable`` otherwise.
    ///
    /// Unlike trustd, which skips an entry it cannot read, any such entry refuses the list. XML and
    /// binary property lists are read, within the same limits as JSON, duplicate keys refused.
    ///
    /// - Parameters:
    ///   - updated: when the list was last known current (a property list has no date of its own).
    /// - Throws: ``CTLogListLoadError`` naming `file` and the rule.
    public static func loadPropertyList(_ data: Data, file: String, updated: Date? = nil) throws(CTLogListLoadError) -> CTLogList {
        try loadPropertyList(data, file: file, updated: updated, limits: CTDocumentReading.limits)
    }

    /// ``loadPropertyList(_:file:updated:)`` within other `limits`.
    package static func loadPropertyList(
        _ data: Data, file: String, updated: Date?,
        limits: DocumentLimits
    ) throws(CTLogListLoadError) -> CTLogList {
        let root = try CTDocumentReading.propertyList(data, file: file, limits: limits)
        guard case let .array(entries) = root else {
            throw CTLogListLoadError(file: file, rule: .wrongType("top level", expected: "array", found: root.typeName))
        }
        var logs: [CTLog] = []
        for (index, entry) in entries.enumerated() {
            logs.append(try propertyListLog(try CTDocumentFields(entry, path: "[\(index)]", file: file)))
        }
        return try CTLogList(logs: logs, updated: updated, version: nil, file: file)
    }

    private static func propertyListLog(_ fields: CTDocumentFields) throws(CTLogListLoadError) -> CTLog {
        let key = try fields.required("key", fields.data)
        let id = try fields.data("log_id")
        if let id, id.count != 32 { throw fields.refuse(.invalidValue(fields.keyPath("log_id"), reason: "a log ID is 32 bytes")) }
        let retired = try fields.date("expiry"), frozen = try fields.date("frozen")
        let start = try fields.date("start_inclusive"), end = try fields.date("end_exclusive")
        let state: CTLog.State = retired != nil ? .retired : frozen != nil ? .readOnly : .usable
        let operatorName = try fields.string("operator"), description = try fields.string("description")
        do {
            return try CTLog(
                key: key, id: id, operatorName: operatorName, description: description,
                state: state, readOnlySince: frozen, retiredSince: retired,
                shard: start == nil && end == nil ? nil : CTLog.Shard(start: start, end: end))
        } catch {
            throw fields.refuse(.unusableKey(fields.keyPath("key"), error))
        }
    }
}
