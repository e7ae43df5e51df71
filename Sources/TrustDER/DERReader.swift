/// A forward-only reader of consecutive DER elements over a byte buffer.
///
/// The reader is a small value type over an `ArraySlice`; reading allocates nothing, and every
/// element is a ``DERElement`` slice of the buffer. The rules of DER (X.690 §10) are applied by the
/// ``DERIndexReader`` inside, as elements are read.
public struct DERReader: Sendable {
    /// Elements may nest at most this deep; deeper input is rejected rather than recursed into.
    public static let maximumDepth = DERIndexReader.maximumDepth

    /// All bytes this reader covers (read and unread).
    @usableFromInline let bytes: ArraySlice<UInt8>
    /// Where reading stands, and the rules.
    @usableFromInline var cursor: DERIndexReader

    /// Creates a reader over `bytes`, whose elements are at nesting `depth`.
    @inlinable public init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.bytes = bytes
        cursor = DERIndexReader(covering: bytes, depth: depth)
    }

    /// Creates a reader over the content of the element at `enclosingElementOffset`.
    @inlinable init(_ bytes: ArraySlice<UInt8>, depth: Int, enclosingElementOffset: Int?) {
        self.bytes = bytes
        cursor = DERIndexReader(
            position: bytes.startIndex, endIndex: bytes.endIndex, depth: depth,
            enclosingElementOffset: enclosingElementOffset)
    }

    /// The nesting depth of the elements this reader returns.
    public var depth: Int { cursor.depth }

    /// The bytes not yet read.
    public var remaining: ArraySlice<UInt8> { bytes[cursor.position...] }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { cursor.isAtEnd }

    /// The absolute offset of the next unread byte.
    public var offset: Int { cursor.position }

    /// Parses exactly one element spanning all of `bytes`: trailing bytes are an error.
    public static func parseSingle(_ bytes: ArraySlice<UInt8>) throws(DERError) -> DERElement {
        var reader = DERReader(bytes)
        guard let element = try reader.next() else { throw reader.truncated(at: bytes.startIndex, needing: 1) }
        try reader.finish()
        return element
    }

    /// Parses exactly one element spanning all of `bytes`.
    public static func parseSingle(_ bytes: [UInt8]) throws(DERError) -> DERElement {
        try parseSingle(bytes[...])
    }

    /// The tag of the next element, without consuming it; nil at the end.
    public func peekTag() throws(DERError) -> DERTag? { try cursor.peekTag(in: bytes) }

    /// Reads the next element, or returns nil at the end of input.
    public mutating func next() throws(DERError) -> DERElement? {
        guard let element = try cursor.next(in: bytes) else { return nil }
        return element.element(in: bytes)
    }

    /// ``next()`` by the general path only, for the tests that compare it with the fast path.
    mutating func nextInGeneralForm() throws(DERError) -> DERElement? {
        guard let element = try cursor.nextInGeneralForm(in: bytes) else { return nil }
        return element.element(in: bytes)
    }

    /// Reads the next element and requires its tag to be `tag`.
    public mutating func read(_ tag: DERTag) throws(DERError) -> DERElement {
        try cursor.read(tag, in: bytes).element(in: bytes)
    }

    /// Reads the next element only if its tag is `tag`; otherwise leaves the reader unchanged.
    public mutating func readIfPresent(_ tag: DERTag) throws(DERError) -> DERElement? {
        try cursor.readIfPresent(tag, in: bytes)?.element(in: bytes)
    }

    /// Reads the next element, whatever its tag; end of input is an error.
    public mutating func readAny() throws(DERError) -> DERElement {
        try cursor.readAny(in: bytes).element(in: bytes)
    }

    /// Throws unless every byte has been read. Bytes left inside an element's content are reported
    /// with that element's offset, not as bytes after the outermost element.
    public func finish() throws(DERError) { try cursor.finish() }

    /// A truncation error at `offset` for an element needing `length` bytes from there.
    @usableFromInline func truncated(at offset: Int, needing length: Int, isLowerBound: Bool = false) -> DERError {
        cursor.truncated(at: offset, needing: length, isLowerBound: isLowerBound)
    }
}
