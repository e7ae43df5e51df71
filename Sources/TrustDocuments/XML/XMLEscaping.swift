/// Escaping for text and attribute values written into XML (XML 1.0 §2.4, §3.1).
package enum XMLEscaping {
    /// `text` with `&`, `<`, `>` and `"` replaced by references, so it can stand as character data
    /// or inside a double-quoted attribute value.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
