/// The caps a document reader applies, whatever the format, so that a loader answers in
/// milliseconds on any input: bytes read, keys and values produced, and nesting. TrustPinning's
/// configuration readers use ``standard``; the SPIFFE bundle reader its own
/// (`SPIFFETrustBundle.jsonLimits`).
package struct DocumentLimits: Hashable, Sendable {
    /// The largest input read, in bytes; for a binary property list, also the most bytes of
    /// strings and data its tree may hold once shared objects are expanded (what its XML form would
    /// at least need).
    package var maximumByteCount: Int
    /// The most keys and values (property-list or JSON) or elements (XML) one document may produce.
    /// A binary property list counts an object each time it is used, not once per file.
    package var maximumNodeCount: Int
    /// The deepest nesting read: the top value (or the root element) is at depth 1.
    package var maximumDepth: Int

    /// Caps of `maximumByteCount` bytes, `maximumNodeCount` keys and values, `maximumDepth` levels.
    package init(maximumByteCount: Int, maximumNodeCount: Int, maximumDepth: Int) {
        self.maximumByteCount = maximumByteCount
        self.maximumNodeCount = maximumNodeCount
        self.maximumDepth = maximumDepth
    }

    /// 1 MiB, 100,000 nodes, 64 levels: the caps of a configuration file (real configurations are a
    /// few kilobytes, a few hundred values and six levels deep).
    package static let standard = DocumentLimits(maximumByteCount: 1 << 20, maximumNodeCount: 100_000, maximumDepth: 64)
}

/// Which of the ``DocumentLimits`` a document goes beyond.
package enum DocumentLimitExceeded: Error, Hashable, Sendable, CustomStringConvertible {
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
    package var description: String {
        switch self {
        case let .tooLarge(byteCount, limit): return "\(byteCount) bytes, more than the \(limit) bytes read"
        case let .tooManyNodes(limit): return "more than \(limit) keys and values"
        case let .tooDeep(limit): return "values nested more than \(limit) deep"
        case let .tooMuchContent(limit): return "more than \(limit) bytes of strings and data"
        }
    }
}
