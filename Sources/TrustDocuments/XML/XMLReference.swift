/// The references XML 1.0 defines without a DTD (§4.6, §4.1): the five predefined entities and
/// numeric character references. Nothing else is ever expanded.
package enum XMLReference {
    /// The predefined entities, by name.
    package static let predefinedEntities: [String: UInt8] = [
        "lt": UInt8(ascii: "<"), "gt": UInt8(ascii: ">"), "amp": UInt8(ascii: "&"),
        "apos": UInt8(ascii: "'"), "quot": UInt8(ascii: "\""),
    ]

    /// The UTF-8 bytes a reference's body (between `&` and `;`) stands for.
    package static func resolve(_ body: String, line: Int) throws(XMLSyntaxError) -> [UInt8] {
        guard body.hasPrefix("#") else {
            guard let byte = predefinedEntities[body] else {
                throw XMLSyntaxError(line: line, problem: .undefinedEntity(body))
            }
            return [byte]
        }
        let hexadecimal = body.hasPrefix("#x")
        let digits = body.dropFirst(hexadecimal ? 2 : 1)
        // Eight digits reach beyond U+10FFFF in either base; longer input is refused before it can overflow.
        guard !digits.isEmpty, digits.count <= 8,
            let value = UInt32(digits, radix: hexadecimal ? 16 : 10),
            digits.allSatisfy({ hexadecimal ? $0.isHexDigit : $0.isNumber }),
            XMLCharacterValidation.isAllowed(value), let scalar = Unicode.Scalar(value)
        else {
            throw XMLSyntaxError(line: line, problem: .invalidCharacterReference("&\(body);"))
        }
        return Array(String(Character(scalar)).utf8)
    }
}
