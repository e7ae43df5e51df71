/// A key path into a JSON document, written `domains[2].pins.leaf[0]`.
package struct JSONKeyPath: CustomStringConvertible {
    private var components: [String]

    /// The document's top value.
    package static let root = JSONKeyPath(components: [])

    private init(components: [String]) { self.components = components }

    /// The path of a decoder's coding path.
    package init(_ codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    /// The path of the value under `name` in the object at this path.
    package func key(_ name: String) -> JSONKeyPath { JSONKeyPath(components: components + [name]) }
    /// The path of element `index` of the array at this path.
    package func index(_ index: Int) -> JSONKeyPath { JSONKeyPath(components: components + ["[\(index)]"]) }

    /// `domains[2].pins.leaf[0]`; empty for the root.
    package var description: String {
        var text = ""
        for component in components {
            if !text.isEmpty, !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }
}

/// What a `JSONDecoder` failure says, in the terms a loader reports: where (the key path) and which
/// of four kinds of problem, so that each loader words it as its own error type.
package struct JSONDecodingFailure {
    /// The kinds of problem.
    package enum Kind {
        /// A value of another type: what was expected (`a string`) and what was found (`number`).
        case wrongType(expected: String, found: String)
        /// A required key is missing: its name.
        case missingKey(String)
        /// A value of the right type that the key does not allow: the decoder's words.
        case invalidValue(String)
        /// The text is not JSON: the parser's words (they say where).
        case malformedDocument(String)
    }

    /// Where the problem is (the root for a syntax error).
    package let keyPath: JSONKeyPath
    /// What it is.
    package let kind: Kind

    /// Reads `error`.
    package init(_ error: DecodingError) {
        switch error {
        case let .typeMismatch(type, context):
            keyPath = JSONKeyPath(context.codingPath)
            kind = .wrongType(expected: Self.name(of: type), found: Self.found(context))
        case let .valueNotFound(type, context):
            keyPath = JSONKeyPath(context.codingPath)
            kind = .wrongType(expected: Self.name(of: type), found: "null")
        case let .keyNotFound(key, context):
            keyPath = JSONKeyPath(context.codingPath)
            kind = .missingKey(key.stringValue)
        case let .dataCorrupted(context):
            keyPath = JSONKeyPath(context.codingPath)
            if context.codingPath.isEmpty {
                // Syntax errors: the underlying parser error says where ("around line 3, column 5").
                kind = .malformedDocument(context.underlyingError.map { String(describing: $0) } ?? context.debugDescription)
            } else {
                kind = .invalidValue(context.debugDescription)
            }
        @unknown default:
            keyPath = .root
            kind = .malformedDocument(String(describing: error))
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type: return "an integer"
        case is Bool.Type: return "a boolean"
        case is [String].Type, is [Any].Type: return "an array"
        default: return String(describing: type).contains("Array") ? "an array" : "an object"
        }
    }

    private static func found(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription
        // Foundation says "Expected to decode X but found Y instead."; keep Y when present.
        if let range = text.range(of: "but found "), let end = text.range(of: " instead", range: range.upperBound..<text.endIndex) {
            return String(text[range.upperBound..<end.lowerBound])
        }
        return "another type"
    }
}
