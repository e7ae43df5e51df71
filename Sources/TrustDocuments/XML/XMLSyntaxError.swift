/// A document our XML reader (``XMLDocumentParser``) refuses: not well-formed XML 1.0, or using a
/// feature it does not read on purpose (DTD internal subsets, entity declarations, processing
/// instructions), or over its size, element-count or depth limits.
package struct XMLSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package enum Problem: Hashable, Sendable {
        /// The input is larger than the reader accepts.
        case inputTooLarge(byteCount: Int, limit: Int)
        /// Elements are nested deeper than the reader accepts.
        case nestingTooDeep(limit: Int)
        /// More elements than the reader accepts.
        case tooManyElements(limit: Int)
        /// The bytes are not UTF-8 (the only encoding read).
        case notUTF8
        /// A character XML 1.0 §2.2 does not allow (control characters, U+FFFE, U+FFFF), as a scalar value.
        case invalidCharacter(UInt32)
        /// The input ended inside a construct.
        case unexpectedEndOfInput(expecting: String)
        /// A character that cannot appear here.
        case unexpectedCharacter(found: String, expecting: String)
        /// The `<?xml …?>` declaration is malformed or declares something not read (an encoding other than UTF-8).
        case malformedXMLDeclaration(String)
        /// `<?xml` somewhere other than the very start of the document.
        case misplacedXMLDeclaration
        /// A processing instruction other than the XML declaration (not read).
        case processingInstruction(target: String)
        /// A `<!DOCTYPE …>` after the root element started, or a second one.
        case misplacedDoctype
        /// A `<!DOCTYPE … [ … ]>` internal subset: refused, as it could declare entities.
        case doctypeInternalSubset
        /// A `<!ENTITY …>` declaration: refused, entities are never expanded (no XXE, no entity bombs).
        case entityDeclaration
        /// `&name;` for a name other than the five predefined entities.
        case undefinedEntity(String)
        /// `&#…;` that is malformed or names a character XML does not allow.
        case invalidCharacterReference(String)
        /// A `&` that does not start a reference.
        case bareAmpersand
        /// The same attribute twice on one element.
        case duplicateAttribute(String)
        /// `<` inside an attribute value.
        case lessThanInAttributeValue
        /// An end tag that does not close the innermost open element.
        case mismatchedEndTag(expected: String, found: String, openedOnLine: Int)
        /// The input ended with an element still open.
        case unclosedElement(String, openedOnLine: Int)
        /// `--` inside a comment.
        case doubleHyphenInComment
        /// `]]>` in character data outside a CDATA section.
        case cdataEndInText
        /// No root element.
        case noRootElement
        /// An element or text after the root element ended.
        case contentAfterRootElement
    }

    /// The 1-based line where the problem was found; nil for the size limit, which concerns the whole input.
    package let line: Int?
    /// What is wrong.
    package let problem: Problem

    /// `problem`, found at `line` (nil: about the whole input).
    package init(line: Int?, problem: Problem) {
        self.line = line
        self.problem = problem
    }

    /// `line N: problem`.
    package var description: String {
        let location = line.map { "line \($0): " } ?? ""
        return location + reason
    }

    /// What is wrong, without the line (for messages that place the line themselves).
    package var reason: String {
        switch problem {
        case let .inputTooLarge(byteCount, limit): return "\(byteCount) bytes, more than the \(limit) bytes read"
        case let .nestingTooDeep(limit): return "elements nested more than \(limit) deep"
        case let .tooManyElements(limit): return "more than \(limit) elements"
        case .notUTF8: return "not UTF-8"
        case let .invalidCharacter(scalar): return "character U+\(String(scalar, radix: 16, uppercase: true)) is not allowed in XML"
        case let .unexpectedEndOfInput(expecting): return "input ends, expected \(expecting)"
        case let .unexpectedCharacter(found, expecting): return "found \(found), expected \(expecting)"
        case let .malformedXMLDeclaration(reason): return "malformed XML declaration: \(reason)"
        case .misplacedXMLDeclaration: return "the XML declaration must be the very first thing in the document"
        case let .processingInstruction(target): return "processing instruction <?\(target) …?> is not supported"
        case .misplacedDoctype: return "a DOCTYPE must come once, before the root element"
        case .doctypeInternalSubset: return "DOCTYPE internal subsets are refused (they can declare entities)"
        case .entityDeclaration: return "entity declarations are refused (entities are never expanded)"
        case let .undefinedEntity(name): return "undefined entity &\(name); (only &lt; &gt; &amp; &apos; &quot; are defined)"
        case let .invalidCharacterReference(text): return "invalid character reference \(text)"
        case .bareAmpersand: return "& must start a reference (write &amp;)"
        case let .duplicateAttribute(name): return "attribute \(name) appears twice"
        case .lessThanInAttributeValue: return "< in an attribute value (write &lt;)"
        case let .mismatchedEndTag(expected, found, openedOnLine):
            return "end tag </\(found)> does not close <\(expected)> opened on line \(openedOnLine)"
        case let .unclosedElement(name, openedOnLine): return "<\(name)> opened on line \(openedOnLine) is never closed"
        case .doubleHyphenInComment: return "-- inside a comment"
        case .cdataEndInText: return "]]> in text outside a CDATA section"
        case .noRootElement: return "no root element"
        case .contentAfterRootElement: return "content after the root element"
        }
    }
}
