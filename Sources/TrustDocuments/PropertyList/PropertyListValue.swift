import Foundation

/// A value of a parsed property list or JSON document, typed once when the document is read so that
/// the loaders never cast `Any`, and a boolean can never be mistaken for the integer 1 (or the
/// reverse): `<true/>` and JSON `true` are ``boolean(_:)``, `<integer>1</integer>` and JSON `1`
/// are ``integer(_:)``.
///
/// TrustPinning's configuration writers build the same tree and serialise it, so both directions
/// share one vocabulary.
package indirect enum PropertyListValue: Hashable {
    case dictionary([String: PropertyListValue])
    case array([PropertyListValue])
    case string(String)
    case boolean(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Data)
    /// JSON `null` (property lists have no null).
    case null

    /// The type's name in messages (`expected boolean, found integer`).
    package var typeName: String {
        switch self {
        case .dictionary: return "dictionary"
        case .array: return "array"
        case .string: return "string"
        case .boolean: return "boolean"
        case .integer: return "integer"
        case .real: return "real number"
        case .date: return "date"
        case .data: return "data"
        case .null: return "null"
        }
    }
}

extension PropertyListValue {
    /// The typed value of a Foundation property-list or JSON object, or nil for any other type
    /// (a dictionary with a non-string key, for one).
    package init?(foundationObject object: Any) {
        // Before any cast to a number type: `as? Bool` and `as? Int` both accept either kind.
        if Self.isBoolean(object), let bool = object as? Bool {
            self = .boolean(bool)
            return
        }
        switch object {
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            self = Self.isFloatingPoint(number) ? .real(number.doubleValue) : .integer(number.intValue)
        case let date as Date:
            self = .date(date)
        case let data as Data:
            self = .data(data)
        case let array as [Any]:
            var values: [PropertyListValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let value = PropertyListValue(foundationObject: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            var values: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let value = PropertyListValue(foundationObject: element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        case is NSNull:
            self = .null
        default:
            return nil
        }
    }

    /// Whether `object` is a boolean and not a number. The property-list parser returns `<true/>`
    /// as a Swift `Bool` and `<integer>1</integer>` as an `NSNumber`; JSON `true` is the
    /// `kCFBooleanTrue` singleton, which is also what `NSNumber(value: true)` returns, while JSON
    /// `1` is another `NSNumber`. (CoreFoundation's `CFBooleanGetTypeID` is not visible on Linux.)
    private static func isBoolean(_ object: Any) -> Bool {
        if type(of: object) == Bool.self { return true }
        guard let number = object as? NSNumber else { return false }
        return number === NSNumber(value: true) || number === NSNumber(value: false)
    }

    /// Whether a number is a real (`<real>`, JSON `1.5`): its Objective-C type is `float` or `double`.
    private static func isFloatingPoint(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "d" || type == "f"
    }
}
