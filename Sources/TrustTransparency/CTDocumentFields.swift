import Foundation
import TrustDocuments

/// Typed reads of one dictionary of a log list, naming the key path in every refusal.
struct CTDocumentFields {
    let values: [String: PropertyListValue]
    /// The dictionary's key path (`operators[2].logs[0]`).
    let path: String
    let file: String

    /// The dictionary `value` at `path`, or a ``CTLogListLoadError/Rule/wrongType(_:expected:found:)``.
    init(_ value: PropertyListValue, path: String, file: String) throws(CTLogListLoadError) {
        guard case let .dictionary(values) = value else {
            throw CTLogListLoadError(file: file, rule: .wrongType(path.isEmpty ? "top level" : path, expected: "dictionary", found: value.typeName))
        }
        self.values = values
        self.path = path
        self.file = file
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func refuse(_ rule: CTLogListLoadError.Rule) -> CTLogListLoadError { CTLogListLoadError(file: file, rule: rule) }

    private func wrongType(_ key: String, _ expected: String, _ found: PropertyListValue) -> CTLogListLoadError {
        refuse(.wrongType(keyPath(key), expected: expected, found: found.typeName))
    }

    func required<T>(_ key: String, _ read: (String) throws(CTLogListLoadError) -> T?) throws(CTLogListLoadError) -> T {
        guard let value = try read(key) else { throw refuse(.missingKey(keyPath(key))) }
        return value
    }

    func string(_ key: String) throws(CTLogListLoadError) -> String? {
        guard let value = values[key] else { return nil }
        guard case let .string(string) = value else { throw wrongType(key, "string", value) }
        return string
    }

    func array(_ key: String) throws(CTLogListLoadError) -> [PropertyListValue]? {
        guard let value = values[key] else { return nil }
        guard case let .array(array) = value else { throw wrongType(key, "array", value) }
        return array
    }

    func dictionary(_ key: String) throws(CTLogListLoadError) -> CTDocumentFields? {
        guard let value = values[key] else { return nil }
        return try CTDocumentFields(value, path: keyPath(key), file: file)
    }

    /// A property-list `<data>`.
    func data(_ key: String) throws(CTLogListLoadError) -> [UInt8]? {
        guard let value = values[key] else { return nil }
        guard case let .data(data) = value else { throw wrongType(key, "data", value) }
        return Array(data)
    }

    /// A property-list `<date>`.
    func date(_ key: String) throws(CTLogListLoadError) -> Date? {
        guard let value = values[key] else { return nil }
        guard case let .date(date) = value else { throw wrongType(key, "date", value) }
        return date
    }

    /// A JSON string holding base64.
    func base64(_ key: String) throws(CTLogListLoadError) -> [UInt8]? {
        guard let text = try string(key) else { return nil }
        guard let data = Data(base64Encoded: text) else { throw refuse(.invalidValue(keyPath(key), reason: "not base64")) }
        return Array(data)
    }

    /// A JSON string holding an RFC 3339 time.
    func rfc3339(_ key: String) throws(CTLogListLoadError) -> Date? {
        guard let text = try string(key) else { return nil }
        guard let date = CTTime.date(rfc3339: text) else {
            throw refuse(.invalidValue(keyPath(key), reason: "not an RFC 3339 time (2018-01-01T00:00:00Z)"))
        }
        return date
    }
}
