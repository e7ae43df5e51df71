/// The caps a log list reader applies so that it answers quickly on any input: bytes read, keys
/// and values produced, nesting. Apple's published list is some 40 KB, five levels deep.
public struct CTDocumentLimits: Hashable, Sendable {
    /// The largest input read, in bytes.
    public var maximumByteCount: Int
    /// The most keys and values one document may produce.
    public var maximumNodeCount: Int
    /// The deepest nesting read: the top value is at depth 1.
    public var maximumDepth: Int

    /// Caps of `maximumByteCount` bytes, `maximumNodeCount` keys and values, `maximumDepth` levels.
    public init(maximumByteCount: Int, maximumNodeCount: Int, maximumDepth: Int) {
        self.maximumByteCount = maximumByteCount
        self.maximumNodeCount = maximumNodeCount
        self.maximumDepth = maximumDepth
    }

    /// 4 MiB, 200,000 values, 16 levels.
    public static let standard = CTDocumentLimits(maximumByteCount: 4 << 20, maximumNodeCount: 200_000, maximumDepth: 16)
}
