import Foundation
import SwiftASN1
import TrustDER
import XCTest

/// Issue 31, item 4: our DER reader against swift-asn1's (`DER.parse`, distinguished encoding) on
/// the committed fuzz corpora and single-byte variations of every seed. Both sides read the whole
/// tree and every OBJECT IDENTIFIER in it. Where they disagree, the input and our rule are named,
/// and the disagreement must be one docs/robustness.md ("DER reader and swift-asn1") explains.
final class SwiftASN1DifferentialTests: XCTestCase {
    /// `<root>/Tests/TrustDERDifferentialTests/<this file>` → `<root>/Fuzz/Corpus`.
    static let corpora = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus", isDirectory: true)

    /// The corpora whose seeds are DER (the others hold PEM text or name strings).
    static let derCorpora = ["der", "certificate", "crl", "ocsp"]

    /// Our verdict: nil when the whole input is one DER element whose every nested element and
    /// OID we accept, else the rule we refuse it by.
    static func ours(_ bytes: [UInt8]) -> DERError.Rule? {
        do {
            try DERIndexReader.parseSingle(bytes[...]).validateSubtree(in: bytes[...])
            return nil
        } catch {
            return error.rule
        }
    }

    /// swift-asn1's verdict: whether it parses the whole input and every OID in it.
    static func theirs(_ bytes: [UInt8]) -> Bool {
        func walk(_ node: ASN1Node) throws {
            switch node.content {
            case let .constructed(children):
                for child in children { try walk(child) }
            case .primitive:
                if node.identifier == .objectIdentifier { _ = try ASN1ObjectIdentifier(derEncoded: node) }
            }
        }
        do {
            try walk(try DER.parse(bytes))
            return true
        } catch {
            return false
        }
    }

    /// Where we refuse what swift-asn1 accepts, the rules docs/robustness.md lists as ours alone:
    /// X.690 §10.2 / §8.7.1, a universal type encoded constructed where DER requires primitive (a
    /// constructed OCTET STRING, BIT STRING, INTEGER, ...), which swift-asn1's `DER.parse` leaves
    /// to the type's decoder.
    static func isDocumentedStricter(_ rule: DERError.Rule) -> Bool {
        if case .constructedMismatch = rule { return true }
        return false
    }

    /// The seeds, and each seed with one byte changed at each of its first 64 positions.
    static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        var inputs: [(String, [UInt8])] = []
        for corpus in derCorpora {
            let directory = corpora.appendingPathComponent(corpus)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
                inputs.append(("\(corpus)/\(file)", bytes))
                for position in 0..<min(64, bytes.count) {
                    for flip: UInt8 in [0x20, 0x80] {
                        var variant = bytes
                        variant[position] ^= flip
                        inputs.append(("\(corpus)/\(file) with byte \(position) ^ 0x\(String(flip, radix: 16))", variant))
                    }
                }
            }
        }
        return inputs
    }

    func testOurReaderAndSwiftASN1AgreeExceptWhereDocumented() throws {
        let inputs = try Self.inputs()
        XCTAssertGreaterThan(inputs.count, 5_000)
        var agreed = 0, bothAccepted = 0
        var stricter: [String: Int] = [:]
        for (name, bytes) in inputs {
            let ourRule = Self.ours(bytes)
            let theyAccept = Self.theirs(bytes)
            switch (ourRule, theyAccept) {
            case (nil, true):
                agreed += 1
                bothAccepted += 1
            case (_?, false):
                agreed += 1
            case let (rule?, true):
                stricter["\(rule)", default: 0] += 1
                XCTAssertTrue(
                    Self.isDocumentedStricter(rule),
                    "\(name): we refuse it (\(rule)) and swift-asn1 accepts it; not a documented difference")
            case (nil, false):
                XCTFail("\(name): we accept it and swift-asn1 refuses it")
            }
        }
        XCTAssertGreaterThan(bothAccepted, 100, "the seeds themselves are accepted by both")
        print("DER differential: \(inputs.count) inputs, \(agreed) agree (\(bothAccepted) accepted by both); stricter here: \(stricter)")
    }
}
