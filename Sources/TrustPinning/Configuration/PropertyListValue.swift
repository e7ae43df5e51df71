import Foundation
import TrustCore

/// A value of a parsed property list or JSON document, typed once when the document is read so that
/// the loaders never cast `Any`, and a boolean can never be mistaken for the integer 1 (or the
/// reverse): `<true/>` and JSON `true` are ``boolean(_:)``, `<integer>1</integer>` and JSON `1`
/// are ``integer(_:)``.
///
/// The same tree is built by the writers and serialised with ``xmlPropertyListData()`` or
/// ``jsonData()``, so both directions share one vocabulary.
indirect enum PropertyListValue: Hashable {
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
    var typeName: String {
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
    /// Parses an XML or binary property list.
    ///
    /// A binary property list (`bplist…`) is read by our own ``BinaryPropertyListReader``, never by
    /// Foundation, which expands shared objects without a bound. An XML property list is read by
    /// Foundation (at most 512 levels, linear in its size: XML cannot share) and then by our strict
    /// XML reader, which caps bytes, elements and depth (``DocumentLimits``) and finds duplicate keys.
    ///
    /// - Throws: ``PinningConfigurationRule/malformedDocument(_:)`` with the parser's message, and
    ///   its line when the message names one (CoreFoundation's XML parser says "… on line 12");
    ///   for a binary property list, the key path and the byte of the object at fault;
    ///   ``PinningConfigurationRule/invalidValue(_:reason:)`` at the key's path for a key written
    ///   twice in one dictionary; ``PinningConfigurationRule/unrecognisedFormat(_:)`` for anything
    ///   else Foundation reads as an old-style (OpenStep) property list — which includes arbitrary
    ///   text, read as one string — and for a file too short to be a binary property list.
    static func parsePropertyList(_ data: Data, file: String) throws(PinningConfigurationLoadError) -> PropertyListValue {
        try PinningConfigurationLoadError.checkSize(of: data, file: file)
        if data.starts(with: Array("bplist".utf8)) {
            do { return try BinaryPropertyListReader.read(Array(data)) } catch {
                throw PinningConfigurationLoadError(error, file: file)
            }
        }
        let object: Any
        var format = PropertyListSerialization.PropertyListFormat.xml
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            throw malformed(error, data: data, file: file)
        }
        guard format == .xml else {
            throw PinningConfigurationLoadError(file: file, rule: .unrecognisedFormat("not an XML or binary property list"))
        }
        switch PropertyListDuplicateKeyScanner.firstFinding(in: Array(data)) {
        case let .duplicate(keyPath, key, line)?:
            throw .duplicateKey(key, keyPath: keyPath, line: line, file: file)
        case let .unreadable(error)?:
            throw PinningConfigurationLoadError(file: file, line: error.line, rule: .malformedDocument(error.description))
        case nil:
            break
        }
        return try converting(object, file: file)
    }

    /// Parses a JSON document.
    ///
    /// - Throws: ``PinningConfigurationRule/notUTF8(_:)`` for a document in another encoding;
    ///   ``PinningConfigurationRule/malformedDocument(_:)`` with the parser's message, or
    ///   for a document over the ``DocumentLimits``; ``PinningConfigurationRule/invalidValue(_:reason:)``
    ///   at the key's path and line for a key written twice in one object.
    static func parseJSON(_ data: Data, file: String) throws(PinningConfigurationLoadError) -> PropertyListValue {
        try PinningConfigurationLoadError.checkSize(of: data, file: file)
        // UTF-8 only, its byte order mark skipped, before Foundation decodes anything (RFC 8259 §8.1).
        let text = try JSONText.utf8Body(of: data, file: file)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: text, options: [])
        } catch {
            throw malformed(error, data: text, file: file)
        }
        try JSONDuplicateKeyScanner.check(text, file: file)
        return try converting(object, file: file)
    }

    private static func malformed(_ error: any Error, data: Data, file: String) -> PinningConfigurationLoadError {
        let message = parserMessage(error)
        let line = number(after: "line ", in: message) ?? number(after: "character ", in: message).map { offset in
            // JSONSerialization gives a byte offset ("around character 13"): count the lines before it.
            data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        return PinningConfigurationLoadError(file: file, line: line, rule: .malformedDocument(message))
    }

    /// The parser's own explanation: Foundation puts it in `NSDebugDescription`, the error's
    /// description is only "The data couldn't be read because it isn't in the correct format."
    private static func parserMessage(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }

    /// The number after the first `label` in `message`, if any.
    private static func number(after label: String, in message: String) -> Int? {
        guard let range = message.range(of: label, options: .caseInsensitive) else { return nil }
        let digits = message[range.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
        return Int(digits)
    }

    /// Converts what Foundation returned into the typed tree.
    private static func converting(_ object: Any, file: String) throws(PinningConfigurationLoadError) -> PropertyListValue {
        guard let value = PropertyListValue(foundationObject: object) else {
            throw PinningConfigurationLoadError(
                file: file, rule: .malformedDocument("contains a value that is not a property-list or JSON type"))
        }
        return value
    }

    /// The typed value of a Foundation property-list or JSON object, or nil for any other type
    /// (a dictionary with a non-string key, for one).
    init?(foundationObject object: Any) {
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
