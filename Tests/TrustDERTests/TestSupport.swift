import TrustDER
import XCTest

/// Asserts that `body` throws a `DERError` with exactly `rule` at byte `offset`.
func assertDERError<T>(
    _ rule: DERError.Rule,
    at offset: Int,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> T
) {
    do {
        let value = try body()
        XCTFail("expected \(rule) at \(offset), but got a value: \(value). \(message())", file: file, line: line)
    } catch let error as DERError {
        XCTAssertEqual(error.rule, rule, "wrong rule (\(error)). \(message())", file: file, line: line)
        XCTAssertEqual(error.offset, offset, "wrong offset (\(error)). \(message())", file: file, line: line)
    } catch {
        XCTFail("expected DERError, got \(type(of: error)): \(error). \(message())", file: file, line: line)
    }
}

/// Asserts that `body` throws a `DERError` (any rule) and returns it, for callers that check it loosely.
@discardableResult
func assertThrowsDERError<T>(
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> T
) -> DERError? {
    do {
        let value = try body()
        XCTFail("expected a DERError, got a value: \(value). \(message())", file: file, line: line)
        return nil
    } catch let error as DERError {
        return error
    } catch {
        XCTFail("expected DERError, got \(type(of: error)): \(error). \(message())", file: file, line: line)
        return nil
    }
}

/// Asserts that `body` throws exactly `expected`.
func assertPEMError<T>(
    _ expected: PEMError,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> T
) {
    do {
        let value = try body()
        XCTFail("expected \(expected), got a value: \(value)", file: file, line: line)
    } catch let error as PEMError {
        XCTAssertEqual(error, expected, file: file, line: line)
    } catch {
        XCTFail("expected PEMError, got \(type(of: error)): \(error)", file: file, line: line)
    }
}

/// Parses `bytes` as exactly one element.
func element(_ bytes: [UInt8]) throws -> DERElement {
    try DERReader.parseSingle(bytes)
}

/// Encodes a short-form or long-form DER length.
func derLength(_ length: Int) -> [UInt8] {
    precondition(length >= 0)
    if length < 0x80 { return [UInt8(length)] }
    var octets: [UInt8] = []
    var rest = length
    while rest > 0 {
        octets.insert(UInt8(rest & 0xFF), at: 0)
        rest >>= 8
    }
    return [0x80 | UInt8(octets.count)] + octets
}

/// A TLV with a single-octet identifier.
func tlv(_ identifier: UInt8, _ content: [UInt8]) -> [UInt8] {
    [identifier] + derLength(content.count) + content
}

/// A TLV with a single-octet identifier and ASCII content.
func tlv(_ identifier: UInt8, ascii text: String) -> [UInt8] {
    tlv(identifier, Array(text.utf8))
}

/// The minimal two's-complement content octets of `value` (X.690 §8.3).
func minimalInteger(_ value: Int64) -> [UInt8] {
    var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
    while bytes.count > 1 {
        let first = bytes[0], second = bytes[1]
        if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
            bytes.removeFirst()
        } else {
            break
        }
    }
    return bytes
}

/// A tree node mirroring one DER element, built by ``walk(_:)``.
struct Node {
    let tag: DERTag
    let offset: Int
    let depth: Int
    let length: Int
    let children: [Node]
}

/// Recursively reads every element of `reader`, descending into every constructed element.
func walk(_ reader: DERReader) throws -> [Node] {
    var reader = reader
    var nodes: [Node] = []
    while let element = try reader.next() {
        let children = element.tag.isConstructed ? try walk(element.children()) : []
        nodes.append(Node(tag: element.tag, offset: element.offset, depth: element.depth,
                          length: element.content.count, children: children))
    }
    return nodes
}

/// Parses exactly one element and walks its whole tree.
func walkSingle(_ bytes: [UInt8]) throws -> Node {
    let root = try DERReader.parseSingle(bytes)
    let children = root.tag.isConstructed ? try walk(root.children()) : []
    return Node(tag: root.tag, offset: root.offset, depth: root.depth, length: root.content.count, children: children)
}

/// Bytes of an ASCII/UTF-8 string.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
