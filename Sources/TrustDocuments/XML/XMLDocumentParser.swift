/// A small, strict, non-validating XML 1.0 reader for configuration files, so that the core
/// modules need neither libxml2 nor FoundationXML.
///
/// It reads elements, attributes, character data, CDATA sections, comments, the XML declaration
/// and the references that need no DTD (``XMLReference``). It refuses, rather than skips, what
/// could change the meaning of the document or cost more than linear time: DTD internal subsets
/// and entity declarations (no entity expansion, so no XXE and no "billion laughs"), processing
/// instructions, encodings other than UTF-8. A `<!DOCTYPE name>` with at most an external ID is
/// accepted and never fetched. Input size, element count and nesting depth are capped; one pass
/// over the bytes.
package struct XMLDocumentParser {
    /// The caps on what is read.
    package struct Limits: Hashable, Sendable {
        /// The largest input read, in bytes.
        package var maximumByteCount: Int
        /// The deepest element nesting read (the root is depth 1).
        package var maximumDepth: Int
        /// The most elements read, the root included. (Text is bounded by the bytes: it cannot
        /// repeat without markup between.)
        package var maximumElementCount: Int

        /// Caps of `maximumByteCount` bytes, `maximumDepth` levels and `maximumElementCount` elements.
        package init(
            maximumByteCount: Int, maximumDepth: Int,
            maximumElementCount: Int = DocumentLimits.standard.maximumNodeCount
        ) {
            self.maximumByteCount = maximumByteCount
            self.maximumDepth = maximumDepth
            self.maximumElementCount = maximumElementCount
        }

        /// ``DocumentLimits/standard``: 1 MiB, 64 levels and 100,000 elements, far beyond any real
        /// configuration file.
        package static let standard = Limits(
            maximumByteCount: DocumentLimits.standard.maximumByteCount,
            maximumDepth: DocumentLimits.standard.maximumDepth,
            maximumElementCount: DocumentLimits.standard.maximumNodeCount)
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var index = 0
    private var line = 1
    private var elementCount = 0

    /// The root element of `bytes`.
    package static func parse(_ bytes: [UInt8], limits: Limits = .standard) throws(XMLSyntaxError) -> XMLTreeElement {
        guard bytes.count <= limits.maximumByteCount else {
            throw XMLSyntaxError(line: nil, problem: .inputTooLarge(byteCount: bytes.count, limit: limits.maximumByteCount))
        }
        try XMLCharacterValidation.validate(bytes)
        var parser = XMLDocumentParser(bytes: bytes, limits: limits)
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    // MARK: Document structure (XML 1.0 §2.1, §2.8)

    private mutating func parseDocument() throws(XMLSyntaxError) -> XMLTreeElement {
        if hasPrefix([0xEF, 0xBB, 0xBF]) { index += 3 }
        if hasPrefix("<?xml"), isWhitespace(at: index + 5) {
            try parseXMLDeclaration()
        }
        var root: XMLTreeElement?
        var seenDoctype = false
        while true {
            skipWhitespace()
            guard let byte = peek() else { break }
            if byte != UInt8(ascii: "<") {
                throw error(
                    root == nil
                        ? .unexpectedCharacter(found: describe(byte), expecting: "the root element")
                        : .contentAfterRootElement)
            }
            if hasPrefix("<!--") {
                try parseComment()
            } else if hasPrefix("<?") {
                try refuseProcessingInstruction()
            } else if hasPrefix("<!DOCTYPE") {
                guard root == nil, !seenDoctype else { throw error(.misplacedDoctype) }
                seenDoctype = true
                try parseDoctype()
            } else if root == nil {
                root = try parseRootElement()
            } else {
                throw error(.contentAfterRootElement)
            }
        }
        guard let root else { throw error(.noRootElement) }
        return root
    }

    /// `<?xml version="1.x" encoding="UTF-8"? standalone="yes|no"??>` (§2.8, §4.3.3).
    private mutating func parseXMLDeclaration() throws(XMLSyntaxError) {
        index += 5
        var names: [String] = []
        while true {
            let hadWhitespace = skipWhitespace()
            if hasPrefix("?>") { index += 2; break }
            guard hadWhitespace else { throw error(.malformedXMLDeclaration("expected whitespace or ?>")) }
            let name = try readName()
            skipWhitespace()
            try expect("=", expecting: "=")
            skipWhitespace()
            let value = try readPlainLiteral()
            names.append(name)
            switch name {
            case "version":
                let parts = value.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0] == "1", !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII),
                    parts[1].allSatisfy(\.isNumber)
                else {
                    throw error(.malformedXMLDeclaration("version \(value) is not 1.x"))
                }
            case "encoding":
                guard ["utf-8", "utf8"].contains(value.lowercased()) else {
                    throw error(.malformedXMLDeclaration("encoding \(value): only UTF-8 is read"))
                }
            case "standalone":
                guard value == "yes" || value == "no" else {
                    throw error(.malformedXMLDeclaration("standalone must be yes or no"))
                }
            default:
                throw error(.malformedXMLDeclaration("unknown pseudo-attribute \(name)"))
            }
        }
        let order = ["version", "encoding", "standalone"]
        let positions = names.compactMap { order.firstIndex(of: $0) }
        guard names.first == "version", positions == positions.sorted(), Set(names).count == names.count else {
            throw error(.malformedXMLDeclaration("expected version, then encoding and standalone, each once"))
        }
    }

    /// `<!DOCTYPE name (SYSTEM "…" | PUBLIC "…" "…")? >`; an internal subset is refused.
    private mutating func parseDoctype() throws(XMLSyntaxError) {
        let doctypeLine = line
        index += 9
        guard skipWhitespace() else { throw error(.unexpectedCharacter(found: describe(peek()), expecting: "whitespace")) }
        _ = try readName()
        skipWhitespace()
        if hasPrefix("SYSTEM") {
            index += 6
            skipWhitespace()
            _ = try readPlainLiteral()
        } else if hasPrefix("PUBLIC") {
            index += 6
            skipWhitespace()
            _ = try readPlainLiteral()
            skipWhitespace()
            _ = try readPlainLiteral()
        }
        skipWhitespace()
        if peek() == UInt8(ascii: "[") {
            let declaresEntities = bytes[index...].firstRange(of: Array("<!ENTITY".utf8)) != nil
            throw XMLSyntaxError(line: doctypeLine, problem: declaresEntities ? .entityDeclaration : .doctypeInternalSubset)
        }
        try expect(">", expecting: "> ending the DOCTYPE")
    }

    /// `<!-- … -->` without `--` inside (§2.5).
    private mutating func parseComment() throws(XMLSyntaxError) {
        index += 4
        while true {
            guard peek() != nil else { throw error(.unexpectedEndOfInput(expecting: "--> ending the comment")) }
            if hasPrefix("--") {
                guard peek(2) == UInt8(ascii: ">") else { throw error(.doubleHyphenInComment) }
                index += 3
                return
            }
            advance()
        }
    }

    private mutating func refuseProcessingInstruction() throws(XMLSyntaxError) {
        index += 2
        let target = (try? readName()) ?? ""
        throw error(target.lowercased() == "xml" ? .misplacedXMLDeclaration : .processingInstruction(target: target))
    }

    // MARK: Elements (§3.1)

    /// A start tag just read.
    private enum StartTag {
        /// `<name …/>`: the element is complete.
        case empty(XMLTreeElement)
        /// `<name …>`: content and an end tag follow.
        case open(XMLTreeElement)
    }

    /// The root element and everything inside it, with an explicit stack so that depth costs no recursion.
    private mutating func parseRootElement() throws(XMLSyntaxError) -> XMLTreeElement {
        var open: [XMLTreeElement] = []
        switch try parseStartTag(depth: 1) {
        case let .empty(element): return element
        case let .open(element): open.append(element)
        }
        // Only the innermost element's name and line are read here: holding a copy of it would
        // make every append below copy its children (quadratic time).
        while let (name, startLine) = open.last.map({ ($0.name, $0.line) }) {
            if hasPrefix("</") {
                try parseEndTag(closing: name, openedOnLine: startLine)
                let finished = open.removeLast()
                guard !open.isEmpty else { return finished }
                open[open.count - 1].children.append(.element(finished))
            } else if hasPrefix("<!--") {
                try parseComment()
            } else if hasPrefix("<![CDATA[") {
                let textLine = line
                open[open.count - 1].children.append(.text(try parseCDATA(), line: textLine))
            } else if hasPrefix("<?") {
                try refuseProcessingInstruction()
            } else if hasPrefix("<!") {
                throw error(.unexpectedCharacter(found: "<!", expecting: "an element, comment or CDATA section"))
            } else if hasPrefix("<") {
                switch try parseStartTag(depth: open.count + 1) {
                case let .empty(element): open[open.count - 1].children.append(.element(element))
                case let .open(element): open.append(element)
                }
            } else if peek() != nil {
                let textLine = line
                open[open.count - 1].children.append(.text(try parseText(), line: textLine))
            } else {
                throw error(.unclosedElement(name, openedOnLine: startLine))
            }
        }
        throw error(.noRootElement)
    }

    /// Reads `<name attributes>` or `<name attributes/>`.
    private mutating func parseStartTag(depth: Int) throws(XMLSyntaxError) -> StartTag {
        guard depth <= limits.maximumDepth else { throw error(.nestingTooDeep(limit: limits.maximumDepth)) }
        guard elementCount < limits.maximumElementCount else { throw error(.tooManyElements(limit: limits.maximumElementCount)) }
        elementCount += 1
        let startLine = line
        index += 1
        let name = try readName()
        var attributes: [XMLTreeAttribute] = []
        var seen = Set<String>()
        while true {
            let hadWhitespace = skipWhitespace()
            if hasPrefix("/>") {
                index += 2
                return .empty(XMLTreeElement(name: name, line: startLine, attributes: attributes, children: []))
            }
            if peek() == UInt8(ascii: ">") {
                index += 1
                return .open(XMLTreeElement(name: name, line: startLine, attributes: attributes, children: []))
            }
            guard peek() != nil else { throw error(.unexpectedEndOfInput(expecting: "> ending <\(name)>")) }
            guard hadWhitespace else {
                throw error(.unexpectedCharacter(found: describe(peek()), expecting: "whitespace, > or />"))
            }
            let attributeLine = line
            let attributeName = try readName()
            guard seen.insert(attributeName).inserted else { throw error(.duplicateAttribute(attributeName)) }
            skipWhitespace()
            try expect("=", expecting: "= after attribute \(attributeName)")
            skipWhitespace()
            let value = try readAttributeValue()
            attributes.append(XMLTreeAttribute(name: attributeName, value: value, line: attributeLine))
        }
    }

    /// `</name S?>`, which must close the element `expected` opened on `openedOnLine`.
    private mutating func parseEndTag(closing expected: String, openedOnLine: Int) throws(XMLSyntaxError) {
        let endLine = line
        index += 2
        let name = try readName()
        skipWhitespace()
        try expect(">", expecting: "> ending </\(name)>")
        guard name == expected else {
            throw XMLSyntaxError(line: endLine, problem: .mismatchedEndTag(expected: expected, found: name, openedOnLine: openedOnLine))
        }
    }

    // MARK: Character data (§2.4, §2.7, §3.3.3)

    /// Text up to the next `<`, references replaced, line ends normalised (§2.11).
    private mutating func parseText() throws(XMLSyntaxError) -> String {
        var output: [UInt8] = []
        while let byte = peek(), byte != UInt8(ascii: "<") {
            if byte == UInt8(ascii: "&") {
                output += try readReference()
            } else if byte == UInt8(ascii: "]"), hasPrefix("]]>") {
                throw error(.cdataEndInText)
            } else {
                copyCharacter(into: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `<![CDATA[ … ]]>`: the text as written, line ends normalised.
    private mutating func parseCDATA() throws(XMLSyntaxError) -> String {
        index += 9
        var output: [UInt8] = []
        while !hasPrefix("]]>") {
            guard peek() != nil else { throw error(.unexpectedEndOfInput(expecting: "]]> ending the CDATA section")) }
            copyCharacter(into: &output)
        }
        index += 3
        return String(decoding: output, as: UTF8.self)
    }

    /// Copies the byte at the cursor into `output` and moves past it; CR LF and a lone CR become
    /// one LF (§2.11).
    private mutating func copyCharacter(into output: inout [UInt8]) {
        let byte = bytes[index]
        advance()
        guard byte == 0x0D else { return output.append(byte) }
        output.append(0x0A)
        if peek() == 0x0A { advance() }
    }

    /// A quoted attribute value, references replaced and literal tab, CR and LF turned into spaces (§3.3.3).
    private mutating func readAttributeValue() throws(XMLSyntaxError) -> String {
        guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error(.unexpectedCharacter(found: describe(peek()), expecting: "a quoted attribute value"))
        }
        index += 1
        var output: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error(.unexpectedEndOfInput(expecting: "the closing quote")) }
            if byte == quote { index += 1; break }
            switch byte {
            case UInt8(ascii: "<"): throw error(.lessThanInAttributeValue)
            case UInt8(ascii: "&"): output += try readReference()
            case 0x0D:
                advance()
                if peek() == 0x0A { advance() }
                output.append(0x20)
            case 0x09, 0x0A:
                advance()
                output.append(0x20)
            default:
                output.append(byte)
                advance()
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A quoted literal without references (XML declaration values, DOCTYPE identifiers).
    private mutating func readPlainLiteral() throws(XMLSyntaxError) -> String {
        guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error(.unexpectedCharacter(found: describe(peek()), expecting: "a quoted value"))
        }
        index += 1
        let start = index
        while let byte = peek(), byte != quote { advance() }
        guard peek() != nil else { throw error(.unexpectedEndOfInput(expecting: "the closing quote")) }
        let value = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return value
    }

    /// `&…;` at the current position, as the bytes it stands for.
    private mutating func readReference() throws(XMLSyntaxError) -> [UInt8] {
        index += 1
        let start = index
        // A reference body is a name or up to ten digits; a longer run without ';' is not a reference.
        while let byte = peek(), byte != UInt8(ascii: ";"), index - start < 32, isNameByte(byte) || byte == UInt8(ascii: "#") {
            index += 1
        }
        guard peek() == UInt8(ascii: ";"), index > start else { throw error(.bareAmpersand) }
        let body = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return try XMLReference.resolve(body, line: line)
    }

    // MARK: Names (§2.3, restricted to what configuration files use plus any non-ASCII letter)

    private mutating func readName() throws(XMLSyntaxError) -> String {
        let start = index
        guard let first = peek(), isNameStartByte(first) else {
            throw error(.unexpectedCharacter(found: describe(peek()), expecting: "a name"))
        }
        index += 1
        while let byte = peek(), isNameByte(byte) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isNameStartByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        isNameStartByte(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    // MARK: Cursor

    private func peek(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    private func hasPrefix(_ literal: String) -> Bool { bytes[index...].starts(with: literal.utf8) }

    private func hasPrefix(_ literal: [UInt8]) -> Bool { bytes[index...].starts(with: literal) }

    private func isWhitespace(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        return [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position])
    }

    /// Moves past one byte, counting lines: LF, or CR not followed by LF, ends a line.
    private mutating func advance() {
        let byte = bytes[index]
        if byte == 0x0A || (byte == 0x0D && peek(1) != 0x0A) { line += 1 }
        index += 1
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while isWhitespace(at: index) { advance() }
        return index > start
    }

    private mutating func expect(_ character: Character, expecting: String) throws(XMLSyntaxError) {
        guard let ascii = character.asciiValue, peek() == ascii else {
            throw error(
                peek() == nil
                    ? .unexpectedEndOfInput(expecting: expecting)
                    : .unexpectedCharacter(found: describe(peek()), expecting: expecting))
        }
        index += 1
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of input" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func error(_ problem: XMLSyntaxError.Problem) -> XMLSyntaxError {
        XMLSyntaxError(line: line, problem: problem)
    }
}
