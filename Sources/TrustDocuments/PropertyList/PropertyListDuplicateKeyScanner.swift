/// Finds a key that appears twice in one `<dict>` of an XML property list that
/// `PropertyListSerialization` has already accepted (it keeps the last of two equal keys). The
/// document is read again with our own strict XML reader (``XMLDocumentParser``), so the core
/// modules need no libxml2; a property list that reader refuses is refused (fail closed).
package enum PropertyListDuplicateKeyScanner {
    /// What the scan found.
    package enum Finding {
        /// A key written twice: its key path, the key and its 1-based line.
        case duplicate(keyPath: String, key: String, line: Int)
        /// The strict XML reader refused the document.
        case unreadable(XMLSyntaxError)
    }

    /// The first duplicate key, or why the document could not be scanned; nil when every
    /// dictionary's keys are distinct.
    package static func firstFinding(in bytes: [UInt8]) -> Finding? {
        let root: XMLTreeElement
        do { root = try XMLDocumentParser.parse(bytes) } catch { return .unreadable(error) }
        var tracker = DuplicateKeyTracker()
        return scan(root, &tracker)
    }

    /// Walks `element` in document order, as the tracker expects (depth is capped by the reader).
    private static func scan(_ element: XMLTreeElement, _ tracker: inout DuplicateKeyTracker) -> Finding? {
        switch element.name {
        case "plist":
            for child in element.childElements {
                if let finding = scan(child, &tracker) { return finding }
            }
        case "dict", "array":
            tracker.beginContainer(isDictionary: element.name == "dict")
            for child in element.childElements {
                if let finding = scan(child, &tracker) { return finding }
            }
            tracker.endContainer()
        case "key":
            if let keyPath = tracker.key(element.text) {
                return .duplicate(keyPath: keyPath, key: element.text, line: element.line)
            }
        default:
            tracker.scalarValue()
        }
        return nil
    }
}
