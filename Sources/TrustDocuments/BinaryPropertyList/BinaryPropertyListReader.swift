import Foundation

/// Reads a binary property list (`bplist00`) into a ``PropertyListValue``, in place of
/// `PropertyListSerialization`, which on Linux copies every object the file shares once per
/// reference: 300 bytes in which object n is `[n-1, n-1]` expand to 2^40 values.
///
/// Bounded on any input: every offset, count and reference is checked against the bytes before it
/// is used (``BinaryPropertyListTrailer``), and the tree against ``DocumentLimits``. An object is
/// read once and its value shared, but it counts against the budget each time it is used, with
/// all the keys, values and bytes of strings and data it holds — so a file that shares objects
/// is refused as soon as what it stands for passes the caps, without expanding it. Nesting is
/// capped, a container that contains itself is refused, and so is a dictionary with two equal keys
/// (the format can encode them; Foundation keeps one). Only the types pinning configurations use
/// are read: dictionaries with string keys, arrays, ASCII and UTF-16 strings, integers, reals,
/// booleans, dates and data.
package struct BinaryPropertyListReader {
    /// A step of the key path: a dictionary key or an array index.
    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// An object already read: its value, and what one use of it costs.
    private struct Expansion {
        let value: PropertyListValue
        /// Its keys and values, itself included.
        let nodeCount: Int
        /// The bytes of its strings and data.
        let contentByteCount: Int
        /// 1 for a scalar or an empty container, one more per level below.
        let height: Int
    }

    private let bytes: [UInt8]
    private let trailer: BinaryPropertyListTrailer
    private var budget: DocumentBudget
    /// From the top object to the value being read, for errors.
    private var path: [PathComponent] = []
    /// The containers being read, outermost first: a reference to one of them is a cycle.
    private var ancestors: [Int] = []
    /// Objects already read, by number: a shared object is decoded once and its value shared.
    private var expansions: [Int: Expansion] = [:]
    /// The deepest depth counted so far in the container being read, to measure its height.
    private var deepest = 0

    /// The tree of the binary property list `bytes`.
    package static func read(_ bytes: [UInt8], limits: DocumentLimits = .standard) throws(BinaryPropertyListError) -> PropertyListValue {
        guard bytes.count <= limits.maximumByteCount else {
            throw BinaryPropertyListError(keyPath: "", problem: .overLimit(.tooLarge(byteCount: bytes.count, limit: limits.maximumByteCount)))
        }
        var reader = BinaryPropertyListReader(bytes: bytes, trailer: try BinaryPropertyListTrailer(bytes), budget: DocumentBudget(limits: limits))
        return try reader.value(of: reader.trailer.topObject, depth: 1)
    }

    private init(bytes: [UInt8], trailer: BinaryPropertyListTrailer, budget: DocumentBudget) {
        self.bytes = bytes
        self.trailer = trailer
        self.budget = budget
    }

    /// Objects end where the offset table starts.
    private var objectsEnd: Int { trailer.offsetTableStart }

    // MARK: Values

    /// The value of `object` at `depth` (the top object is at depth 1), counted against the budget.
    private mutating func value(of object: Int, depth: Int) throws(BinaryPropertyListError) -> PropertyListValue {
        guard !ancestors.contains(object) else { throw failure(.referenceCycle(object: object)) }
        if let known = expansions[object] {
            let bottom = depth + known.height - 1
            do {
                try budget.countRepeated(nodeCount: known.nodeCount, contentByteCount: known.contentByteCount, deepestDepth: bottom)
            } catch {
                throw failure(.overLimit(error))
            }
            deepest = max(deepest, bottom)
            return known.value
        }
        let offset = try start(of: object)
        let (nodes, content, outerDeepest) = (budget.nodeCount, budget.contentByteCount, deepest)
        deepest = depth
        try count(depth: depth)
        let value: PropertyListValue
        switch bytes[offset] >> 4 {
        case 0xA: value = try array(object, at: offset, depth: depth)
        case 0xD: value = try dictionary(object, at: offset, depth: depth)
        default:
            value = try decodeScalar(object, at: offset)
            if case let .string(string) = value {
                try countContent(string.utf8.count)
            } else if case let .data(data) = value {
                try countContent(data.count)
            }
        }
        expansions[object] = Expansion(
            value: value, nodeCount: budget.nodeCount - nodes,
            contentByteCount: budget.contentByteCount - content, height: deepest - depth + 1)
        deepest = max(outerDeepest, deepest)
        return value
    }

    /// `0xAn` followed by n references.
    private mutating func array(_ object: Int, at offset: Int, depth: Int) throws(BinaryPropertyListError) -> PropertyListValue {
        let (count, start) = try extent(of: object, at: offset, unitSize: trailer.referenceSize)
        ancestors.append(object)
        defer { ancestors.removeLast() }
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(min(count, budget.limits.maximumNodeCount))
        for index in 0..<count {
            let element = try reference(at: start + index * trailer.referenceSize)
            path.append(.index(index))
            defer { path.removeLast() }
            elements.append(try value(of: element, depth: depth + 1))
        }
        return .array(elements)
    }

    /// `0xDn` followed by n key references, then n value references.
    private mutating func dictionary(_ object: Int, at offset: Int, depth: Int) throws(BinaryPropertyListError) -> PropertyListValue {
        let size = trailer.referenceSize
        let (count, start) = try extent(of: object, at: offset, unitSize: 2 * size)
        ancestors.append(object)
        defer { ancestors.removeLast() }
        var members: [String: PropertyListValue] = [:]
        members.reserveCapacity(min(count, budget.limits.maximumNodeCount))
        for index in 0..<count {
            let key = try self.key(try reference(at: start + index * size), depth: depth + 1)
            path.append(.key(key))
            defer { path.removeLast() }
            // Swift compares strings by canonical equivalence, as the dictionary would merge them.
            guard members[key] == nil else { throw failure(.duplicateKey(key)) }
            members[key] = try value(of: try reference(at: start + (count + index) * size), depth: depth + 1)
        }
        return .dictionary(members)
    }

    /// A dictionary key: a string object, counted like a value.
    private mutating func key(_ object: Int, depth: Int) throws(BinaryPropertyListError) -> String {
        let offset = try start(of: object)
        // Only an ASCII (0x5n) or UTF-16 (0x6n) string.
        guard [0x5, 0x6].contains(bytes[offset] >> 4), case let .string(key) = try value(of: object, depth: depth) else {
            throw failure(.malformed("object \(object) at byte \(offset) is a dictionary key but not a string"))
        }
        return key
    }

    // MARK: Scalars

    private func decodeScalar(_ object: Int, at offset: Int) throws(BinaryPropertyListError) -> PropertyListValue {
        let marker = bytes[offset]
        let nibble = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0 where marker == 0x08: return .boolean(false)
        case 0x0 where marker == 0x09: return .boolean(true)
        case 0x1: return .integer(try integer(object, at: offset, sizeExponent: nibble))
        case 0x2 where nibble == 2:
            let bits = try unsigned(object, at: offset + 1, size: 4)
            return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))))
        case 0x2 where nibble == 3:
            return .real(Double(bitPattern: try unsigned(object, at: offset + 1, size: 8)))
        case 0x3 where nibble == 3:
            let seconds = Double(bitPattern: try unsigned(object, at: offset + 1, size: 8))
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, start) = try extent(of: object, at: offset, unitSize: 1)
            return .data(Data(bytes[start..<(start + count)]))
        case 0x5:
            let (count, start) = try extent(of: object, at: offset, unitSize: 1)
            let characters = bytes[start..<(start + count)]
            if let byte = characters.first(where: { $0 >= 0x80 }) {
                throw failure(
                    .malformed("object \(object) at byte \(offset) is an ASCII string with byte 0x\(String(byte, radix: 16, uppercase: true))"))
            }
            return .string(String(decoding: characters, as: UTF8.self))
        case 0x6:
            return .string(try utf16String(object, at: offset))
        default:
            throw failure(
                .unsupportedObject("object \(object) at byte \(offset) is \(Self.typeName(marker)), which pinning configurations do not use"))
        }
    }

    /// `0x1n`: 2^n bytes, big-endian; 1, 2 and 4 bytes are unsigned, 8 signed, 16 (n = 4) a
    /// 128-bit two's complement number CoreFoundation writes for unsigned values above `Int64.max`.
    private func integer(_ object: Int, at offset: Int, sizeExponent: Int) throws(BinaryPropertyListError) -> Int {
        switch sizeExponent {
        case 0, 1, 2:
            let value = try unsigned(object, at: offset + 1, size: 1 << sizeExponent)
            if let integer = Int(exactly: value) { return integer }
        case 3:
            let value = Int64(bitPattern: try unsigned(object, at: offset + 1, size: 8))
            if let integer = Int(exactly: value) { return integer }
        case 4:
            let high = try unsigned(object, at: offset + 1, size: 8)
            let low = Int64(bitPattern: try unsigned(object, at: offset + 9, size: 8))
            // Only values an Int holds: the high half is the sign extension of the low half.
            if high == (low < 0 ? UInt64.max : 0), let integer = Int(exactly: low) { return integer }
        default:
            throw failure(.malformed("object \(object) at byte \(offset) is an integer of 2^\(sizeExponent) bytes (1 to 16 are read)"))
        }
        throw failure(.malformed("object \(object) at byte \(offset) is an integer out of range"))
    }

    /// `0x6n`: n UTF-16 code units, big-endian; an unpaired surrogate is refused.
    private func utf16String(_ object: Int, at offset: Int) throws(BinaryPropertyListError) -> String {
        let (count, start) = try extent(of: object, at: offset, unitSize: 2)
        var units = (0..<count).lazy.map { index in
            UInt16(self.bytes[start + 2 * index]) << 8 | UInt16(self.bytes[start + 2 * index + 1])
        }.makeIterator()
        var decoder = UTF16()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&units) {
            case let .scalarValue(scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: throw failure(.malformed("object \(object) at byte \(offset) is a UTF-16 string with an unpaired surrogate"))
            }
        }
    }

    private static func typeName(_ marker: UInt8) -> String {
        switch marker >> 4 {
        case 0x0 where marker == 0x00: return "null (0x00)"
        case 0x0 where marker == 0x0C || marker == 0x0D: return "a URL (0x\(String(marker, radix: 16, uppercase: true)))"
        case 0x0 where marker == 0x0E: return "a UUID (0x0E)"
        case 0x8: return "a UID (0x8n, a keyed-archiver reference)"
        case 0xB: return "an ordered set (0xBn)"
        case 0xC: return "a set (0xCn)"
        default: return "of unknown type (marker 0x\(String(marker, radix: 16, uppercase: true)))"
        }
    }

    // MARK: Bytes

    /// Counts a key or value at `depth`.
    private mutating func count(depth: Int) throws(BinaryPropertyListError) {
        do { try budget.countNode(atDepth: depth) } catch { throw failure(.overLimit(error)) }
        deepest = max(deepest, depth)
    }

    /// Counts the bytes of a string or data value.
    private mutating func countContent(_ byteCount: Int) throws(BinaryPropertyListError) {
        do { try budget.countContent(byteCount: byteCount) } catch { throw failure(.overLimit(error)) }
    }

    /// Where `object` starts, checked against the offset table.
    private func start(of object: Int) throws(BinaryPropertyListError) -> Int {
        do { return try trailer.offset(of: object, in: bytes) } catch { throw failure(error.problem) }
    }

    /// The object reference at `position` (checked when it is followed).
    private func reference(at position: Int) throws(BinaryPropertyListError) -> Int {
        guard let reference = bytes.bigEndianUnsigned(at: position, size: trailer.referenceSize, end: objectsEnd),
            let object = Int(exactly: reference)
        else {
            throw failure(.malformed("object reference at byte \(position) runs past the objects"))
        }
        return object
    }

    /// The `size`-byte unsigned number at `position`, which must lie among the objects.
    private func unsigned(_ object: Int, at position: Int, size: Int) throws(BinaryPropertyListError) -> UInt64 {
        guard let value = bytes.bigEndianUnsigned(at: position, size: size, end: objectsEnd) else {
            throw failure(.malformed("object \(object) needs \(size) bytes at byte \(position), past the end of the objects (byte \(objectsEnd))"))
        }
        return value
    }

    /// The length of the string, data, array or dictionary at `offset` (the marker's low nibble,
    /// or after 0xF the integer object that follows) and where its content starts, checked to fit
    /// `length` units of `unitSize` bytes before the offset table.
    private func extent(of object: Int, at offset: Int, unitSize: Int) throws(BinaryPropertyListError) -> (length: Int, start: Int) {
        var length = UInt64(bytes[offset] & 0x0F)
        var start = offset + 1
        if length == 0x0F {
            guard start < objectsEnd, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else {
                throw failure(.malformed("object \(object) at byte \(offset) has a length that is not an integer of 1 to 8 bytes"))
            }
            let size = 1 << Int(bytes[start] & 0x0F)
            length = try unsigned(object, at: start + 1, size: size)
            start += 1 + size
        }
        // `start` is at most `objectsEnd` here, so the division cannot be of a negative number.
        guard length <= UInt64((objectsEnd - start) / unitSize) else {
            throw failure(
                .malformed("object \(object) at byte \(offset) has \(length) entries of \(unitSize) bytes, more than fit before byte \(objectsEnd)"))
        }
        return (Int(length), start)
    }

    // MARK: Errors

    private func failure(_ problem: BinaryPropertyListError.Problem) -> BinaryPropertyListError {
        BinaryPropertyListError(keyPath: keyPath, problem: problem)
    }

    /// The path as ``PropertyListReader`` writes it: `a.b[2].c`.
    private var keyPath: String {
        path.reduce(into: "") { text, component in
            switch component {
            case let .key(key): text += text.isEmpty ? key : "." + key
            case let .index(index): text += "[\(index)]"
            }
        }
    }
}
