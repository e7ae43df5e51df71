/// Whether byte strings are ASCII, eight bytes at a time.
///
/// IA5String checks (SAN, AIA and CRL distribution point names, name attributes) and the ASCII
/// fast paths of name comparison run over every URI and host name of every certificate parsed;
/// `allSatisfy { $0 < 0x80 }` walks a generic iterator, far dearer per byte.
///
/// Public rather than `package`, though only our modules call it: the compiler's cross-module
/// optimisation inlines public code into the parsers of the other modules, not `package` code
/// (narrowed to `package`, the parsers would lose that inlining).
public enum ASCIIScan {
    /// Whether every byte of `bytes` is below 0x80.
    public static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { isASCII($0) }
    }

    /// Whether every byte of `bytes` is below 0x80.
    public static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var offset = 0
        var high: UInt64 = 0
        while count - offset >= 8 {
            high |= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            high |= UInt64(bytes[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
