/// A forward-only reader of consecutive DER elements over a byte buffer.
///
/// The reader is a small value type over an `ArraySlice`; reading allocates nothing.
/// Every structural rule of DER (X.690 §10) is enforced as elements are read.
public struct DERReader: Sendable {
    /// Elements may nest at most this deep; deeper input is rejected rather than recursed into.
    public static let maximumDepth = 32

    /// The bytes not yet read.
    public private(set) var remaining: ArraySlice<UInt8>
    /// The nesting depth of the elements this reader returns.
    public let depth: Int
    /// All bytes this reader covers (read and unread).
    private let bytes: ArraySlice<UInt8>

    /// Creates a reader over `bytes`, whose elements are at nesting `depth`.
    public init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.remaining = bytes
        self.bytes = bytes
        self.depth = depth
    }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { remaining.isEmpty }

    /// The absolute offset of the next unread byte.
    @inlinable public var offset: Int { remaining.startIndex }

    /// Parses exactly one element spanning all of `bytes`: trailing bytes are an error.
    public static func parseSingle(_ bytes: ArraySlice<UInt8>) throws(DERError) -> DERElement {
        var reader = DERReader(bytes)
        guard let element = try reader.next() else { throw DERError(.truncated, at: bytes.startIndex) }
        try reader.finish()
        return element
    }

    /// Parses exactly one element spanning all of `bytes`.
    public static func parseSingle(_ bytes: [UInt8]) throws(DERError) -> DERElement {
        try parseSingle(bytes[...])
    }

    /// The tag of the next element, without consuming it; nil at the end.
    public func peekTag() throws(DERError) -> DERTag? {
        var copy = self
        return try copy.readIdentifier()
    }

    /// Reads the next element, or returns nil at the end of input.
    public mutating func next() throws(DERError) -> DERElement? {
        guard !remaining.isEmpty else { return nil }
        guard depth < DERReader.maximumDepth else { throw DERError(.nestingTooDeep, at: offset) }
        let start = remaining.startIndex
        guard let tag = try readIdentifier() else { throw DERError(.truncated, at: start) }
        // Universal tag 0 is BER's end-of-contents marker and never a DER element (X.690 §8.1.5).
        if tag.tagClass == .universal && tag.number == 0 { throw DERError(.unexpectedTag(expected: "an element", found: "end-of-contents"), at: start) }
        if tag.universalMustBePrimitive && tag.isConstructed { throw DERError(.constructedMismatch, at: start) }
        if tag.universalMustBeConstructed && !tag.isConstructed { throw DERError(.constructedMismatch, at: start) }
        let length = try readLength()
        let contentStart = remaining.startIndex
        guard length <= remaining.count else { throw DERError(.truncated, at: contentStart) }
        let contentEnd = contentStart + length
        let element = DERElement(
            tag: tag,
            content: remaining[contentStart..<contentEnd],
            encoded: bytes[start..<contentEnd],
            depth: depth
        )
        remaining = remaining[contentEnd...]
        return element
    }

    /// Reads the next element and requires its tag to be `tag`.
    public mutating func read(_ tag: DERTag) throws(DERError) -> DERElement {
        guard let element = try next() else {
            throw DERError(.unexpectedTag(expected: tag.description, found: "end of input"), at: offset)
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
        guard let element = try next() else { throw DERError(.truncated, at: offset) }
        return element
    }

    /// Throws unless every byte has been read.
    public func finish() throws(DERError) {
        guard remaining.isEmpty else { throw DERError(.trailingBytes, at: offset) }
    }

    // MARK: - Identifier and length octets (X.690 §8.1.2, §8.1.3, §10.1)

    private mutating func readIdentifier() throws(DERError) -> DERTag? {
        guard let first = remaining.first else { return nil }
        let start = remaining.startIndex
        remaining = remaining.dropFirst()
        let tagClass = DERTag.TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            // High-tag-number form: base-128, no leading 0x80, and only for numbers >= 31.
            number = 0
            var count = 0
            while true {
                guard let byte = remaining.first else { throw DERError(.truncated, at: start) }
                remaining = remaining.dropFirst()
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

    private mutating func readLength() throws(DERError) -> Int {
        let start = remaining.startIndex
        guard let first = remaining.first else { throw DERError(.truncated, at: start) }
        remaining = remaining.dropFirst()
        if first < 0x80 { return Int(first) }
        if first == 0x80 { throw DERError(.indefiniteLength, at: start) }
        let count = Int(first & 0x7F)
        guard count <= 4 else {
            // 0xFF is reserved; anything over 4 octets is beyond any certificate we accept.
            throw DERError(count == 0x7F ? .nonMinimalLength : .lengthTooLarge, at: start)
        }
        guard remaining.count >= count else { throw DERError(.truncated, at: start) }
        var length = 0
        for _ in 0..<count {
            guard let byte = remaining.first else { throw DERError(.truncated, at: start) }
            remaining = remaining.dropFirst()
            length = (length << 8) | Int(byte)
        }
        // Long form only for lengths >= 128, and without a leading zero octet.
        if length < 0x80 || length < (1 << (8 * (count - 1))) {
            throw DERError(.nonMinimalLength, at: start)
        }
        return length
    }
}
