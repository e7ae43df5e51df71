import Foundation
import TrustDER
@testable import TrustX509
import TrustTestSupport
import XCTest

/// Issue 31, item 3: every OBJECT IDENTIFIER the parsers read is checked for minimal arcs (X.690
/// §8.19.2), on every path (eager, deferred extension views, offsets-based SPKI and algorithm
/// parsing). The test re-encodes real certificates, CRLs and OCSP responses with one OID at a time
/// made non-minimal (its last arc prefixed with a 0x80 octet, as in `2a 86 80 48`) and requires a
/// parse error naming the rule and the OID's byte offset.
final class ObjectIdentifierMinimalityTests: XCTestCase {
    /// A DER element as a tree: its identifier octets and either content or children. OCTET STRINGs
    /// whose content is one whole DER element (extension values) are walked as well.
    private indirect enum Node {
        case primitive(identifier: [UInt8], content: [UInt8])
        case constructed(identifier: [UInt8], children: [Node])
        case encapsulating(identifier: [UInt8], child: Node)

        /// Parses `bytes` as exactly one element.
        static func parse(_ bytes: ArraySlice<UInt8>) throws -> Node {
            var reader = DERIndexReader(covering: bytes)
            guard let element = try reader.next(in: bytes) else { throw DERError(.truncated, at: bytes.startIndex) }
            try reader.finish()
            // Certificates, CRLs and OCSP responses use one-octet tags only.
            guard element.tag.number < 31 else { throw DERError(.truncated, at: element.offset) }
            let header = [bytes[element.offset]]
            let content = bytes[element.contentOffset..<element.endOffset]
            if element.tag.isConstructed {
                var children: [Node] = []
                var inner = DERIndexReader(covering: content)
                while let child = try inner.next(in: content) {
                    children.append(try parse(content[child.offset..<child.endOffset]))
                }
                return .constructed(identifier: header, children: children)
            }
            if element.tag == .octetString, !content.isEmpty, let child = try? parse(content),
                case .constructed = child
            {
                return .encapsulating(identifier: header, child: child)
            }
            return .primitive(identifier: header, content: Array(content))
        }

        /// The DER encoding (minimal lengths).
        var encoded: [UInt8] {
            switch self {
            case let .primitive(identifier, content): return identifier + Self.length(content.count) + content
            case let .constructed(identifier, children):
                let content = children.flatMap(\.encoded)
                return identifier + Self.length(content.count) + content
            case let .encapsulating(identifier, child):
                let content = child.encoded
                return identifier + Self.length(content.count) + content
            }
        }

        static func length(_ count: Int) -> [UInt8] {
            if count < 0x80 { return [UInt8(count)] }
            var octets: [UInt8] = []
            var value = count
            while value > 0 { octets.insert(UInt8(value & 0xFF), at: 0); value >>= 8 }
            return [0x80 | UInt8(octets.count)] + octets
        }

        /// How many OBJECT IDENTIFIERs the tree holds.
        var objectIdentifierCount: Int {
            switch self {
            case let .primitive(identifier, _): return identifier == [0x06] ? 1 : 0
            case let .constructed(_, children): return children.reduce(0) { $0 + $1.objectIdentifierCount }
            case let .encapsulating(_, child): return child.objectIdentifierCount
            }
        }

        /// The tree with OID number `target` (in document order) made non-minimal.
        func breakingObjectIdentifier(_ target: Int) -> Node {
            var seen = 0
            return breaking(target, &seen)
        }

        private func breaking(_ target: Int, _ seen: inout Int) -> Node {
            switch self {
            case let .primitive(identifier, content):
                guard identifier == [0x06] else { return self }
                defer { seen += 1 }
                guard seen == target, !content.isEmpty else { return self }
                // The last arc gets a leading 0x80 octet: the same value, not minimal (X.690 §8.19.2).
                // It starts after the previous arc's final octet (the last one without the high bit).
                let lastArcStart = content.dropLast().lastIndex(where: { $0 & 0x80 == 0 }).map { $0 + 1 } ?? 0
                return .primitive(identifier: identifier, content: Array(content[..<lastArcStart]) + [0x80] + content[lastArcStart...])
            case let .constructed(identifier, children):
                return .constructed(identifier: identifier, children: children.map { $0.breaking(target, &seen) })
            case let .encapsulating(identifier, child):
                return .encapsulating(identifier: identifier, child: child.breaking(target, &seen))
            }
        }
    }

