/// A BIT STRING's value: the octets and how many bits of the last octet are unused.
public struct DERBitString: Sendable, Hashable {
    /// The value octets (padding bits of the last octet are zero).
    public let bytes: ArraySlice<UInt8>
    /// How many trailing bits of the last octet are not part of the value (0…7).
    public let unusedBits: UInt8

    /// The number of bits in the value.
    public var bitCount: Int { bytes.count * 8 - Int(unusedBits) }

    /// Whether bit `index` (0 = most significant bit of the first octet) is set.
    public func isSet(_ index: Int) -> Bool {
        guard index >= 0, index < bitCount else { return false }
        let byte = bytes[bytes.startIndex + index / 8]
        return byte & (0x80 >> UInt8(index % 8)) != 0
    }
}

extension DERIndexedElement {
    // The primitive decoders' rules live here, over offsets; ``DERElement``'s decoders call these.

    /// Decodes a BOOLEAN (X.690 §11.1: DER requires 0x00 or 0xFF); `bytes` are the bytes the
    /// element was read from.
    @inlinable public func boolean(in bytes: ArraySlice<UInt8>) throws(DERError) -> Bool {
        try expect(.boolean)
        guard endOffset - contentOffset == 1 else { throw DERError(.invalidBoolean, at: offset) }
        let value = bytes[contentOffset]
        guard value == 0x00 || value == 0xFF else { throw DERError(.invalidBoolean, at: offset) }
        return value == 0xFF
    }

    /// Decodes a NULL, which must be empty (X.690 §8.8.2).
    @inlinable public func null() throws(DERError) {
        try expect(.null)
        guard contentOffset == endOffset else { throw DERError(.invalidNull, at: offset) }
    }

    /// The two's-complement octets of an INTEGER (or ENUMERATED), checked to be minimal (X.690 §8.3.2).
    public func integerBytes(in bytes: ArraySlice<UInt8>, tag expected: DERTag = .integer) throws(DERError) -> ArraySlice<UInt8> {
        try expect(expected)
        let content = bytes[contentRange]
        try DERIndexedElement.checkMinimalInteger(content, at: offset)
        return content
    }

    /// Checks the minimal two's-complement rule for INTEGER contents.
    static func checkMinimalInteger(_ content: ArraySlice<UInt8>, at offset: Int) throws(DERError) {
        guard let first = content.first else { throw DERError(.nonMinimalInteger, at: offset) }
        if content.count > 1 {
            let second = content[content.startIndex + 1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw DERError(.nonMinimalInteger, at: offset)
            }
        }
    }

    /// Decodes an INTEGER that must fit `T` (negative values only for signed `T`).
    public func integer<T: FixedWidthInteger>(
        as type: T.Type = T.self, in bytes: ArraySlice<UInt8>,
        tag expected: DERTag = .integer
    ) throws(DERError) -> T {
        let integer = try integerBytes(in: bytes, tag: expected)
        guard let first = integer.first else { throw DERError(.nonMinimalInteger, at: offset) }
        let negative = first & 0x80 != 0
        if negative && !T.isSigned { throw DERError(.integerOutOfRange, at: offset) }
        // Strip one sign-only leading zero before the width check.
        var magnitude = integer
        if first == 0x00 && integer.count > 1 { magnitude = integer.dropFirst() }
        guard magnitude.count <= T.bitWidth / 8 else { throw DERError(.integerOutOfRange, at: offset) }
        var value: T = negative ? ~0 : 0
        for byte in magnitude { value = (value << 8) | T(truncatingIfNeeded: byte) }
        if T.isSigned && magnitude.count == T.bitWidth / 8 && (value < 0) != negative {
            throw DERError(.integerOutOfRange, at: offset)
        }
        return value
    }

    /// Decodes a BIT STRING (X.690 §11.2: unused bits ≤ 7, zero when empty, padding bits zero).
    public func bitString(in bytes: ArraySlice<UInt8>, tag expected: DERTag = .bitString) throws(DERError) -> DERBitString {
        try expect(expected)
        guard contentOffset < endOffset else { throw DERError(.invalidBitString, at: offset) }
        let unused = bytes[contentOffset]
        guard unused <= 7 else { throw DERError(.invalidBitString, at: offset) }
        let value = bytes[(contentOffset + 1)..<endOffset]
        if value.isEmpty {
            guard unused == 0 else { throw DERError(.invalidBitString, at: offset) }
        } else if let last = value.last, unused > 0, last & ((1 << unused) - 1) != 0 {
            throw DERError(.invalidBitString, at: offset)
        }
        return DERBitString(bytes: value, unusedBits: unused)
    }

    /// Decodes an OCTET STRING (or another primitive type with `tag`) and returns its contents.
    @inlinable public func octetString(in bytes: ArraySlice<UInt8>, tag expected: DERTag = .octetString) throws(DERError) -> ArraySlice<UInt8> {
        try expect(expected)
        return bytes[contentRange]
    }

    /// Decodes an OBJECT IDENTIFIER, validating every arc.
    public func objectIdentifier(in bytes: ArraySlice<UInt8>) throws(DERError) -> ASN1ObjectIdentifier {
        try expect(.objectIdentifier)
        return try ASN1ObjectIdentifier(validating: bytes[contentRange], at: offset)
    }

    /// Checks an OBJECT IDENTIFIER as ``objectIdentifier(in:)`` does, without making a slice.
    @inlinable public func validateObjectIdentifier(in bytes: ArraySlice<UInt8>) throws(DERError) {
        try expect(.objectIdentifier)
        try ASN1ObjectIdentifier.validate(bytes, range: contentRange, at: offset)
    }
}

extension DERElement {
    /// Decodes a BOOLEAN (X.690 §11.1: DER requires 0x00 or 0xFF).
    public func boolean() throws(DERError) -> Bool { try indexed.boolean(in: encoded) }

    /// Decodes a NULL, which must be empty (X.690 §8.8.2).
    public func null() throws(DERError) { try indexed.null() }

    /// The two's-complement octets of an INTEGER (or ENUMERATED), checked to be minimal (X.690 §8.3.2).
    public func integerBytes(tag expected: DERTag = .integer) throws(DERError) -> ArraySlice<UInt8> {
        try indexed.integerBytes(in: encoded, tag: expected)
    }

    /// Decodes an INTEGER that must fit `T` (negative values only for signed `T`).
    public func integer<T: FixedWidthInteger>(as type: T.Type = T.self, tag expected: DERTag = .integer) throws(DERError) -> T {
        try indexed.integer(as: type, in: encoded, tag: expected)
    }

    /// Decodes a BIT STRING (X.690 §11.2: unused bits ≤ 7, zero when empty, padding bits zero).
    public func bitString(tag expected: DERTag = .bitString) throws(DERError) -> DERBitString {
        try indexed.bitString(in: encoded, tag: expected)
    }

    /// Decodes an OCTET STRING (or another primitive type with `tag`) and returns its contents.
    public func octetString(tag expected: DERTag = .octetString) throws(DERError) -> ArraySlice<UInt8> {
        try indexed.octetString(in: encoded, tag: expected)
    }

    /// Decodes an OBJECT IDENTIFIER, validating every arc.
    public func objectIdentifier() throws(DERError) -> ASN1ObjectIdentifier { try indexed.objectIdentifier(in: encoded) }
}
