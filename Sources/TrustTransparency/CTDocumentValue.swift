import Foundation

/// A value of a parsed JSON document or property list, typed once (so a boolean is never read as
/// the integer 1) and counted against ``CTDocumentLimits`` as it is built.
indirect enum CTDocumentValue {
    case dictionary([String: CTDocumentValue])
    case array([CTDocumentValue])
    case string(String)
    case boolean(Bool)
    case number(Double)
    case date(Date)
    case data(Data)
    case null

    /// The type's name in messages.
    var typeName: String {
        switch self {
        case .dictionary: return "dictionary"
        case .array: return "array"
        case .string: return "string"
        case .boolean: return "boolean"
        case .number: return "number"
        case .date: return "date"
        case .data: return "data"
        case .null: return "null"
        }
    }

    /// Parses JSON (UTF-8) within `limits`.
    static func json(_ data: Data, file: String, limits: CTDocumentLimits) throws(CTLogListLoadError) -> CTDocumentValue {
        try checkSize(data, file: file, limits: limits)
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data, options: []) } catch {
            throw CTLogListLoadError(file: file, rule: .malformedDocument(message(of: error)))
        }
        var budget = Budget(remaining: limits.maximumNodeCount)
        return try converting(object, depth: 1, budget: &budget, file: file, limits: limits)
    }

    /// Parses an XML property list within `limits`; a binary one is refused (Foundation expands
    /// its shared objects without a bound).
    static func propertyList(_ data: Data, file: String, limits: CTDocumentLimits) throws(CTLogListLoadError) -> CTDocumentValue {
        try checkSize(data, file: file, limits: limits)
        guard !data.starts(with: Array("bplist".utf8)) else { throw CTLogListLoadError(file: file, rule: .binaryPropertyList) }
        let object: Any
        var format = PropertyListSerialization.PropertyListFormat.xml
        do { object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format) } catch {
            throw CTLogListLoadError(file: file, rule: .malformedDocument(message(of: error)))
        }
        guard format == .xml else {
            throw CTLogListLoadError(file: file, rule: .malformedDocument("not an XML property list"))
        }
        var budget = Budget(remaining: limits.maximumNodeCount)
        return try converting(object, depth: 1, budget: &budget, file: file, limits: limits)
    }

    /// Values left to produce.
    private struct Budget {
        var remaining: Int
    }

    private static func checkSize(_ data: Data, file: String, limits: CTDocumentLimits) throws(CTLogListLoadError) {
        guard data.count <= limits.maximumByteCount else {
            throw CTLogListLoadError(file: file, rule: .tooLarge(byteCount: data.count, limit: limits.maximumByteCount))
        }
    }

    /// The parser's own explanation (Foundation puts it in `NSDebugDescription`).
    private static func message(of error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }

    private static func converting(_ object: Any, depth: Int, budget: inout Budget, file: String,
                                   limits: CTDocumentLimits) throws(CTLogListLoadError) -> CTDocumentValue {
        guard depth <= limits.maximumDepth else { throw CTLogListLoadError(file: file, rule: .tooDeep(limit: limits.maximumDepth)) }
        budget.remaining -= 1
        guard budget.remaining >= 0 else { throw CTLogListLoadError(file: file, rule: .tooManyValues(limit: limits.maximumNodeCount)) }
        // Before any cast to a number: `as? Bool` accepts an NSNumber 1 too.
        if type(of: object) == Bool.self, let bool = object as? Bool { return .boolean(bool) }
        if let number = object as? NSNumber, number === NSNumber(value: true) || number === NSNumber(value: false) {
            return .boolean(number.boolValue)
        }
        switch object {
        case let string as String: return .string(string)
        case let number as NSNumber: return .number(number.doubleValue)
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        case is NSNull: return .null
        case let array as [Any]:
            var values: [CTDocumentValue] = []
            values.reserveCapacity(min(array.count, max(budget.remaining, 0)))
            for element in array {
                values.append(try converting(element, depth: depth + 1, budget: &budget, file: file, limits: limits))
            }
            return .array(values)
        case let dictionary as [String: Any]:
            var values: [String: CTDocumentValue] = [:]
            for (key, element) in dictionary {
                values[key] = try converting(element, depth: depth + 1, budget: &budget, file: file, limits: limits)
            }
            return .dictionary(values)
        default:
            throw CTLogListLoadError(file: file, rule: .malformedDocument("a value that is not a JSON or property-list type"))
        }
    }
}
