import Foundation
import TrustDER
@testable import TrustX509
import TrustTestSupport
import XCTest

/// `DistinguishedName ==` tells names apart by the fingerprints taken at parse time before it builds
/// their comparison keys; these tests hold it to exactly what comparing the keys decides (RFC 5280
/// §7.1), and the fingerprint to being a function of the key.
final class NameFingerprintTests: XCTestCase {
    typealias B = DERBuilder

    /// The reference: equal RDN counts and equal comparison keys, on instances of their own (so
    /// that building the keys cannot steer the instances under test onto the key path).
    private func keysEqual(_ lhs: [UInt8], _ rhs: [UInt8]) throws -> Bool {
        let left = try DistinguishedName(der: lhs), right = try DistinguishedName(der: rhs)
        return left.rdns.count == right.rdns.count && left.normalizedKey == right.normalizedKey
    }

    /// Checks `==` against the keys for `lhs` and `rhs`, and that equal keys never have different
    /// fingerprints; returns whether the fingerprints alone told the names apart.
    @discardableResult
    private func check(_ lhs: [UInt8], _ rhs: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let expected = try keysEqual(lhs, rhs)
        let left = try DistinguishedName(der: lhs), right = try DistinguishedName(der: rhs)
        XCTAssertEqual(left == right, expected, "\(left) vs \(right)", file: file, line: line)
        guard let leftPrint = left.keyFingerprint, let rightPrint = right.keyFingerprint else { return false }
        if expected {
            XCTAssertEqual(leftPrint, rightPrint, "equal keys, different fingerprints: \(left) vs \(right)", file: file, line: line)
            XCTAssertEqual(left.hashValue, right.hashValue, file: file, line: line)
        } else {
            // Not required for correctness (the keys would decide), but 64 bits over these few
            // cases must not collide: a collision here means the digest mixes too little.
            XCTAssertNotEqual(leftPrint, rightPrint, "different keys, one fingerprint: \(left) vs \(right)", file: file, line: line)
        }
        return leftPrint != rightPrint
    }

    /// A small deterministic generator (SplitMix64), so a failure names a reproducible case.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// Texts that fold together or apart (case, inner and outer white space, non-ASCII letters).
    private static let texts = [
        "Example CA", "example ca", "  Example   CA ", "Example\tCA", "ExampleCA", "Example CB",
        "École", "école", "a", "A", " a", "a b",
    ]

    /// One attribute value: `text` under one of the string types, or a value that is not a string.
    private static func value(kind: Int, text: String) -> [UInt8] {
        switch kind {
        case 0: return B.utf8String(text)
        case 1: return B.printableString(text)
        case 2: return B.ia5String(text)
        case 3: return B.tlv(0x1A, Array(text.utf8)) // VisibleString
        case 4: return B.tlv(0x1E, text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) // BMPString
        case 5: return B.octetString(Array(text.utf8))
        default: return B.integer(UInt64(text.utf8.count))
        }
    }

    func testRandomNamesCompareExactlyAsTheirKeys() throws {
        var generator = Generator(state: 0x5EED)
        let types = [TestOID.commonName, TestOID.organizationName, TestOID.countryName]
        /// RDNs of (type, text) attributes, mostly one per RDN.
        func randomShape() -> [[(type: String, text: String)]] {
            (0...generator.next(3)).map { _ in
                (0...(generator.next(5) == 0 ? 1 : 0)).map { _ in
                    (types[generator.next(types.count)], Self.texts[generator.next(Self.texts.count)])
                }
            }
        }
        /// The shape encoded with a string type (or non-string value) drawn for each attribute.
        func encode(_ shape: [[(type: String, text: String)]]) -> [UInt8] {
            B.name(shape.map { rdn in rdn.map { B.attribute($0.type, Self.value(kind: generator.next(7), text: $0.text)) } })
        }
        var pairs = 0, equalPairs = 0, toldApart = 0
        while pairs < 3000 {
            let shape = randomShape()
            let lhs = encode(shape)
            // Half the time the same attributes with the values encoded afresh (often equal names
            // in different bytes), else another random name.
            let rhs = generator.next(2) == 0 ? encode(shape) : encode(randomShape())
            // Names a strict parser refuses (e.g. a tab in a PrintableString) are not compared.
            guard (try? DistinguishedName(der: lhs)) != nil, (try? DistinguishedName(der: rhs)) != nil else { continue }
            pairs += 1
            if try keysEqual(lhs, rhs) { equalPairs += 1 }
            if try check(lhs, rhs) { toldApart += 1 }
        }
        // The cases must exercise both outcomes, and the fingerprints must tell most different
        // names apart (else the test would only be checking the key path).
        XCTAssertGreaterThan(equalPairs, 300)
        XCTAssertGreaterThan(toldApart, pairs / 4)
    }

