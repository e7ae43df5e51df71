import TrustCrypto

/// Why a log list was refused: the file and the rule it breaks.
public struct CTLogListLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule a log list breaks.
    public enum Rule: Hashable, Sendable, CustomStringConvertible {
        /// The input is larger than the bytes read (``CTDocumentLimits/maximumByteCount``).
        case tooLarge(byteCount: Int, limit: Int)
        /// More keys and values than ``CTDocumentLimits/maximumNodeCount``.
        case tooManyValues(limit: Int)
        /// Values nested deeper than ``CTDocumentLimits/maximumDepth``.
        case tooDeep(limit: Int)
        /// More logs than ``CTLogList/maximumLogCount``.
        case tooManyLogs(limit: Int)
        /// The parser's message: not JSON, or not an XML property list.
        case malformedDocument(String)
        /// A binary property list, which this reader does not expand (its shared objects are
        /// unbounded); convert it with `plutil -convert xml1`.
        case binaryPropertyList
        /// A required key is missing, at its key path.
        case missingKey(String)
        /// A value has the wrong type, at its key path.
        case wrongType(String, expected: String, found: String)
        /// A value is unusable, at its key path, and why.
        case invalidValue(String, reason: String)
        /// A log's `log_id` is not the SHA-256 of its `key` (JSON lists), at the log's path.
        case logIDMismatch(String)
        /// Two logs share an ID (base64).
        case duplicateLogID(String)
        /// A log's key cannot verify signatures, at the log's path.
        case unusableKey(String, SignatureError)

        /// The rule in words.
        public var description: String {
            switch self {
            case let .tooLarge(byteCount, limit): return "\(byteCount) bytes, more than the \(limit) bytes read"
            case let .tooManyValues(limit): return "more than \(limit) keys and values"
            case let .tooDeep(limit): return "values nested more than \(limit) deep"
            case let .tooManyLogs(limit): return "more than \(limit) logs"
            case let .malformedDocument(message): return "malformed document: \(message)"
            case .binaryPropertyList: return "a binary property list (convert it to XML with plutil -convert xml1)"
            case let .missingKey(path): return "\(path): missing"
            case let .wrongType(path, expected, found): return "\(path): expected \(expected), found \(found)"
            case let .invalidValue(path, reason): return "\(path): \(reason)"
            case let .logIDMismatch(path): return "\(path): log_id is not the SHA-256 of the log's key"
            case let .duplicateLogID(id): return "two logs have the ID \(id)"
            case let .unusableKey(path, error): return "\(path): unusable log key: \(error)"
            }
        }
    }

    /// The file read (or `"<memory>"`).
    public let file: String
    /// The rule broken.
    public let rule: Rule

    /// An error for `file` breaking `rule`.
    public init(file: String, rule: Rule) {
        self.file = file
        self.rule = rule
    }

    /// `file: rule`.
    public var description: String { "\(file): \(rule)" }
}
