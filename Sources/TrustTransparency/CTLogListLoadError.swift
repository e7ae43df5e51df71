import TrustCrypto
import TrustDocuments

/// Why a log list was refused: the file and the rule it breaks.
public struct CTLogListLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule a log list breaks.
    public enum Rule: Hashable, Sendable, CustomStringConvertible {
        /// The input is larger than the bytes read (1 MiB).
        case tooLarge(byteCount: Int, limit: Int)
        /// More keys and values than a list may hold (100,000).
        case tooManyValues(limit: Int)
        /// Values nested deeper than a list may nest (64 levels).
        case tooDeep(limit: Int)
        /// A binary property list whose strings and data, its shared objects expanded, exceed the
        /// bytes read.
        case tooMuchContent(limit: Int)
        /// JSON in an encoding other than UTF-8 (RFC 8259 §8.1).
        case notUTF8(JSONEncodingProblem)
        /// A key written twice in one object or dictionary: the key's path, the key, its line.
        case duplicateKey(String, key: String, line: Int)
        /// More logs than ``CTLogList/maximumLogCount``.
        case tooManyLogs(limit: Int)
        /// The parser's message: not JSON, or not a property list.
        case malformedDocument(String)
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
            case let .tooMuchContent(limit): return "more than \(limit) bytes of strings and data"
            case let .notUTF8(problem): return "not UTF-8: \(problem)"
            case let .duplicateKey(path, _, line): return "line \(line): \(path) written twice"
            case let .tooManyLogs(limit): return "more than \(limit) logs"
            case let .malformedDocument(message): return "malformed document: \(message)"
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
