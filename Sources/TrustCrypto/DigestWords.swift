/// A SHA-256 digest packed into four words, so that hashing and comparing a cache key is a
/// handful of integer operations instead of a walk over a 32-byte array. Shared by the caches of
/// this package (``VerificationKeyCache`` and the validator's), hence `package`.
package struct DigestWords: Hashable, Sendable {
    package let w0: UInt64
    package let w1: UInt64
    package let w2: UInt64
    package let w3: UInt64

    /// Packs a SHA-256 digest (big-endian words, first byte most significant). Digests of another
    /// length are packed from their first 32 bytes, zero-filled (the digests used here are always
    /// 32 bytes: `Digest` returns random bytes of the right length rather than a short result).
    package init(_ digest: [UInt8]) {
        if digest.count >= 32 {
            (w0, w1, w2, w3) = digest.withUnsafeBytes { raw in
                (
                    raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian,
                    raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian,
                    raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).bigEndian,
                    raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self).bigEndian
                )
            }
            return
        }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (index, byte) in digest.enumerated() {
            switch index / 8 {
            case 0: words.0 = words.0 << 8 | UInt64(byte)
            case 1: words.1 = words.1 << 8 | UInt64(byte)
            case 2: words.2 = words.2 << 8 | UInt64(byte)
            default: words.3 = words.3 << 8 | UInt64(byte)
            }
        }
        (w0, w1, w2, w3) = words
    }

    package static func == (lhs: DigestWords, rhs: DigestWords) -> Bool {
        lhs.w0 == rhs.w0 && lhs.w1 == rhs.w1 && lhs.w2 == rhs.w2 && lhs.w3 == rhs.w3
    }

    /// One word of a cryptographic digest is already uniformly distributed.
    package func hash(into hasher: inout Hasher) { hasher.combine(w0) }
}
