/// Equality of byte strings (DER names, OIDs, encodings; host names' UTF-8), eight bytes at a time.
///
/// `elementsEqual` walks both sides through generic iterators, far dearer per byte; issuer lookups
/// compare names that are equal but sit in different certificates, and host matching compares SAN
/// entries with the reference name, so every evaluation would pay it. The one implementation for
/// every such comparison.
///
/// Public rather than `package`, though only our modules call it: the compiler's cross-module
/// optimisation inlines public code into the parsers of the other modules, not `package` code
/// (narrowed to `package`, the parsers would lose that inlining).
public enum ByteComparison {
    /// Whether `lhs` and `rhs` hold the same bytes.
    public static func equal(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in equal(a, b) } }
    }

    /// Whether `lhs` and `rhs` hold the same bytes.
    public static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var offset = 0
        let count = lhs.count
        while count - offset >= 8 {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        while offset < count {
            if lhs[offset] != rhs[offset] { return false }
            offset += 1
        }
        return true
    }
}
