import Foundation
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
        nodes.append(
            Node(
                tag: element.tag, offset: element.offset, depth: element.depth,
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

// MARK: - Generic certificate shape

/// Asserts the X.509 shape (RFC 5280 §4.1) of `der` using only the DER reader; with `requireV3`
/// the TBSCertificate must start with `[0] EXPLICIT INTEGER 2`, otherwise a v1 certificate is allowed.
func assertCertificateStructure(
    _ der: [UInt8], requireV3: Bool = true,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    let tree = try walkSingle(der)
    XCTAssertEqual(tree.tag, .sequence, file: file, line: line)
    XCTAssertEqual(tree.children.map(\.tag), [.sequence, .sequence, .bitString], file: file, line: line)

    let certificate = try DERReader.parseSingle(der)
    var outer = try certificate.children()
    let tbsElement = try outer.read(.sequence)
    let outerAlgorithm = try outer.read(.sequence)
    let signature = try outer.read(.bitString).bitString()
    try outer.finish()
    XCTAssertEqual(signature.unusedBits, 0, file: file, line: line)

    var tbs = try tbsElement.children()
    // version [0] EXPLICIT INTEGER 2 (v3) is the first element (absent for v1).
    if let version = try tbs.readIfPresent(.context(0, constructed: true)) {
        var versionReader = try version.children()
        XCTAssertEqual(try versionReader.read(.integer).integer(as: Int.self), 2, file: file, line: line)
        try versionReader.finish()
    } else {
        XCTAssertFalse(requireV3, "TBSCertificate must start with [0] version", file: file, line: line)
    }
    let serial = try tbs.read(.integer).integerBytes()
    XCTAssertLessThanOrEqual(serial.count, 21, file: file, line: line)
    let innerAlgorithm = try tbs.read(.sequence)
    // The same algorithm OID; whether the parameters agree (NULL vs absent for RSA, RFC 4055 §5)
    // is TrustX509's judgement, not a DER question.
    var innerFields = try innerAlgorithm.children()
    var outerFields = try outerAlgorithm.children()
    XCTAssertEqual(
        Array(try innerFields.read(.objectIdentifier).encoded), Array(try outerFields.read(.objectIdentifier).encoded),
        "tbsCertificate.signature must name signatureAlgorithm's OID", file: file, line: line)
    try assertName(tbs.read(.sequence), file: file, line: line)
    var validity = try tbs.read(.sequence).children()
    let notBefore = try validity.readAny().time()
    let notAfter = try validity.readAny().time()
    try validity.finish()
    XCTAssertLessThan(notBefore, notAfter, file: file, line: line)
    try assertName(tbs.read(.sequence), file: file, line: line)
    var spki = try tbs.read(.sequence).children()
    var keyAlgorithm = try spki.read(.sequence).children()
    _ = try keyAlgorithm.read(.objectIdentifier).objectIdentifier()
    _ = try spki.read(.bitString).bitString()
    try spki.finish()
    _ = try tbs.readIfPresent(.context(1, constructed: false))
    _ = try tbs.readIfPresent(.context(2, constructed: false))
    if let extensionsWrapper = try tbs.readIfPresent(.context(3, constructed: true)) {
        var wrapper = try extensionsWrapper.children()
        var extensions = try wrapper.read(.sequence).children()
        try wrapper.finish()
        var count = 0
        while let ext = try extensions.next() {
            try ext.expect(.sequence)
            var fields = try ext.children()
            _ = try fields.read(.objectIdentifier).objectIdentifier()
            _ = try fields.readIfPresent(.boolean)?.boolean()
            let value = try fields.read(.octetString).octetString()
            try fields.finish()
            _ = try DERReader.parseSingle(value)
            count += 1
        }
        XCTAssertGreaterThan(count, 0, file: file, line: line)
    }
    try tbs.finish()

    if (try? DERReader.parseSingle(signature.bytes))?.tag == .sequence {
        // ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }
        var ecdsa = try DERReader.parseSingle(signature.bytes).children()
        XCTAssertFalse(try ecdsa.read(.integer).integerBytes().isEmpty, file: file, line: line)
        XCTAssertFalse(try ecdsa.read(.integer).integerBytes().isEmpty, file: file, line: line)
        try ecdsa.finish()
    }
}

/// Name ::= SEQUENCE OF SET OF SEQUENCE { OID, string }.
func assertName(_ name: DERElement, file: StaticString, line: UInt) throws {
    var rdns = try name.children()
    while let rdn = try rdns.next() {
        try rdn.expect(.set)
        var attributes = try rdn.children()
        while let attribute = try attributes.next() {
            try attribute.expect(.sequence)
            var fields = try attribute.children()
            _ = try fields.read(.objectIdentifier).objectIdentifier()
            let value = try fields.readAny()
            if value.isString { _ = try value.string() }
            try fields.finish()
        }
    }
}
