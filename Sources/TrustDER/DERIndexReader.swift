/// A forward-only DER reader that keeps only offsets: the bytes are passed to every call.
///
/// This is where every structural rule of DER (X.690 §8.1, §10) is applied; ``DERReader`` wraps it
/// and hands out ``DERElement`` slices. Reading here retains nothing: an element is five integers,
/// where a slice would retain the input buffer on every copy (an atomic reference-count update per
/// element, and a third of a certificate's parse). Parsers that only validate, or that keep a few
/// fields of a large structure, walk with this reader and slice only what they keep.
///
/// Every call must pass the same bytes (the buffer the first reader was made over, or a slice with
/// the same indices); offsets are absolute indices into it.
///
/// Public rather than `package`, though only our modules call it: the compiler's cross-module
/// optimisation inlines public code into the parsers of the other modules, not `package` code
/// (narrowed to `package`, the parsers would lose that inlining).
public struct DERIndexReader: Sendable {
    /// The absolute index of the next unread byte.
    @inlinable public var position: Int { nextOffset }
    @usableFromInline var nextOffset: Int
    /// The absolute index just past the last byte this reader covers.
    public let endIndex: Int
    /// The nesting depth of the elements this reader returns.
    public let depth: Int
    /// The offset of the element whose content this reader covers; nil for a reader over the input itself.
    @usableFromInline let enclosingElementOffset: Int?

    /// Creates a reader over all of `bytes`, whose elements are at nesting `depth`.
    @inlinable public init(covering bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.init(position: bytes.startIndex, endIndex: bytes.endIndex, depth: depth, enclosingElementOffset: nil)
    }

    @inlinable init(position: Int, endIndex: Int, depth: Int, enclosingElementOffset: Int?) {
        nextOffset = position
        self.endIndex = endIndex
        self.depth = depth
        self.enclosingElementOffset = enclosingElementOffset
    }

    /// ``DERReader/maximumDepth`` as an inlinable constant (a `static let` read from another module
    /// is a lazily initialised global, checked on every read).
    @inlinable static var maximumDepth: Int { 32 }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { position == endIndex }

    /// The one element spanning all of `bytes`: trailing bytes are an error.
    public static func parseSingle(_ bytes: ArraySlice<UInt8>) throws(DERError) -> DERIndexedElement {
        var reader = DERIndexReader(covering: bytes)
        guard let element = try reader.next(in: bytes) else { throw reader.truncated(at: bytes.startIndex, needing: 1) }
        try reader.finish()
        return element
    }

    /// The tag of the next element, without consuming it; nil at the end.
    @inlinable public func peekTag(in bytes: ArraySlice<UInt8>) throws(DERError) -> DERTag? {
        guard position < endIndex else { return nil }
        let first = bytes[position]
        // Low-tag-number form (X.690 §8.1.2.2): the tag is the one octet.
        if first & 0x1F != 0x1F { return DERTag(identifierOctet: first) }
        var index = position
        return try readIdentifier(&index, in: bytes)
    }

