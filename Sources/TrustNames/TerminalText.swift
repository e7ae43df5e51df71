/// Text from certificates, made safe to show on a terminal or in a log.
///
/// Subjects, SANs and other strings in a certificate are chosen by whoever made it. Written raw, a
/// C0 or C1 control character (ESC, CSI, newline, carriage return…) can recolour or rewrite the
/// screen, fake output lines, or set the window title; a bidi override can make text read
/// differently from what it is (Trojan Source, CVE-2021-42574). ``escaped(_:)`` writes each such
/// character as `\uXXXX`, which is also its JSON escape, so the same function serves text and JSON.
package enum TerminalText {
    /// Whether `scalar` must not reach a terminal raw: C0 controls (U+0000–U+001F), DEL (U+007F),
    /// C1 controls (U+0080–U+009F), the Arabic letter mark and left-to-right / right-to-left marks
    /// (U+061C, U+200E, U+200F), the line and paragraph separators (U+2028, U+2029), and the bidi
    /// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
    package static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069:
            return true
        default:
            return false
        }
    }

    /// `text` with every character of ``mustEscape(_:)`` written as `\uXXXX` (four lowercase hex
    /// digits, as JSON writes them); everything else, including other non-ASCII text, unchanged.
    package static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: mustEscape) else { return String(text) }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard mustEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            // Every escaped scalar is at most U+2069: four hex digits suffice.
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return result
    }
}
