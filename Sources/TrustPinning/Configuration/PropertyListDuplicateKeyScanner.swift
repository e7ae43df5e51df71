import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Finds a key that appears twice in one `<dict>` of an XML property list that
/// `PropertyListSerialization` has already accepted (it keeps the last of two equal keys).
final class PropertyListDuplicateKeyScanner: NSObject, XMLParserDelegate {
    private var tracker = DuplicateKeyTracker()
    private var keyText: String?
    private(set) var duplicate: (keyPath: String, key: String, line: Int)?

    /// The first duplicate key: its key path, the key, and its 1-based line.
    static func firstDuplicate(in data: Data) -> (keyPath: String, key: String, line: Int)? {
        let scanner = PropertyListDuplicateKeyScanner()
        let parser = XMLParser(data: data)
        parser.delegate = scanner
        // External entities stay unresolved: the scan needs only the element structure.
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        return scanner.duplicate
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        switch elementName {
        case "dict": tracker.beginContainer(isDictionary: true)
        case "array": tracker.beginContainer(isDictionary: false)
        case "key": keyText = ""
        case "plist": break
        default: tracker.scalarValue()
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        keyText?.append(string)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch elementName {
        case "dict", "array":
            tracker.endContainer()
        case "key":
            guard let key = keyText else { return }
            keyText = nil
            if duplicate == nil, let keyPath = tracker.key(key) {
                duplicate = (keyPath, key, parser.lineNumber)
                parser.abortParsing()
            }
        default:
            break
        }
    }
}
