extension DERTag {
    /// Whether this is one of the ASN.1 character-string types ``DERElement/string()`` decodes.
    public var isString: Bool {
        guard tagClass == .universal, !isConstructed else { return false }
        switch number {
        case 12, 18, 19, 20, 22, 26, 28, 30: return true
        default: return false
        }
    }
}

extension DERElement {
    /// Whether the tag is one of the ASN.1 character-string types this reader decodes.
    public var isString: Bool { tag.isString }

    /// Decodes any supported string type, validating its character set:
    /// UTF8String (valid UTF-8), PrintableString, IA5String (7-bit), VisibleString, NumericString,
    /// BMPString (UCS-2, no surrogates), UniversalString (UCS-4), TeletexString (read as Latin-1).
    public func string() throws(DERError) -> String {
        func invalid() -> DERError { DERError(.invalidString(type: tag.description), at: offset) }
        guard isString else {
            throw DERError(.unexpectedTag(expected: "a string type", found: tag.description), at: offset)
        }
        switch tag.number {
        case 12:
            guard let text = DERElement.decodeUTF8(content) else { throw invalid() }
            return text
        case 19:
            guard content.allSatisfy(DERElement.isPrintable) else { throw invalid() }
            return DERElement.ascii(content)
        case 22:
            guard ASCIIScan.isASCII(content) else { throw invalid() }
            return DERElement.ascii(content)
        case 26:
            guard content.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw invalid() }
            return DERElement.ascii(content)
        case 18:
            guard content.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 }) else { throw invalid() }
            return DERElement.ascii(content)
        case 20:
            var scalars = String.UnicodeScalarView()
            for byte in content { scalars.append(Unicode.Scalar(byte)) }
            return String(scalars)
        case 30:
            guard content.count % 2 == 0 else { throw invalid() }
            var scalars = String.UnicodeScalarView()
            var index = content.startIndex
            while index < content.endIndex {
                let value = UInt32(content[index]) << 8 | UInt32(content[index + 1])
                guard let scalar = Unicode.Scalar(value) else { throw invalid() }
                scalars.append(scalar)
                index += 2
            }
            return String(scalars)
        case 28:
            guard content.count % 4 == 0 else { throw invalid() }
            var scalars = String.UnicodeScalarView()
            var index = content.startIndex
            while index < content.endIndex {
                var value: UInt32 = 0
                for k in 0..<4 { value = value << 8 | UInt32(content[index + k]) }
                guard let scalar = Unicode.Scalar(value) else { throw invalid() }
                scalars.append(scalar)
                index += 4
            }
            return String(scalars)
        default:
            throw invalid()
        }
    }

    /// Checks a string element's character set exactly as ``string()`` would, without building a
    /// `String` (no allocation): for parsers that validate eagerly and decode lazily.
    public func validateString() throws(DERError) {
        func invalid() -> DERError { DERError(.invalidString(type: tag.description), at: offset) }
        guard isString else {
            throw DERError(.unexpectedTag(expected: "a string type", found: tag.description), at: offset)
        }
        let bytes = content
        switch tag.number {
        case 12: guard DERElement.isValidUTF8(bytes) else { throw invalid() }
        case 19: guard bytes.allSatisfy(DERElement.isPrintable) else { throw invalid() }
        case 22: guard ASCIIScan.isASCII(bytes) else { throw invalid() }
        case 26: guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw invalid() }
        case 18: guard bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 }) else { throw invalid() }
        case 20: return
        case 28, 30: _ = try string() // rare: decode to validate
        default: throw invalid()
        }
    }

    /// Strict UTF-8 validation (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let count: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: count = 2; upper = 0x9F
            case 0xF0: count = 3; lower = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; upper = 0x8F
            default: return false
            }
            guard end - index > count else { return false }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return false }
            for offset in stride(from: 2, through: count, by: 1) where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += count + 1
        }
        return true
    }

    /// PrintableString's set (X.680 §41.4): letters, digits, space and `'()+,-./:=?`.
    static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: return true
        case 0x20, 0x27, 0x28, 0x29, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3A, 0x3D, 0x3F: return true
        default: return false
        }
    }

    static func ascii(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: Unicode.ASCII.self)
    }

    /// Strict UTF-8: rejects overlong forms, surrogates and truncated sequences.
    static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> String? {
        if ASCIIScan.isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }
}
