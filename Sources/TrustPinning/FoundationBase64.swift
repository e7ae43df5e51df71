import TrustDER

/// Base64 as Foundation's `Data(base64Encoded:)` reads it with no options, which is how TrustKit
/// reads `TSKPublicKeyHashes` (parse_configuration.m: `initWithBase64EncodedString:options:0`,
/// then a length check of 32 bytes).
///
/// Foundation's decoder (`base64DecodeBytes` in swift-corelibs-foundation and in swift-foundation
/// before 2025, written to match Darwin's) differs from RFC 4648 canonical base64 in one way that
/// matters for pins: the bits of the last character that fall beyond the data ("padding bits")
/// are dropped, not checked, so `…B=` and `…A=` decode to the same bytes. It still refuses any
/// character outside the alphabet (whitespace included), `=` before the end, and a count of
/// characters and `=` that is not a multiple of 4. swift-foundation's rewrite (2025) accepts more
/// `=` at the end than that count allows, and reads `====` as one zero byte where the older
/// decoder reads nothing; what is read here is only what both read alike, so a text that some
/// TrustKit build would refuse or read otherwise is refused.
enum FoundationBase64 {
    /// The bytes Foundation decodes `text` to, or nil where it (either version) would return nil.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        let characters = Array(text)
        let data = characters.prefix { $0 != UInt8(ascii: "=") }
        let padding = characters.count - data.count
        // Only `=` after the first `=`; the whole a multiple of 4; a lone character in the last
        // group decodes to nothing in the older decoder and is refused by the newer one.
        guard characters.dropFirst(data.count).allSatisfy({ $0 == UInt8(ascii: "=") }),
            characters.count % 4 == 0, data.count % 4 != 1
        else { return nil }
        // Complete the last group with "A" (zero bits) and its padding, then drop the bytes the
        // padding stands for: the canonical decoder checks the rest.
        let missing = (4 - data.count % 4) % 4
        guard padding >= missing, !data.isEmpty || padding == 0 else { return nil }
        var completed = Array(data)
        if missing > 0 {
            let lastValue = completed.removeLast()
            guard let masked = maskedPaddingBits(lastValue, missing: missing) else { return nil }
            completed.append(masked)
            completed += Array(repeating: UInt8(ascii: "="), count: missing)
        }
        return Base64.decode(completed)
    }

    /// The alphabet character whose 6-bit value is `character`'s with the bits past the data
    /// cleared: 4 bits when two `=` follow, 2 when one does. Nil for a non-alphabet character.
    private static func maskedPaddingBits(_ character: UInt8, missing: Int) -> UInt8? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        guard let value = alphabet.firstIndex(of: character) else { return nil }
        let mask = missing == 2 ? 0b11_0000 : 0b11_1100
        return alphabet[value & mask]
    }
}
