/// A forward-only reader of consecutive DER elements over a byte buffer.
///
/// The reader is a small value type over an `ArraySlice`; reading allocates nothing.
/// Every structural rule of DER (X.690 §10) is enforced as elements are read.
public struct DERReader: Sendable {
    /// Elements may nest at most this deep; deeper input is rejected rather than recursed into.
    public static let maximumDepth = 32

    /// All bytes this reader covers (read and unread).
    private let bytes: ArraySlice<UInt8>
    /// The absolute index of the next unread byte.
    private var position: Int
    /// The nesting depth of the elements this reader returns.
    public let depth: Int
    /// The offset of the element whose content this reader covers; nil for a reader over the input itself.
    private let enclosingElementOffset: Int?

    /// Creates a reader over `bytes`, whose elements are at nesting `depth`.
    public init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.init(bytes, depth: depth, enclosingElementOffset: nil)
    }

    /// Creates a reader over the content of the element at `enclosingElementOffset`.
    init(_ bytes: ArraySlice<UInt8>, depth: Int, enclosingElementOffset: Int?) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.depth = depth
        self.enclosingElementOffset = enclosingElementOffset
    }

    /// The bytes not yet read.
    public var remaining: ArraySlice<UInt8> { bytes[position...] }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { offset == endIndex }

    /// The absolute offset of the next unread byte.
    public var offset: Int { position }

    @usableFromInline var endIndex: Int { bytes.endIndex }

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
    public func peekTag() throws(DERError) -> DERTag? {
        var index = position
        return try readIdentifier(&index)
    }

    /// Reads the next element, or returns nil at the end of input.
    public mutating func next() throws(DERError) -> DERElement? {
        guard position < bytes.endIndex else { return nil }
        guard depth < DERReader.maximumDepth else { throw DERError(.nestingTooDeep, at: position) }
        let start = position
        var index = position
        guard let tag = try readIdentifier(&index) else { throw truncated(at: start, needing: 1) }
        // Universal tag 0 is BER's end-of-contents marker and never a DER element (X.690 §8.1.5).
        if tag.tagClass == .universal && tag.number == 0 { throw DERError(.unexpectedTag(expected: "an element", found: "end-of-contents"), at: start) }
        if tag.universalMustBePrimitive && tag.isConstructed { throw DERError(.constructedMismatch, at: start) }
        if tag.universalMustBeConstructed && !tag.isConstructed { throw DERError(.constructedMismatch, at: start) }
        let length = try readLength(&index)
        guard length <= bytes.endIndex - index else { throw truncated(at: index, needing: length) }
        let contentEnd = index + length
        position = contentEnd
        return DERElement(tag: tag, encoded: bytes[start..<contentEnd], contentOffset: index, depth: depth)
    }

    /// Reads the next element and requires its tag to be `tag`.
    public mutating func read(_ tag: DERTag) throws(DERError) -> DERElement {
        guard let element = try next() else {
            throw DERError(.unexpectedTag(expected: tag.description, found: "end of input"), at: position)
        }
        try element.expect(tag)
        return element
    }

    /// Reads the next element only if its tag is `tag`; otherwise leaves the reader unchanged.
    public mutating func readIfPresent(_ tag: DERTag) throws(DERError) -> DERElement? {
        guard try peekTag() == tag else { return nil }
        return try next()
    }

    /// Reads the next element, whatever its tag; end of input is an error.
    public mutating func readAny() throws(DERError) -> DERElement {
        guard let element = try next() else { throw truncated(at: position, needing: 1, isLowerBound: true) }
        return element
    }

    /// Throws unless every byte has been read. Bytes left inside an element's content are reported
    /// with that element's offset, not as bytes after the outermost element.
    public func finish() throws(DERError) {
        guard position == bytes.endIndex else {
            throw DERError(enclosingElementOffset.map { .trailingBytesInElement(elementOffset: $0) } ?? .trailingBytes, at: position)
        }
    }

    /// A truncation error at `offset` for an element needing `length` bytes from there, naming
    /// where these bytes end: the input for the outermost reader, an enclosing element's content otherwise.
    func truncated(at offset: Int, needing length: Int, isLowerBound: Bool = false) -> DERError {
        DERError(truncatedAt: offset, .init(neededLength: length, isLowerBound: isLowerBound,
                                            availableEnd: bytes.endIndex, endIsEnclosingElement: enclosingElementOffset != nil))
    }

    // MARK: - Identifier and length octets (X.690 §8.1.2, §8.1.3, §10.1)

    private func readIdentifier(_ index: inout Int) throws(DERError) -> DERTag? {
        guard index < bytes.endIndex else { return nil }
        let start = index
        let first = bytes[index]
        index += 1
        let tagClass = DERTag.TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            // High-tag-number form: base-128, no leading 0x80, and only for numbers >= 31.
            number = 0
            var count = 0
            while true {
                guard index < bytes.endIndex else { throw truncated(at: start, needing: index - start + 1, isLowerBound: true) }
                let byte = bytes[index]
                index += 1
                if count == 0 && byte == 0x80 { throw DERError(.nonMinimalTag, at: start) }
                count += 1
                guard count <= 4, number <= (UInt32.max >> 7) else { throw DERError(.tagTooLarge, at: start) }
                number = (number << 7) | UInt32(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            if number < 0x1F { throw DERError(.nonMinimalTag, at: start) }
        }
        return DERTag(tagClass, number: number, constructed: constructed)
    }

    private func readLength(_ index: inout Int) throws(DERError) -> Int {
        let start = index
        guard index < bytes.endIndex else { throw truncated(at: start, needing: 1, isLowerBound: true) }
        let first = bytes[index]
        index += 1
        if first < 0x80 { return Int(first) }
        if first == 0x80 { throw DERError(.indefiniteLength, at: start) }
        let count = Int(first & 0x7F)
        guard count <= 4 else {
            // 0xFF is reserved; anything over 4 octets is beyond any certificate we accept.
            throw DERError(count == 0x7F ? .nonMinimalLength : .lengthTooLarge, at: start)
        }
        guard bytes.endIndex - index >= count else { throw truncated(at: start, needing: 1 + count, isLowerBound: true) }
        var length = 0
        for _ in 0..<count {
            length = (length << 8) | Int(bytes[index])
            index += 1
        }
        // Long form only for lengths >= 128, and without a leading zero octet.
        if length < 0x80 || length < (1 << (8 * (count - 1))) {
            throw DERError(.nonMinimalLength, at: start)
        }
        return length
    }
}
