import Foundation

/// Scans a JSON document that Foundation has already accepted for what Foundation does not refuse:
/// a key that appears twice in one object (RFC 8259 §4 leaves duplicate names' meaning open;
/// `JSONSerialization` keeps the last, `JSONDecoder` the first), and a document over the reader's
/// ``DocumentLimits`` (Foundation's own cap is 512 levels). TrustPinning's configuration readers
/// and the SPIFFE bundle reader use it alike.
package enum JSONDuplicateKeyScanner {
    /// What the scan found.
    package enum Finding: Hashable, Sendable {
        /// A key written twice: its key path, the key, and its 1-based line.
        case duplicate(keyPath: String, key: String, line: Int)
        /// Over a limit: the key path and line of the value where the scan stopped.
        case overLimit(DocumentLimitExceeded, keyPath: String, line: Int)
    }

    /// The first duplicate key or limit exceeded, in document order; nil when there is none.
    /// Every key and value counts as one node; the top value is at depth 1.
    package static func firstFinding(in data: Data, limits: DocumentLimits) -> Finding? {
        guard data.count <= limits.maximumByteCount else {
            return .overLimit(.tooLarge(byteCount: data.count, limit: limits.maximumByteCount), keyPath: "", line: 1)
        }
        let bytes = Array(data)
        var tracker = DuplicateKeyTracker()
        var budget = DocumentBudget(limits: limits)
        var expectingKey = false
        var line = 1
        var index = 0
        /// Counts a key or value that starts now at `keyPath`.
        func count(at keyPath: String, depth: Int) -> Finding? {
            do { try budget.countNode(atDepth: depth) } catch { return .overLimit(error, keyPath: keyPath, line: line) }
            return nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let depth = tracker.depth + 1
                let keyPath = tracker.beginContainer(isDictionary: byte == UInt8(ascii: "{"))
                if let finding = count(at: keyPath, depth: depth) { return finding }
                expectingKey = byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                tracker.endContainer()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = tracker.isInDictionary
            case UInt8(ascii: ":"):
                expectingKey = false
            case UInt8(ascii: "\""):
                let end = endOfString(bytes, from: index)
                if expectingKey {
                    if let finding = count(at: tracker.containerPath, depth: tracker.depth + 1) { return finding }
                    // Decode escapes, so that "a" and "\u0061" are the same key.
                    let token = Data(bytes[index..<end])
                    let key = (try? JSONSerialization.jsonObject(with: token, options: .fragmentsAllowed)) as? String
                    if let key, let keyPath = tracker.key(key) { return .duplicate(keyPath: keyPath, key: key, line: line) }
                } else {
                    let depth = tracker.depth + 1
                    if let finding = count(at: tracker.scalarValue(), depth: depth) { return finding }
                }
                index = end
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                // A number, true, false or null: one value, up to the next delimiter.
                let depth = tracker.depth + 1
                if let finding = count(at: tracker.scalarValue(), depth: depth) { return finding }
                while index + 1 < bytes.count, !delimiters.contains(bytes[index + 1]) { index += 1 }
            }
            index += 1
        }
        return nil
    }

    private static let delimiters: Set<UInt8> = Set(" \t\r\n,:]}".utf8)

    /// The index just past the string that starts at `start` (its opening quote).
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }
}
