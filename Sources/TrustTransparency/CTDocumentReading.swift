import Foundation
import TrustDocuments

/// Log lists read with the package's bounded document readers (TrustDocuments): JSON as UTF-8,
/// scanned for duplicate keys and the ``DocumentLimits`` before Foundation's tree is used; XML
/// property lists re-read by the strict XML reader (caps and duplicate keys); binary property lists
/// by our own reader, never Foundation's (which expands shared objects without a bound).
enum CTDocumentReading {
    /// Apple's published list is some 40 KB, five levels deep: the standard caps leave room.
    static let limits = DocumentLimits.standard

    static func json(_ data: Data, file: String, limits: DocumentLimits) throws(CTLogListLoadError) -> PropertyListValue {
        guard data.count <= limits.maximumByteCount else { throw exceeded(.tooLarge(byteCount: data.count, limit: limits.maximumByteCount), file) }
        let (body, problem) = JSONText.utf8Body(of: data)
        guard let body else {
            throw CTLogListLoadError(file: file, rule: problem.map(CTLogListLoadError.Rule.notUTF8) ?? .malformedDocument("not UTF-8"))
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: body, options: []) } catch {
            throw CTLogListLoadError(file: file, rule: .malformedDocument(message(of: error)))
        }
        switch JSONDuplicateKeyScanner.firstFinding(in: body, limits: limits) {
        case let .duplicate(keyPath, key, line)?: throw CTLogListLoadError(file: file, rule: .duplicateKey(keyPath, key: key, line: line))
        case let .overLimit(limit, _, _)?: throw exceeded(limit, file)
        case nil: return try converted(object, file: file)
        }
    }

    static func propertyList(_ data: Data, file: String, limits: DocumentLimits) throws(CTLogListLoadError) -> PropertyListValue {
        guard data.count <= limits.maximumByteCount else { throw exceeded(.tooLarge(byteCount: data.count, limit: limits.maximumByteCount), file) }
        if data.starts(with: Array("bplist".utf8)) {
            do { return try BinaryPropertyListReader.read(Array(data), limits: limits) } catch {
                throw CTLogListLoadError(file: file, rule: .malformedDocument(error.description))
            }
        }
        let object: Any
        var format = PropertyListSerialization.PropertyListFormat.xml
        do { object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format) } catch {
            throw CTLogListLoadError(file: file, rule: .malformedDocument(message(of: error)))
        }
        guard format == .xml else { throw CTLogListLoadError(file: file, rule: .malformedDocument("not an XML or binary property list")) }
        switch PropertyListDuplicateKeyScanner.firstFinding(in: Array(data)) {
        case let .duplicate(keyPath, key, line)?: throw CTLogListLoadError(file: file, rule: .duplicateKey(keyPath, key: key, line: line))
        case let .unreadable(error)?: throw CTLogListLoadError(file: file, rule: .malformedDocument(error.description))
        case nil: return try converted(object, file: file)
        }
    }

    private static func converted(_ object: Any, file: String) throws(CTLogListLoadError) -> PropertyListValue {
        guard let value = PropertyListValue(foundationObject: object) else {
            throw CTLogListLoadError(file: file, rule: .malformedDocument("a value that is not a JSON or property-list type"))
        }
        return value
    }

    private static func exceeded(_ limit: DocumentLimitExceeded, _ file: String) -> CTLogListLoadError {
        switch limit {
        case let .tooLarge(byteCount, maximum): return CTLogListLoadError(file: file, rule: .tooLarge(byteCount: byteCount, limit: maximum))
        case let .tooManyNodes(maximum): return CTLogListLoadError(file: file, rule: .tooManyValues(limit: maximum))
        case let .tooDeep(maximum): return CTLogListLoadError(file: file, rule: .tooDeep(limit: maximum))
        case let .tooMuchContent(maximum): return CTLogListLoadError(file: file, rule: .tooMuchContent(limit: maximum))
        }
    }

    /// The parser's own explanation (Foundation puts it in `NSDebugDescription`).
    private static func message(of error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }
}
