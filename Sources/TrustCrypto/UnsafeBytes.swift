/// A one-byte buffer whose address stands in for the base address of an empty buffer.
private let emptyInputByte: UInt8 = 0

/// Calls `body` with a non-nil pointer to `buffer`'s bytes and their count.
///
/// Empty buffers may have a nil base address; C APIs that take `(pointer, length)` are then
/// given the address of a private byte with length 0, so they never see a null pointer.
func withNonNullBaseAddress<Result>(
    _ buffer: UnsafeRawBufferPointer,
    _ body: (UnsafeRawPointer, Int) -> Result
) -> Result {
    if let base = buffer.baseAddress { return body(base, buffer.count) }
    return withUnsafePointer(to: emptyInputByte) { body(UnsafeRawPointer($0), 0) }
}

/// Calls `body` with a non-nil pointer to `bytes`' storage (see the raw-buffer variant).
func withNonNullBytes<Result>(
    _ bytes: ArraySlice<UInt8>,
    _ body: (UnsafePointer<UInt8>, Int) -> Result
) -> Result {
    bytes.withUnsafeBytes { raw in
        withNonNullBaseAddress(raw) { pointer, count in
            body(pointer.assumingMemoryBound(to: UInt8.self), count)
        }
    }
}
