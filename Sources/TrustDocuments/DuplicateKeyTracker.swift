/// Follows the dictionaries and arrays of a document as a scanner reports them, to find a key
/// that appears twice in one dictionary. Foundation's parsers keep the last of two equal keys
/// without a word, so a domain entry or a pin list written twice would silently replace the
/// first: the loaders refuse that instead.
package struct DuplicateKeyTracker {
    private struct Container {
        let keyPath: String
        let isDictionary: Bool
        var keys: Set<String> = []
        var lastKey: String?
        var elementCount = 0
    }

    private var open: [Container] = []

    /// A tracker at the top of a document.
    package init() {}

    /// Whether the innermost open container is a dictionary.
    package var isInDictionary: Bool { open.last?.isDictionary ?? false }

    /// How many dictionaries and arrays are open: a value that starts now is at `depth + 1`.
    package var depth: Int { open.count }

    /// The key path of the innermost open dictionary or array; empty at the top.
    package var containerPath: String { open.last?.keyPath ?? "" }

    /// A dictionary or array starts; returns its key path.
    @discardableResult
    package mutating func beginContainer(isDictionary: Bool) -> String {
        let keyPath = nextValuePath()
        open.append(Container(keyPath: keyPath, isDictionary: isDictionary))
        return keyPath
    }

    /// The innermost dictionary or array ends.
    package mutating func endContainer() {
        _ = open.popLast()
    }

    /// A string, number, boolean, date or data value starts; returns its key path.
    @discardableResult
    package mutating func scalarValue() -> String {
        nextValuePath()
    }

    /// A dictionary key; returns its key path when the dictionary already had it.
    package mutating func key(_ key: String) -> String? {
        guard var top = open.popLast() else { return nil }
        defer { open.append(top) }
        top.lastKey = key
        return top.keys.insert(key).inserted ? nil : Self.join(top.keyPath, key)
    }

    /// The key path of the value that starts now, counting it when it is an array element.
    private mutating func nextValuePath() -> String {
        guard var top = open.popLast() else { return "" }
        defer { open.append(top) }
        if top.isDictionary { return Self.join(top.keyPath, top.lastKey ?? "") }
        defer { top.elementCount += 1 }
        return "\(top.keyPath)[\(top.elementCount)]"
    }

    private static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }
}