    /// Reads the next element, or returns nil at the end.
    @inlinable public mutating func next(in bytes: ArraySlice<UInt8>) throws(DERError) -> DERIndexedElement? {
        let start = position, end = endIndex
        guard start < end else { return nil }
        // Fast path for what certificates are made of: a one-octet tag and a length of at most two
        // octets (the general path is much dearer per element). Anything else, and every
        // header the fast path would refuse, takes the general path, which applies and reports
        // every rule: both accept exactly the same elements (DERReaderFastPathTests).
        if depth < DERIndexReader.maximumDepth, end - start >= 2 {
            let first = bytes[start], lengthOctet = bytes[start &+ 1]
            // Universal tags: never 0 (end-of-contents), and primitive or constructed as the type
            // requires (X.690 §8.1.5, §10.2), tested on the identifier octet itself.
            let number = UInt32(first & 0x1F)
            let forbidden: UInt32 = first & 0x20 != 0 ? DERTag.universalPrimitiveNumbers | 1 : DERTag.universalConstructedNumbers | 1
            if number != 0x1F, first & 0xC0 != 0 || (forbidden >> number) & 1 == 0 {
                var contentStart = start &+ 2, length = Int(lengthOctet)
                if lengthOctet == 0x81, end - start >= 3 {
                    length = Int(bytes[start &+ 2])
                    contentStart = start &+ 3
                    if length < 0x80 { length = -1 } // not minimal (X.690 §10.1): the general path reports it
                } else if lengthOctet == 0x82, end - start >= 4 {
                    length = Int(bytes[start &+ 2]) << 8 | Int(bytes[start &+ 3])
                    contentStart = start &+ 4
                    if length < 0x100 { length = -1 }
                } else if lengthOctet >= 0x80 {
                    length = -1
                }
                if length >= 0, length <= end &- contentStart {
                    let contentEnd = contentStart &+ length
                    // Every OBJECT IDENTIFIER is checked where it is read (X.690 §8.19.2: minimal
                    // arcs), whichever parser reads it and whether or not it is decoded later.
                    if first == 0x06 { try ASN1ObjectIdentifier.validate(bytes, range: contentStart..<contentEnd, at: start) }
                    nextOffset = contentEnd
                    return DERIndexedElement(
                        tag: DERTag(identifierOctet: first), offset: start, contentOffset: contentStart, endOffset: contentEnd, depth: depth)
                }
            }
        }
        return try nextInGeneralForm(in: bytes)
    }

    /// ``next(in:)`` for every form X.690 allows (high tag numbers, long lengths), and the errors.
    @usableFromInline mutating func nextInGeneralForm(in bytes: ArraySlice<UInt8>) throws(DERError) -> DERIndexedElement? {
        guard position < endIndex else { return nil }
        guard depth < DERIndexReader.maximumDepth else { throw DERError(.nestingTooDeep, at: position) }
        let start = position
        var index = position
        guard let tag = try readIdentifier(&index, in: bytes) else { throw truncated(at: start, needing: 1) }
        // Universal tag 0 is BER's end-of-contents marker and never a DER element (X.690 §8.1.5).
        if tag.tagClass == .universal && tag.number == 0 {
            throw DERError(.unexpectedTag(expected: "an element", found: "end-of-contents"), at: start)
        }
        if tag.universalMustBePrimitive && tag.isConstructed { throw DERError(.constructedMismatch, at: start) }
        if tag.universalMustBeConstructed && !tag.isConstructed { throw DERError(.constructedMismatch, at: start) }
        let length = try readLength(&index, in: bytes)
        guard length <= endIndex - index else { throw truncated(at: index, needing: length) }
        let contentEnd = index + length
        if tag == .objectIdentifier { try ASN1ObjectIdentifier.validate(bytes, range: index..<contentEnd, at: start) }
        nextOffset = contentEnd
        return DERIndexedElement(tag: tag, offset: start, contentOffset: index, endOffset: contentEnd, depth: depth)
    }

    /// Reads the next element and requires its tag to be `tag`.
    @inlinable public mutating func read(_ tag: DERTag, in bytes: ArraySlice<UInt8>) throws(DERError) -> DERIndexedElement {
        guard let element = try next(in: bytes) else {
            throw DERError(.unexpectedTag(expected: tag.description, found: "end of input"), at: position)
        }
        try element.expect(tag)
        return element
    }

    /// Reads the next element only if its tag is `tag`; otherwise leaves the reader unchanged.
    @inlinable public mutating func readIfPresent(_ tag: DERTag, in bytes: ArraySlice<UInt8>) throws(DERError) -> DERIndexedElement? {
        guard try peekTag(in: bytes) == tag else { return nil }
        return try next(in: bytes)
    }

    /// Reads the next element, whatever its tag; the end is an error.
    @inlinable public mutating func readAny(in bytes: ArraySlice<UInt8>) throws(DERError) -> DERIndexedElement {
        guard let element = try next(in: bytes) else { throw truncated(at: position, needing: 1, isLowerBound: true) }
        return element
    }

    /// Throws unless every byte has been read. Bytes left inside an element's content are reported
    /// with that element's offset, not as bytes after the outermost element.
    @inlinable public func finish() throws(DERError) {
        guard position == endIndex else {
            throw DERError(enclosingElementOffset.map { .trailingBytesInElement(elementOffset: $0) } ?? .trailingBytes, at: position)
        }
    }

