import Foundation
import TrustCore
import TrustDocuments

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
        let line =
            number(after: "line ", in: message)
            ?? number(after: "character ", in: message).map { offset in
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
}
