internal import CTrustOpenSSL

/// One-shot message digests computed by libcrypto.
///
/// Contiguous inputs (`[UInt8]`, `ArraySlice<UInt8>`, `ContiguousArray<UInt8>`, buffer
/// pointers) are hashed in place without copying; other collections are copied once.
public enum Digest {
    /// Hashes `bytes` with `algorithm`.
    ///
    /// The input never makes this fail. If libcrypto itself cannot compute a digest (allocation
    /// failure or a broken installation) the result is random bytes of the right length: it fails
    /// closed — it equals no pin, no cache key and no other digest — without trapping. (An empty or
    /// constant result could make two unrelated inputs compare equal.)
    public static func hash(_ algorithm: DigestAlgorithm, _ bytes: some Collection<UInt8>) -> [UInt8] {
        if let digest = checkedHash(algorithm, bytes) { return digest }
        var generator = SystemRandomNumberGenerator()
        return (0..<algorithm.outputByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// SHA-1 of `bytes` (20 bytes). SHA-1 is fine for fingerprints, not for new signatures.
    public static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] { hash(.sha1, bytes) }

    /// SHA-256 of `bytes` (32 bytes).
    public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] { hash(.sha256, bytes) }

    /// SHA-384 of `bytes` (48 bytes).
    public static func sha384(_ bytes: some Collection<UInt8>) -> [UInt8] { hash(.sha384, bytes) }

    /// SHA-512 of `bytes` (64 bytes).
    public static func sha512(_ bytes: some Collection<UInt8>) -> [UInt8] { hash(.sha512, bytes) }

    /// Hashes `bytes`, or returns nil when libcrypto fails (the error queue is cleared).
    static func checkedHash(_ algorithm: DigestAlgorithm, _ bytes: some Collection<UInt8>) -> [UInt8]? {
        if let digest = bytes.withContiguousStorageIfAvailable({ buffer in
            compute(algorithm, UnsafeRawBufferPointer(buffer))
        }) {
            return digest
        }
        let copy = Array(bytes)
        return copy.withUnsafeBytes { compute(algorithm, $0) }
    }

    private static func compute(_ algorithm: DigestAlgorithm, _ input: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let md = EVPDigestTable.shared.md(algorithm) else { return nil }
        let length = algorithm.outputByteCount
        var succeeded = false
        let output = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var size: UInt32 = 0
            // A zero-length input may have a nil base address; libcrypto reads no bytes then,
            // but is still handed a valid pointer.
            let status = withNonNullBaseAddress(input) { pointer, count in
                EVP_Digest(pointer, count, buffer.baseAddress, &size, md, nil)
            }
            if status == 1, Int(size) == length {
                initialized = length
                succeeded = true
            } else {
                buffer.initialize(repeating: 0)
                initialized = length
            }
        }
        guard succeeded else {
            ERR_clear_error()
            return nil
        }
        return output
    }
}
