/// The caps every configuration reader applies to a document, whatever its format, so that a
/// loader answers in milliseconds on any input: bytes read, keys and values produced, and nesting.
///
/// Real configurations are a few kilobytes, a few hundred values and six levels deep; the caps are
/// far above that and far below what would cost noticeable time or memory.
struct DocumentLimits: Hashable, Sendable {
    /// The largest input read, in bytes; for a binary property list, also the most bytes of
    /// strings and data its tree may hold once shared objects are expanded (what its XML form would
    /// at least need).
    var maximumByteCount: Int
    /// The most keys and values (property-list or JSON) or elements (XML) one document may produce.
    /// A binary property list counts an object each time it is used, not once per file.
    var maximumNodeCount: Int
    /// The deepest nesting read: the top value (or the root element) is at depth 1.
    var maximumDepth: Int

    /// 1 MiB (the configuration file cap), 100,000 nodes, 64 levels.
    static let standard = DocumentLimits(maximumByteCount: PinningConfiguration.maximumFileSize,
                                         maximumNodeCount: 100_000, maximumDepth: 64)
}

/// Which of the ``DocumentLimits`` a document goes beyond.
enum DocumentLimitExceeded: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input is larger than ``DocumentLimits/maximumByteCount``.
    case tooLarge(byteCount: Int, limit: Int)
    /// More keys and values than ``DocumentLimits/maximumNodeCount``.
    case tooManyNodes(limit: Int)
    /// Values nested deeper than ``DocumentLimits/maximumDepth``.
    case tooDeep(limit: Int)
    /// More bytes of strings and data than ``DocumentLimits/maximumByteCount`` once shared objects
    /// are expanded.
    case tooMuchContent(limit: Int)

    /// What is over which limit.
    var description: String {
        switch self {
        case let .tooLarge(byteCount, limit): return "\(byteCount) bytes, more than the \(limit) bytes read"
        case let .tooManyNodes(limit): return "more than \(limit) keys and values"
        case let .tooDeep(limit): return "values nested more than \(limit) deep"
        case let .tooMuchContent(limit): return "more than \(limit) bytes of strings and data"
        }
    }
}
