/// Base64 text with the padding bits of its last character set: a non-canonical spelling of the same
/// bytes (RFC 4648 §3.5), which TrustKit's Foundation decoding accepts (issue 43). For base64 of 32
/// bytes, one `=` of padding: the character before it carries two padding bits.
///
/// - Returns: nil when `canonical` does not end in exactly one `=` after a base64 character.
public func withPaddingBitsSet(_ canonical: String) -> String? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var text = Array(canonical)
    guard text.count >= 2, text[text.count - 1] == "=", text[text.count - 2] != "=",
        let value = alphabet.firstIndex(of: text[text.count - 2])
    else { return nil }
    text[text.count - 2] = alphabet[value | 0b11]
    return String(text)
}
