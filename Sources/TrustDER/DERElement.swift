/// One DER element (tag, length, value) viewed in place over the input bytes.
///
/// An element never copies: `content` and `encoded` are slices of the caller's
/// buffer and keep its absolute indices, so `offset` is a position in that buffer.
public struct DERElement: Sendable {
    /// The element's identifier.
    public let tag: DERTag
    /// The whole encoding: identifier, length and value octets.
    public let encoded: ArraySlice<UInt8>
    /// The absolute offset of the first value octet.
    public let contentOffset: Int
    /// How deeply this element is nested below the outermost element (0 for the outermost).
    public let depth: Int

    /// The value octets (a view into `encoded`; one buffer reference per element).
    @inlinable public var content: ArraySlice<UInt8> { encoded[contentOffset...] }
    /// The absolute offset of the element's first identifier octet.
    @inlinable public var offset: Int { encoded.startIndex }

    @usableFromInline init(tag: DERTag, encoded: ArraySlice<UInt8>, contentOffset: Int, depth: Int) {
        self.tag = tag
        self.encoded = encoded
        self.contentOffset = contentOffset
        self.depth = depth
    }

    /// A reader over this element's children. Throws when the element is primitive.
    @inlinable public func children() throws(DERError) -> DERReader {
        guard tag.isConstructed else { throw DERError(.constructedMismatch, at: offset) }
        return DERReader(content, depth: depth + 1, enclosingElementOffset: offset)
    }

    /// Throws unless the element has `expected` as its tag.
    @inlinable public func expect(_ expected: DERTag) throws(DERError) {
        guard tag == expected else {
            throw DERError(.unexpectedTag(expected: expected.description, found: tag.description), at: offset)
        }
    }
}
