/// Equality of byte strings taken from DER (names, OIDs, encodings), eight bytes at a time.
///
/// `elementsEqual` on two `ArraySlice<UInt8>` walks both through generic iterators, about seven
/// instructions a byte; issuer lookups compare names that are equal but sit in different
/// certificates, so every lookup paid it (≈ 430 instructions for a 60-byte name).
public enum ByteComparison {
    /// Whether `lhs` and `rhs` hold the same bytes.
    public static func equal(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                var offset = 0
                let count = a.count
                while count - offset >= 8 {
                    if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                        return false
                    }
                    offset += 8
                }
                while offset < count {
                    if a[offset] != b[offset] { return false }
                    offset += 1
                }
                return true
            }
        }
    }
}