    func testEveryValueKindPairAgainstTheKeys() throws {
        for text in Self.texts {
            for other in Self.texts {
                for kind in 0..<7 {
                    for otherKind in 0..<7 {
                        let lhs = B.name([[B.attribute(TestOID.commonName, Self.value(kind: kind, text: text))]])
                        let rhs = B.name([[B.attribute(TestOID.commonName, Self.value(kind: otherKind, text: other))]])
                        guard (try? DistinguishedName(der: lhs)) != nil, (try? DistinguishedName(der: rhs)) != nil else { continue }
                        try check(lhs, rhs)
                    }
                }
            }
        }
    }

    func testTheNamesOfEveryTestCertificate() throws {
        var names: [[UInt8]] = []
        for path in try TestCertificates.certificateFiles() {
            guard let certificate = try? TestCertificates.certificate(path) else { continue }
            names.append(Array(certificate.subject.der))
            names.append(Array(certificate.issuer.der))
        }
        XCTAssertGreaterThan(names.count, 100)
        var toldApart = 0
        for lhs in names.prefix(80) {
            for rhs in names where try check(lhs, rhs) { toldApart += 1 }
        }
        XCTAssertGreaterThan(toldApart, 0)
    }

    func testAnRDNOfSeveralAttributesHasTheSameFingerprintInAnyOrder() throws {
        // DER sorts a SET OF by encoding: "a" sorts before O=xyz, "     a     " after it; the key
        // sorts the normalised parts, and the fingerprint must not depend on the order either.
        let shortCN = B.attribute(TestOID.commonName, B.utf8String("a"))
        let longCN = B.attribute(TestOID.commonName, B.utf8String("     a     "))
        let org = B.attribute(TestOID.organizationName, B.utf8String("xyz"))
        let first = try DistinguishedName(der: B.name([[shortCN, org]]))
        let second = try DistinguishedName(der: B.name([[longCN, org]]))
        XCTAssertNotNil(first.keyFingerprint)
        XCTAssertEqual(first.keyFingerprint, second.keyFingerprint)
        try check(B.name([[shortCN, org]]), B.name([[longCN, org]]))
        let split = B.name([[shortCN], [org]])
        XCTAssertFalse(try keysEqual(B.name([[shortCN, org]]), split))
        try check(B.name([[shortCN, org]]), split)
    }

    func testAValueNeedingUnicodeFoldingLeavesNoFingerprint() throws {
        XCTAssertNil(try DistinguishedName(der: B.name([(TestOID.commonName, "École")])).keyFingerprint)
        XCTAssertNil(
            try DistinguishedName(der: B.name([[B.attribute(TestOID.commonName, Self.value(kind: 4, text: "a"))]])).keyFingerprint,
            "a BMPString is folded through Unicode even when its text is ASCII")
        XCTAssertNotNil(
            try DistinguishedName(der: B.name([[B.attribute(TestOID.commonName, B.octetString([0xC3, 0x89]))]])).keyFingerprint,
            "a value that is not a string is compared by its encoding")
    }

    func testKeysAlreadyBuiltAreCompared() throws {
        // Once both keys exist (a store's index builds them), `==` compares them: same answers.
        let lhs = B.name([(TestOID.commonName, "Example CA")])
        let rhs = B.name([[B.attribute(TestOID.commonName, B.printableString("example   ca"))]])
        let left = try DistinguishedName(der: lhs), right = try DistinguishedName(der: rhs)
        _ = left.normalizedKey
        _ = right.normalizedKey
        XCTAssertEqual(left, right)
        XCTAssertEqual(try DistinguishedName(der: lhs), try DistinguishedName(der: rhs))
    }
}