    /// A truncation error at `offset` for an element needing `length` bytes from there, naming
    /// where these bytes end: the input for the outermost reader, an enclosing element's content otherwise.
    @usableFromInline func truncated(at offset: Int, needing length: Int, isLowerBound: Bool = false) -> DERError {
        DERError(
            truncatedAt: offset,
            .init(
                neededLength: length, isLowerBound: isLowerBound,
                availableEnd: endIndex, endIsEnclosingElement: enclosingElementOffset != nil))
    }

    // MARK: - Identifier and length octets (X.690 §8.1.2, §8.1.3, §10.1)

    @usableFromInline func readIdentifier(_ index: inout Int, in bytes: ArraySlice<UInt8>) throws(DERError) -> DERTag? {
        guard index < endIndex else { return nil }
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
                guard index < endIndex else { throw truncated(at: start, needing: index - start + 1, isLowerBound: true) }
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

    @usableFromInline func readLength(_ index: inout Int, in bytes: ArraySlice<UInt8>) throws(DERError) -> Int {
        let start = index
        guard index < endIndex else { throw truncated(at: start, needing: 1, isLowerBound: true) }
        let first = bytes[index]
        index += 1
        if first < 0x80 { return Int(first) }
        if first == 0x80 { throw DERError(.indefiniteLength, at: start) }
        let count = Int(first & 0x7F)
        guard count <= 4 else {
            // 0xFF is reserved; anything over 4 octets is beyond any certificate we accept.
            throw DERError(count == 0x7F ? .nonMinimalLength : .lengthTooLarge, at: start)
        }
        guard endIndex - index >= count else { throw truncated(at: start, needing: 1 + count, isLowerBound: true) }
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

/// One DER element located by offsets into the bytes it was read from (see ``DERIndexReader``).
public struct DERIndexedElement: Sendable, Equatable {
    /// The element's identifier.
    public let tag: DERTag
    /// The absolute offset of the element's first identifier octet.
    public let offset: Int
    /// The absolute offset of the first value octet.
    public let contentOffset: Int
    /// The absolute offset just past the last value octet.
    public let endOffset: Int
    /// How deeply this element is nested below the outermost element (0 for the outermost).
    public let depth: Int

    @inlinable init(tag: DERTag, offset: Int, contentOffset: Int, endOffset: Int, depth: Int) {
        self.tag = tag
        self.offset = offset
        self.contentOffset = contentOffset
        self.endOffset = endOffset
        self.depth = depth
    }

    /// The value octets' indices.
    @inlinable public var contentRange: Range<Int> { contentOffset..<endOffset }
    /// The whole encoding's indices: identifier, length and value octets.
    @inlinable public var encodedRange: Range<Int> { offset..<endOffset }

    /// A reader over this element's children. Throws when the element is primitive.
    @inlinable public func children() throws(DERError) -> DERIndexReader {
        guard tag.isConstructed else { throw DERError(.constructedMismatch, at: offset) }
        return DERIndexReader(position: contentOffset, endIndex: endOffset, depth: depth + 1, enclosingElementOffset: offset)
    }

    /// Throws unless the element has `expected` as its tag.
    @inlinable public func expect(_ expected: DERTag) throws(DERError) {
        guard tag == expected else {
            throw DERError(.unexpectedTag(expected: expected.description, found: tag.description), at: offset)
        }
    }

    /// The element as a slice view of `bytes` (the bytes it was read from), for the decoders that
    /// take a ``DERElement``.
    @inlinable public func element(in bytes: ArraySlice<UInt8>) -> DERElement {
        DERElement(tag: tag, encoded: bytes[offset..<endOffset], contentOffset: contentOffset, depth: depth)
    }
}

extension DERElement {
    /// This element located by offsets, for walking its children with a ``DERIndexReader`` over
    /// ``encoded`` (or any slice of the same buffer that contains it); the depth is kept.
    @inlinable public var indexed: DERIndexedElement {
        DERIndexedElement(tag: tag, offset: offset, contentOffset: contentOffset, endOffset: encoded.endIndex, depth: depth)
    }
}
