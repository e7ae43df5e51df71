import TrustDocuments
import Foundation

/// A position in a parsed property list or JSON document: the value there and the key path that
/// leads to it (`NSAppTransportSecurity.NSPinnedDomains.example.com.NSPinnedLeafIdentities[0]`),
/// so that every error a loader throws names the file, where in it, and the rule broken.
///
/// Dictionaries are walked in sorted key order: Foundation's dictionaries have none, and the first
/// error reported must not change from run to run.
struct PropertyListReader {
    /// The file, for errors.
    let file: String
    /// Dot-separated keys and `[index]` subscripts from the document's root; empty at the root.
    let keyPath: String
    /// The value at ``keyPath``.
    let value: PropertyListValue

    /// An error at this position.
    func error(_ rule: PinningConfigurationRule) -> PinningConfigurationLoadError {
        PinningConfigurationLoadError(file: file, keyPath: keyPath.isEmpty ? nil : keyPath, rule: rule)
    }

    /// The reader for `key` of the dictionary here.
    func member(_ key: String, value: PropertyListValue) -> PropertyListReader {
        PropertyListReader(file: file, keyPath: keyPath.isEmpty ? key : keyPath + "." + key, value: value)
    }

    private func wrongType(expected: String) -> PinningConfigurationLoadError {
        error(.wrongType(expected: expected, found: value.typeName))
    }

    /// The dictionary here, refusing any key outside `allowedKeys` (nil allows every key): a
    /// misspelt key must not be dropped silently, or a typo could unpin a domain.
    func dictionary(allowedKeys: Set<String>?) throws(PinningConfigurationLoadError) -> PropertyListDictionary {
        guard case let .dictionary(values) = value else { throw wrongType(expected: "dictionary") }
        let dictionary = PropertyListDictionary(reader: self, values: values)
        if let allowedKeys, let unexpected = dictionary.members.first(where: { !allowedKeys.contains($0.key) }) {
            throw unexpected.reader.error(.unexpectedKey(unexpected.key))
        }
        return dictionary
    }

    /// The elements of the array here, each with its `[index]` key path.
    func array() throws(PinningConfigurationLoadError) -> [PropertyListReader] {
        guard case let .array(values) = value else { throw wrongType(expected: "array") }
        return values.enumerated().map { index, element in
            PropertyListReader(file: file, keyPath: "\(keyPath)[\(index)]", value: element)
        }
    }

    /// The elements of the array here, refusing an empty array with `reason`: an empty list in a
    /// pinning configuration is a mistake whose usual effect is to pin nothing.
    func nonEmptyArray(reason: String) throws(PinningConfigurationLoadError) -> [PropertyListReader] {
        let elements = try array()
        guard !elements.isEmpty else { throw error(.invalidValue("[]", reason: reason)) }
        return elements
    }

    /// The string here.
    func string() throws(PinningConfigurationLoadError) -> String {
        guard case let .string(string) = value else { throw wrongType(expected: "string") }
        return string
    }

    /// The boolean here. Strict: `<integer>1</integer>`, `"YES"` or JSON `1` are not booleans.
    func boolean() throws(PinningConfigurationLoadError) -> Bool {
        guard case let .boolean(bool) = value else { throw wrongType(expected: "boolean") }
        return bool
    }
}

/// A dictionary being read: its members by key, each with its key path.
struct PropertyListDictionary {
    /// The dictionary's own position.
    let reader: PropertyListReader
    let values: [String: PropertyListValue]

    /// The keys, sorted.
    var keys: [String] { values.keys.sorted() }

    /// Whether `key` is present.
    func contains(_ key: String) -> Bool { values[key] != nil }

    /// The member `key`, or nil when absent.
    func member(_ key: String) -> PropertyListReader? {
        values[key].map { reader.member(key, value: $0) }
    }

    /// The member `key`.
    ///
    /// - Throws: ``PinningConfigurationRule/missingKey(_:)`` at this dictionary's key path.
    func required(_ key: String) throws(PinningConfigurationLoadError) -> PropertyListReader {
        guard let member = member(key) else { throw reader.error(.missingKey(key)) }
        return member
    }

    /// Every member, in sorted key order.
    var members: [(key: String, reader: PropertyListReader)] {
        keys.compactMap { key in member(key).map { (key, $0) } }
    }

    /// The boolean member `key`, or `defaultValue` when absent.
    func boolean(_ key: String, default defaultValue: Bool) throws(PinningConfigurationLoadError) -> Bool {
        guard let member = member(key) else { return defaultValue }
        return try member.boolean()
    }
}
