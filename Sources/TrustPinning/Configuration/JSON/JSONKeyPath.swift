/// A key path into a JSON document, written `domains[2].pins.leaf[0]`.
struct JSONKeyPath: CustomStringConvertible {
    private var components: [String]

    static let root = JSONKeyPath(components: [])

    private init(components: [String]) { self.components = components }

    /// The path of a decoder's coding path.
    init(_ codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    func key(_ name: String) -> JSONKeyPath { JSONKeyPath(components: components + [name]) }
    func index(_ index: Int) -> JSONKeyPath { JSONKeyPath(components: components + ["[\(index)]"]) }

    var description: String {
        var text = ""
        for component in components {
            if !text.isEmpty, !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }
}

/// A `JSONDecoder` failure as a load error naming the key path.
struct JSONDecodingFailure {
    let error: DecodingError

    init(_ error: DecodingError) { self.error = error }

    func loadError(file: String) -> PinningConfigurationLoadError {
        switch error {
        case let .typeMismatch(type, context):
            return PinningConfigurationLoadError(file: file, keyPath: JSONKeyPath(context.codingPath).description,
                                                 rule: .wrongType(expected: Self.name(of: type), found: Self.found(context)))
        case let .valueNotFound(type, context):
            return PinningConfigurationLoadError(file: file, keyPath: JSONKeyPath(context.codingPath).description,
                                                 rule: .wrongType(expected: Self.name(of: type), found: "null"))
        case let .keyNotFound(key, context):
            return PinningConfigurationLoadError(file: file, keyPath: JSONKeyPath(context.codingPath).description,
                                                 rule: .missingKey("key \"\(key.stringValue)\""))
        case let .dataCorrupted(context):
            let path = JSONKeyPath(context.codingPath).description
            if context.codingPath.isEmpty {
                // Syntax errors: the underlying parser error says where ("around line 3, column 5").
                let detail = context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
                return PinningConfigurationLoadError(file: file, rule: .malformedDocument(detail))
            }
            return PinningConfigurationLoadError(file: file, keyPath: path, rule: .invalidValue(context.debugDescription, reason: "not a value this key allows"))
        @unknown default:
            return PinningConfigurationLoadError(file: file, rule: .malformedDocument(String(describing: error)))
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
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
