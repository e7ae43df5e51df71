/// A minimal DER encoder for the few structures this package writes (e.g. OCSP requests).
///
/// Nested elements are written through closures; lengths are always minimal.
public struct DERWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// Writes one element with `tag` and the given content octets.
    public mutating func write(_ tag: DERTag, content: some Collection<UInt8>) {
        writeIdentifier(tag)
        writeLength(content.count)
        bytes.append(contentsOf: content)
    }

    /// Writes a constructed element whose content is produced by `body`.
    public mutating func write(_ tag: DERTag, _ body: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        body(&inner)
        write(tag, content: inner.bytes)
    }

    /// Writes a SEQUENCE.
    public mutating func sequence(_ body: (inout DERWriter) -> Void) { write(.sequence, body) }

    /// One TLV from a raw single-octet identifier (any class, either form, tag number < 31) and its
    /// content, with a minimal definite length: for hand-building (including deliberately odd)
    /// encodings, e.g. in tests.
    public static func tlv(identifier: UInt8, content: some Collection<UInt8>) -> [UInt8] {
        var writer = DERWriter()
        writer.bytes.append(identifier)
        writer.writeLength(content.count)
        writer.bytes.append(contentsOf: content)
        return writer.bytes
    }

    /// Writes already-encoded element bytes unchanged.
    public mutating func writeEncoded(_ encoded: some Collection<UInt8>) { bytes.append(contentsOf: encoded) }

    /// Writes an OBJECT IDENTIFIER.
    public mutating func write(_ oid: ASN1ObjectIdentifier) { write(.objectIdentifier, content: oid.bytes) }

    /// Writes NULL.
    public mutating func writeNull() { write(.null, content: []) }

    /// Writes an OCTET STRING.
    public mutating func writeOctetString(_ content: some Collection<UInt8>) { write(.octetString, content: content) }

    /// Writes an INTEGER from its two's-complement content octets (which must already be minimal).
    public mutating func writeIntegerBytes(_ content: some Collection<UInt8>) { write(.integer, content: content) }

    private mutating func writeIdentifier(_ tag: DERTag) {
        let head = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
        if tag.number < 31 {
            bytes.append(head | UInt8(tag.number))
            return
        }
        bytes.append(head | 0x1F)
        var groups: [UInt8] = [UInt8(tag.number & 0x7F)]
        var rest = tag.number >> 7
        while rest > 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(contentsOf: groups.reversed())
    }

    private mutating func writeLength(_ length: Int) {
        if length < 0x80 {
            bytes.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.append(UInt8(rest & 0xFF))
            rest >>= 8
        }
        bytes.append(0x80 | UInt8(octets.count))
        bytes.append(contentsOf: octets.reversed())
    }
}
