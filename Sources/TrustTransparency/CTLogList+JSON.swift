import Foundation
import TrustCrypto
import TrustDocuments

extension CTLogList {
    /// Reads Apple's published log list, JSON schema v4
    /// (`https://valid.apple.com/ct/log_list/current_log_list.json`; Google's v3 lists have the
    /// same shape).
    ///
    /// Read: `version` and `log_list_timestamp` (the list's ``updated`` time unless the caller
    /// gives `updated`), and for each of `operators` its `name` and each of its `logs` and
    /// `tiled_logs`: `key` (base64 SubjectPublicKeyInfo DER), `log_id` (base64, which must be the
    /// key's SHA-256), `description`, `state` (one of `pending`, `qualified`, `usable`,
    /// `readonly`, `retired`, `rejected`, each with a `timestamp`; a state this version does not
    /// know is kept as ``CTLog/State/unrecognised(_:)`` and never trusted) and
    /// `temporal_interval` (`start_inclusive`, `end_exclusive`). Other keys (`url`, `mmd`,
    /// `email`, `assetVersion`, …) are not read.
    ///
    /// - Parameters:
    ///   - updated: when the list was last known current (fetched or checked), overriding
    ///     `log_list_timestamp`.
    /// - Throws: ``CTLogListLoadError`` naming `file` and the rule (limits of 1 MiB, 100,000 values and 64 levels, UTF-8, duplicate keys, types, key paths).
    public static func loadJSON(_ data: Data, file: String, updated: Date? = nil) throws(CTLogListLoadError) -> CTLogList {
        try loadJSON(data, file: file, updated: updated, limits: CTDocumentReading.limits)
    }

    /// ``loadJSON(_:file:updated:)`` within other `limits`.
    package static func loadJSON(_ data: Data, file: String, updated: Date?, limits: DocumentLimits) throws(CTLogListLoadError) -> CTLogList {
        let root = try CTDocumentFields(try CTDocumentReading.json(data, file: file, limits: limits), path: "", file: file)
        let operators = try root.required("operators", root.array)
        var logs: [CTLog] = []
        for (operatorIndex, value) in operators.enumerated() {
            let entry = try CTDocumentFields(value, path: "operators[\(operatorIndex)]", file: file)
            let name = try entry.string("name")
            for group in ["logs", "tiled_logs"] {
                for (logIndex, log) in (try entry.array(group) ?? []).enumerated() {
                    let fields = try CTDocumentFields(log, path: "\(entry.keyPath(group))[\(logIndex)]", file: file)
                    logs.append(try jsonLog(fields, operatorName: name))
                }
            }
        }
        let published = try root.rfc3339("log_list_timestamp")
        return try CTLogList(logs: logs, updated: updated ?? published, version: try root.string("version"), file: file)
    }

    private static func jsonLog(_ fields: CTDocumentFields, operatorName: String?) throws(CTLogListLoadError) -> CTLog {
        let key = try fields.required("key", fields.base64)
        if let id = try fields.base64("log_id"), id != Digest.sha256(key) {
            throw fields.refuse(.logIDMismatch(fields.path))
        }
        var state = CTLog.State.pending
        var readOnlySince: Date?, retiredSince: Date?
        if let stateFields = try fields.dictionary("state") {
            guard stateFields.values.count == 1, let (name, _) = stateFields.values.first else {
                throw fields.refuse(
                    .invalidValue(stateFields.path, reason: "a state holds exactly one of pending, qualified, usable, readonly, retired, rejected"))
            }
            let entered = try stateFields.required(name, stateFields.dictionary)
            let since = try entered.required("timestamp", entered.rfc3339)
            switch name {
            case "pending": state = .pending
            case "qualified": state = .qualified
            case "usable": state = .usable
            case "readonly": state = .readOnly; readOnlySince = since
            case "retired": state = .retired; retiredSince = since
            case "rejected": state = .rejected
            default: state = .unrecognised(name)
            }
        }
        var shard: CTLog.Shard?
        if let interval = try fields.dictionary("temporal_interval") {
            shard = CTLog.Shard(
                start: try interval.required("start_inclusive", interval.rfc3339),
                end: try interval.required("end_exclusive", interval.rfc3339))
        }
        let description = try fields.string("description")
        do {
            return try CTLog(
                key: key, operatorName: operatorName, description: description, state: state,
                readOnlySince: readOnlySince, retiredSince: retiredSince, shard: shard)
        } catch {
            throw fields.refuse(.unusableKey(fields.keyPath("key"), error))
        }
    }
}
