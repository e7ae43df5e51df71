import Foundation

/// Finds a key that appears twice in one object of a JSON document that `JSONSerialization` has
/// already accepted (RFC 8259 §4 leaves duplicate names' meaning open; Foundation keeps the last).
enum JSONDuplicateKeyScanner {
    /// The first duplicate key: its key path, the key, and its 1-based line.
    static func firstDuplicate(in data: Data) -> (keyPath: String, key: String, line: Int)? {
        let bytes = Array(data)
        var tracker = DuplicateKeyTracker()
        var expectingKey = false
        var line = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                tracker.beginContainer(isDictionary: byte == UInt8(ascii: "{"))
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
                    // Decode escapes, so that "a" and "\u0061" are the same key.
                    let token = Data(bytes[index..<end])
                    let key = (try? JSONSerialization.jsonObject(with: token, options: .fragmentsAllowed)) as? String
                    if let key, let keyPath = tracker.key(key) { return (keyPath, key, line) }
                } else {
                    tracker.scalarValue()
                }
                index = end
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                // A number, true, false or null: one value, up to the next delimiter.
                tracker.scalarValue()
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
