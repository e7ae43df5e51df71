/// The layout of a binary property list (`bplist00`): an 8-byte header, the objects, a table of
/// object offsets, and a 32-byte trailer that says where that table is and how wide its entries
/// and the object references are (CoreFoundation's `CFBinaryPList.c` describes the format).
///
/// Every number the trailer gives is checked against the bytes here, once, so that the reader can
/// look objects up without checking the table again.
package struct BinaryPropertyListTrailer: Hashable, Sendable {
    /// The width of an offset-table entry, 1 to 8 bytes.
    package let offsetSize: Int
    /// The width of a reference to an object (in arrays and dictionaries), 1 to 8 bytes.
    package let referenceSize: Int
    /// The number of objects (entries in the offset table), at least 1.
    package let objectCount: Int
    /// The object at the root of the tree, less than ``objectCount``.
    package let topObject: Int
    /// Where the offset table starts; objects lie between the header and here.
    package let offsetTableStart: Int

    /// The header's length: `bplist00`.
    package static let headerSize = 8
    /// The trailer's length.
    package static let trailerSize = 32

    /// Reads and checks the header and the trailer of `bytes`.
    package init(_ bytes: [UInt8]) throws(BinaryPropertyListError) {
        guard bytes.count >= Self.headerSize + Self.trailerSize else {
            throw Self.failure(
                .notBinaryPropertyList(
                    "\(bytes.count) bytes is too short for a binary property list (header and trailer take \(Self.headerSize + Self.trailerSize))"))
        }
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            let version = String(decoding: bytes[6..<8], as: UTF8.self)
            throw Self.failure(.notBinaryPropertyList("binary property list version \"\(version)\" is not read (only bplist00)"))
        }
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Self.failure(
                .malformed("trailer gives offsets of \(offsetSize) bytes and references of \(referenceSize) bytes (each must be 1 to 8)"))
        }
        // Each 8-byte field is at most the file's length to be meaningful: larger values are refused
        // before they are converted, so no conversion or arithmetic below can overflow.
        let fields = [8, 16, 24].map { bytes.bigEndianUnsigned(at: trailer + $0, size: 8, end: bytes.count) ?? .max }
        guard fields.allSatisfy({ $0 <= UInt64(bytes.count) }) else {
            throw Self.failure(.malformed("trailer gives an object count, top object or offset-table offset beyond the file's \(bytes.count) bytes"))
        }
        objectCount = Int(fields[0])
        topObject = Int(fields[1])
        offsetTableStart = Int(fields[2])
        guard objectCount >= 1, topObject < objectCount else {
            throw Self.failure(.malformed("trailer gives top object \(topObject) of \(objectCount) objects"))
        }
        guard offsetTableStart > Self.headerSize, offsetTableStart <= trailer,
            objectCount <= (trailer - offsetTableStart) / offsetSize
        else {
            throw Self.failure(
                .malformed(
                    "offset table of \(objectCount) entries of \(offsetSize) bytes at byte \(offsetTableStart) does not fit between the header and the trailer (byte \(trailer))"
                ))
        }
    }

    /// Where `object` starts: a byte between the header and the offset table.
    package func offset(of object: Int, in bytes: [UInt8]) throws(BinaryPropertyListError) -> Int {
        guard object >= 0, object < objectCount else {
            throw Self.failure(.malformed("reference to object \(object), but there are \(objectCount) objects"))
        }
        // The table fits (checked in init), so this entry is within the bytes.
        let entry = offsetTableStart + object * offsetSize
        guard let offset = bytes.bigEndianUnsigned(at: entry, size: offsetSize, end: bytes.count),
            offset >= UInt64(Self.headerSize), offset < UInt64(offsetTableStart)
        else {
            throw Self.failure(.malformed("object \(object) has an offset outside the objects (bytes \(Self.headerSize) to \(offsetTableStart))"))
        }
        return Int(offset)
    }

    private static func failure(_ problem: BinaryPropertyListError.Problem) -> BinaryPropertyListError {
        BinaryPropertyListError(keyPath: "", problem: problem)
    }
}

extension [UInt8] {
    /// The unsigned big-endian integer of `size` bytes (at most 8) at `position`, or nil when
    /// those bytes do not all lie before `end` (itself at most the array's count).
    package func bigEndianUnsigned(at position: Int, size: Int, end: Int) -> UInt64? {
        guard size >= 0, size <= 8, position >= 0, end <= count, position <= end - size else { return nil }
        var value: UInt64 = 0
        for byte in self[position..<(position + size)] {
            value = value << 8 | UInt64(byte)
        }
        return value
    }
}
