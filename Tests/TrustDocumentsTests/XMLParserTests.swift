import Foundation
@testable import TrustDocuments
import XCTest

final class XMLParserTests: XCTestCase {
    private func parse(_ text: String, limits: XMLDocumentParser.Limits = .standard) throws -> XMLTreeElement {
        try XMLDocumentParser.parse(Array(text.utf8), limits: limits)
    }

    /// The syntax error `text` gets, failing the test when it parses.
    private func syntaxError(
        _ text: String, limits: XMLDocumentParser.Limits = .standard,
        file: StaticString = #filePath, line: UInt = #line
    ) -> XMLSyntaxError? {
        syntaxError(bytes: Array(text.utf8), limits: limits, file: file, line: line)
    }

    private func syntaxError(
        bytes: [UInt8], limits: XMLDocumentParser.Limits = .standard,
        file: StaticString = #filePath, line: UInt = #line
    ) -> XMLSyntaxError? {
        do {
            let root = try XMLDocumentParser.parse(bytes, limits: limits)
            XCTFail("parsed as <\(root.name)>", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testElementsAttributesTextAndLines() throws {
        let root = try parse(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment -->
            <a x="1"
               y='two'>
              <b>hello</b>
              <c/>
            </a>
            """)
        XCTAssertEqual(root.name, "a")
        XCTAssertEqual(root.line, 3)
        XCTAssertEqual(root.attributes, [XMLTreeAttribute(name: "x", value: "1", line: 3), XMLTreeAttribute(name: "y", value: "two", line: 4)])
        XCTAssertEqual(root.childElements.map(\.name), ["b", "c"])
        XCTAssertEqual(root.childElements.map(\.line), [5, 6])
        XCTAssertEqual(root.childElements.first?.text, "hello")
    }

    func testReferencesCDATAAndNormalisation() throws {
        let root = try parse("<a v=\"&lt;&#x41;&#66;&quot;\tx\r\ny\">&amp;&apos;&gt;<![CDATA[<&raw>]]>\r\nz\rw</a>")
        XCTAssertEqual(root.attribute("v")?.value, "<AB\" x y")
        XCTAssertEqual(root.text, "&'><&raw>\nz\nw")
    }

    func testLinesCountCRLFAndLoneCR() throws {
        let root = try parse("<a>\r\n<b/>\r<c/>\n<d/></a>")
        XCTAssertEqual(root.childElements.map(\.line), [2, 3, 4])
    }

    func testUnclosedElementNamesItsLine() {
        XCTAssertEqual(syntaxError("<a>\n  <b>\n</b>\n"), XMLSyntaxError(line: 4, problem: .unclosedElement("a", openedOnLine: 1)))
    }

    func testMismatchedEndTag() {
        XCTAssertEqual(
            syntaxError("<a>\n<b>\n</a>\n</b>"),
            XMLSyntaxError(line: 3, problem: .mismatchedEndTag(expected: "b", found: "a", openedOnLine: 2)))
    }

    func testUndefinedEntityIsRefused() {
        XCTAssertEqual(syntaxError("<a>\n&nbsp;</a>"), XMLSyntaxError(line: 2, problem: .undefinedEntity("nbsp")))
        XCTAssertEqual(syntaxError("<a>&#0;</a>"), XMLSyntaxError(line: 1, problem: .invalidCharacterReference("&#0;")))
        XCTAssertEqual(syntaxError("<a>&#xD800;</a>"), XMLSyntaxError(line: 1, problem: .invalidCharacterReference("&#xD800;")))
        XCTAssertEqual(syntaxError("<a>&#x110000;</a>"), XMLSyntaxError(line: 1, problem: .invalidCharacterReference("&#x110000;")))
        XCTAssertEqual(syntaxError("<a>AT&T</a>"), XMLSyntaxError(line: 1, problem: .bareAmpersand))
    }

    func testEntityDeclarationsAreRefusedNotExpanded() {
        let billionLaughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <lolz>&lol2;</lolz>
            """
        XCTAssertEqual(syntaxError(billionLaughs), XMLSyntaxError(line: 2, problem: .entityDeclaration))
        let externalEntity = "<!DOCTYPE a [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<a>&xxe;</a>"
        XCTAssertEqual(syntaxError(externalEntity), XMLSyntaxError(line: 1, problem: .entityDeclaration))
        XCTAssertEqual(syntaxError("<!DOCTYPE a [ <!ELEMENT a ANY> ]><a/>"), XMLSyntaxError(line: 1, problem: .doctypeInternalSubset))
    }

    func testDoctypeWithoutInternalSubsetIsAcceptedAndNeverFetched() throws {
        XCTAssertEqual(try parse("<!DOCTYPE a>\n<a/>").name, "a")
        XCTAssertEqual(try parse("<!DOCTYPE a SYSTEM \"http://127.0.0.1:1/never.dtd\"><a/>").name, "a")
        XCTAssertEqual(syntaxError("<a/><!DOCTYPE a>"), XMLSyntaxError(line: 1, problem: .misplacedDoctype))
        // An entity an external DTD might declare is still undefined: nothing is read from it.
        XCTAssertEqual(syntaxError("<!DOCTYPE a SYSTEM \"x.dtd\"><a>&ext;</a>"), XMLSyntaxError(line: 1, problem: .undefinedEntity("ext")))
    }

    func testDepthIsCapped() throws {
        let limit = XMLDocumentParser.Limits.standard.maximumDepth
        let atLimit = String(repeating: "<a>", count: limit) + String(repeating: "</a>", count: limit)
        XCTAssertNoThrow(try parse(atLimit))
        let bomb = String(repeating: "<a>\n", count: limit + 1) + String(repeating: "</a>", count: limit + 1)
        XCTAssertEqual(syntaxError(bomb), XMLSyntaxError(line: limit + 1, problem: .nestingTooDeep(limit: limit)))
        // A self-closed element counts as a level too.
        let selfClosedBomb = String(repeating: "<a>", count: limit) + "<b/>" + String(repeating: "</a>", count: limit)
        XCTAssertEqual(syntaxError(selfClosedBomb)?.problem, .nestingTooDeep(limit: limit))
    }

    func testInputSizeIsCapped() {
        let limits = XMLDocumentParser.Limits(maximumByteCount: 100, maximumDepth: 64)
        let text = "<a>" + String(repeating: "x", count: 94) + "</a>"
        XCTAssertEqual(syntaxError(text, limits: limits), XMLSyntaxError(line: nil, problem: .inputTooLarge(byteCount: 101, limit: 100)))
        XCTAssertNoThrow(try parse("<a>" + String(repeating: "x", count: 93) + "</a>", limits: limits))
        let standard = XMLDocumentParser.Limits.standard.maximumByteCount
        XCTAssertEqual(
            syntaxError(bytes: Array(repeating: 0x20, count: standard + 1))?.problem,
            .inputTooLarge(byteCount: standard + 1, limit: standard))
    }

    func testCharactersOutsideXMLAreRefused() {
        XCTAssertEqual(syntaxError(bytes: Array("<a>\n\u{1}</a>".utf8)), XMLSyntaxError(line: 2, problem: .invalidCharacter(1)))
        XCTAssertEqual(syntaxError(bytes: Array("<a>\n\n".utf8) + [0xC0, 0xAF] + Array("</a>".utf8)), XMLSyntaxError(line: 3, problem: .notUTF8))
        XCTAssertEqual(syntaxError(bytes: Array("<a>".utf8) + [0xED, 0xA0, 0x80] + Array("</a>".utf8)), XMLSyntaxError(line: 1, problem: .notUTF8))
        XCTAssertEqual(syntaxError("<a>\u{FFFF}</a>"), XMLSyntaxError(line: 1, problem: .invalidCharacter(0xFFFF)))
    }

    func testOtherWellFormednessErrors() {
        XCTAssertEqual(syntaxError("<a x=\"1\" x=\"2\"/>")?.problem, .duplicateAttribute("x"))
        XCTAssertEqual(syntaxError("<a x=\"<\"/>")?.problem, .lessThanInAttributeValue)
        XCTAssertEqual(syntaxError("<a><!-- x -- y --></a>")?.problem, .doubleHyphenInComment)
        XCTAssertEqual(syntaxError("<a>]]></a>")?.problem, .cdataEndInText)
        XCTAssertEqual(syntaxError("<a/><b/>")?.problem, .contentAfterRootElement)
        XCTAssertEqual(syntaxError("<a/>text")?.problem, .contentAfterRootElement)
        XCTAssertEqual(syntaxError("  <!-- only -->")?.problem, .noRootElement)
        XCTAssertEqual(syntaxError("<a><?php x ?></a>")?.problem, .processingInstruction(target: "php"))
        XCTAssertEqual(syntaxError("\n<?xml version=\"1.0\"?><a/>"), XMLSyntaxError(line: 2, problem: .misplacedXMLDeclaration))
        XCTAssertEqual(syntaxError("<a x=1/>")?.problem, .unexpectedCharacter(found: "'1'", expecting: "a quoted attribute value"))
        XCTAssertEqual(syntaxError("<a><![CDATA[x</a>")?.problem, .unexpectedEndOfInput(expecting: "]]> ending the CDATA section"))
        guard case .malformedXMLDeclaration = syntaxError("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>")?.problem else {
            return XCTFail("an encoding other than UTF-8 must be refused")
        }
    }

    func testLargeInputParsesInLinearTime() throws {
        // ~1 MiB of siblings, attributes and references: a quadratic step would take minutes here.
        let element = "<e k=\"v&amp;w\">t&lt;u</e>\n"
        let count = (XMLDocumentParser.Limits.standard.maximumByteCount - 20) / element.utf8.count
        let text = "<r>" + String(repeating: element, count: count) + "</r>"
        let start = Date()
        let root = try parse(text)
        XCTAssertEqual(root.childElements.count, count)
        XCTAssertEqual(root.childElements.last?.line, count)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }
}
