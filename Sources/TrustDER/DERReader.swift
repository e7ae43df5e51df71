/// A forward-only reader of consecutive DER elements over a byte buffer.
///
/// The reader is a small value type over an `ArraySlice`; reading allocates nothing.
/// Every structural rule of DER (X.690 §10) is enforced as elements are read.
public struct DERReader: Sendable {
    /// Elements may nest at most this deep; deeper input is rejected rather than recursed into.
    public static let maximumDepth = 32

    // The reading methods are @inlinable so that the modules parsing certificates specialise them
    // (see next()).

    /// All bytes this reader covers (read and unread).
    @usableFromInline let bytes: ArraySlice<UInt8>
    /// The absolute index of the next unread byte.
    @usableFromInline var position: Int
    /// The nesting depth of the elements this reader returns.
    public let depth: Int
    /// The offset of the element whose content this reader covers; nil for a reader over the input itself.
    @usableFromInline let enclosingElementOffset: Int?

    /// Creates a reader over `bytes`, whose elements are at nesting `depth`.
    @inlinable public init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.init(bytes, depth: depth, enclosingElementOffset: nil)
    }

    /// Creates a reader over the content of the element at `enclosingElementOffset`.
    @inlinable init(_ bytes: ArraySlice<UInt8>, depth: Int, enclosingElementOffset: Int?) {
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
    @inlinable public static func parseSingle(_ bytes: ArraySlice<UInt8>) throws(DERError) -> DERElement {
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
    @inlinable public func peekTag() throws(DERError) -> DERTag? {
        guard position < bytes.endIndex else { return nil }
        let first = bytes[position]
        // Low-tag-number form (X.690 §8.1.2.2): the tag is the one octet.
        if first & 0x1F != 0x1F { return DERTag(identifierOctet: first) }
        var index = position
        return try readIdentifier(&index)
    }

    /// Reads the next element, or returns nil at the end of input.
    @inlinable public mutating func next() throws(DERError) -> DERElement? {
        let start = position, end = bytes.endIndex
        guard start < end else { return nil }
        // Fast path for what certificates are made of: a one-octet tag and a length of at most two
        // octets (the general path cost ~280 instructions per element, a third of a certificate's
        // parse). Anything else, and every header the fast path would refuse, takes the general
        // path, which applies and reports every rule: both accept exactly the same elements
        // (DERReaderFastPathTests).
        if depth < DERReader.maximumDepth, end - start >= 2 {
            let first = bytes[start], lengthOctet = bytes[start &+ 1]
            if first & 0x1F != 0x1F {
                let tag = DERTag(identifierOctet: first)
                var contentStart = start &+ 2, length = Int(lengthOctet)
                if lengthOctet == 0x81, end - start >= 3 {
                    length = Int(bytes[start &+ 2])
                    contentStart = start &+ 3
                    if length < 0x80 { length = -1 }   // not minimal (X.690 §10.1): the general path reports it
                } else if lengthOctet == 0x82, end - start >= 4 {
                    length = Int(bytes[start &+ 2]) << 8 | Int(bytes[start &+ 3])
                    contentStart = start &+ 4
                    if length < 0x100 { length = -1 }
                } else if lengthOctet >= 0x80 {
                    length = -1
                }
                if length >= 0, length <= end &- contentStart, tag.hasValidUniversalForm {
                    let contentEnd = contentStart &+ length
                    position = contentEnd
                    return DERElement(tag: tag, encoded: bytes[start..<contentEnd], contentOffset: contentStart, depth: depth)
                }
            }
        }
        return try nextInGeneralForm()
    }

    /// ``next()`` for every form X.690 allows (high tag numbers, long lengths), and the errors.
    @usableFromInline mutating func nextInGeneralForm() throws(DERError) -> DERElement? {
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
    @inlinable public mutating func read(_ tag: DERTag) throws(DERError) -> DERElement {
        guard let element = try next() else {
            throw DERError(.unexpectedTag(expected: tag.description, found: "end of input"), at: position)
        }
        try element.expect(tag)
        return element
    }

    /// Reads the next element only if its tag is `tag`; otherwise leaves the reader unchanged.
    @inlinable public mutating func readIfPresent(_ tag: DERTag) throws(DERError) -> DERElement? {
        guard try peekTag() == tag else { return nil }
        return try next()
    }

    /// Reads the next element, whatever its tag; end of input is an error.
    @inlinable public mutating func readAny() throws(DERError) -> DERElement {
        guard let element = try next() else { throw truncated(at: position, needing: 1, isLowerBound: true) }
        return element
    }

    /// Throws unless every byte has been read. Bytes left inside an element's content are reported
    /// with that element's offset, not as bytes after the outermost element.
    @inlinable public func finish() throws(DERError) {
        guard position == bytes.endIndex else {
            throw DERError(enclosingElementOffset.map { .trailingBytesInElement(elementOffset: $0) } ?? .trailingBytes, at: position)
        }
    }

    /// A truncation error at `offset` for an element needing `length` bytes from there, naming
    /// where these bytes end: the input for the outermost reader, an enclosing element's content otherwise.
    @usableFromInline func truncated(at offset: Int, needing length: Int, isLowerBound: Bool = false) -> DERError {
        DERError(truncatedAt: offset, .init(neededLength: length, isLowerBound: isLowerBound,
                                            availableEnd: bytes.endIndex, endIsEnclosingElement: enclosingElementOffset != nil))
    }

    // MARK: - Identifier and length octets (X.690 §8.1.2, §8.1.3, §10.1)

    @usableFromInline func readIdentifier(_ index: inout Int) throws(DERError) -> DERTag? {
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

    @usableFromInline func readLength(_ index: inout Int) throws(DERError) -> Int {
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