    private func der(_ relativePath: String) throws -> [[UInt8]] {
        let bytes = try TestCertificates.bytes(relativePath)
        if relativePath.hasSuffix(".pem") {
            return try PEM.decode(String(decoding: bytes, as: UTF8.self)).map(\.der)
        }
        return [bytes]
    }

    /// Every OID of `der` broken in turn must make `parse` throw an invalid-OID error.
    private func assertEveryObjectIdentifierIsChecked(
        _ name: String, _ der: [UInt8],
        parse: ([UInt8]) throws(X509Error) -> Void
    ) throws {
        let tree = try Node.parse(der[...])
        XCTAssertEqual(tree.encoded, der, "\(name): the tree re-encodes the input exactly")
        XCTAssertNoThrow(try parse(der), name)
        let count = tree.objectIdentifierCount
        XCTAssertGreaterThan(count, 3, name)
        for index in 0..<count {
            let broken = tree.breakingObjectIdentifier(index).encoded
            XCTAssertNotEqual(broken, der)
            do throws(X509Error) {
                try parse(broken)
                XCTFail("\(name): OID #\(index) with a non-minimal arc was accepted")
            } catch {
                switch error.reason {
                case let .der(derError):
                    XCTAssertEqual(derError.rule, .invalidObjectIdentifier, "\(name): OID #\(index): \(error)")
                    XCTAssertTrue(error.description.contains("byte \(derError.offset)"), "\(name): \(error)")
                case .malformedExtension:
                    // Inside an extension's value: the extension is named, with the OID's byte.
                    XCTAssertTrue(error.description.contains("at byte"), "\(name): \(error)")
                default:
                    XCTFail("\(name): OID #\(index): \(error) is not the invalid-OID rule")
                }
            }
        }
    }

    func testEveryObjectIdentifierOfACertificateIsChecked() throws {
        for file in [
            "ecdsa/leaf.pem", "rsa/leaf.pem", "ecdsa/intermediate.pem", "ed25519/leaf.pem", "scenarios/leaf-policies.pem",
            "scenarios/leaf-pss.pem", "scenarios/nc-intermediate.pem", "revocation/revoked-leaf.pem",
            "revocation/ocsp-responder.pem", "scenarios/leaf-must-staple.pem",
        ] {
            for der in try der(file) {
                try assertEveryObjectIdentifierIsChecked(file, der) { bytes throws(X509Error) in _ = try Certificate(derEncoded: bytes) }
            }
        }
    }

    func testEveryObjectIdentifierOfACRLAndAnOCSPResponseIsChecked() throws {
        try assertEveryObjectIdentifierIsChecked("intermediate-with-idp.crl", try TestCertificates.bytes("revocation/intermediate-with-idp.crl")) {
            bytes throws(X509Error) in _ = try CertificateRevocationList(derEncoded: bytes)
        }
        try assertEveryObjectIdentifierIsChecked("good-leaf-delegated.ocsp", try TestCertificates.bytes("revocation/good-leaf-delegated.ocsp")) {
            bytes throws(X509Error) in _ = try OCSPResponse(derEncoded: bytes)
        }
    }

    /// The reproduction of the issue: the tbsCertificate signature algorithm `2a 86 48 ...` written
    /// `2a 86 80 48 ...` is a parse error at the OID's byte, not an algorithm mismatch found later.
    func testTheIssuesReproductionIsAParseErrorWithTheOffset() throws {
        let der = try der("rsa/leaf.pem")[0]
        let tree = try Node.parse(der[...])
        let broken = tree.breakingObjectIdentifier(0).encoded // the first OID: tbsCertificate.signature
        XCTAssertThrowsError(try Certificate(derEncoded: broken)) { error in
            guard let error = error as? X509Error, case let .der(derError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(derError.rule, .invalidObjectIdentifier)
            // The first sha256WithRSAEncryption OID element of the input is the tbsCertificate's.
            let sha256WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
            let offset = (0...(der.count - sha256WithRSA.count)).first { Array(der[$0..<($0 + sha256WithRSA.count)]) == sha256WithRSA }
            XCTAssertEqual(derError.offset, offset, "the error names the tbsCertificate signature algorithm's OID")
        }
    }
}
