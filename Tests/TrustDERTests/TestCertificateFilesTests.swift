import Foundation
import TrustDER
import TrustTestSupport
import XCTest

/// The committed certificates under TestCertificates/ (see its README), read with the DER reader only.
final class TestCertificateFilesTests: XCTestCase {
    private static let directory = TestCertificates.directory

    private func load(_ relativePath: String) throws -> [UInt8] {
        try TestCertificates.bytes(relativePath)
    }

    private func pemBlocks(_ relativePath: String) throws -> [PEMBlock] {
        let bytes = try load(relativePath)
        XCTAssertTrue(PEM.looksLikePEM(bytes), relativePath)
        return try PEM.decode(String(decoding: bytes, as: UTF8.self))
    }

    // MARK: - ecdsa/leaf

    func testECDSALeafTreeAndFields() throws {
        let blocks = try pemBlocks("ecdsa/leaf.pem")
        XCTAssertEqual(blocks.map(\.label), ["CERTIFICATE"])
        XCTAssertEqual(blocks.first?.line, 1)
        let der = try XCTUnwrap(blocks.first?.der)
        XCTAssertFalse(PEM.looksLikePEM(der))

        // Whole-tree walk: outer SEQUENCE of 3, TBS first element [0] constructed.
        let tree = try walkSingle(der)
        XCTAssertEqual(tree.tag, .sequence)
        XCTAssertEqual(tree.offset, 0)
        XCTAssertEqual(tree.children.map(\.tag), [.sequence, .sequence, .bitString])
        let tbs = tree.children[0]
        XCTAssertEqual(tbs.children.first?.tag, .context(0, constructed: true))
        XCTAssertEqual(tbs.children.first?.children.map(\.tag), [.integer])
        XCTAssertEqual(
            tbs.children.map(\.tag),
            [
                .context(0, constructed: true), .integer, .sequence, .sequence,
                .sequence, .sequence, .sequence, .context(3, constructed: true),
            ])
        // Every child's encoding exactly tiles its parent's content.
        func checkTiling(_ node: Node) {
            XCTAssertLessThan(node.tag.number, 31, "all tags in a certificate use the low-tag-number form")
            let contentStart = node.offset + 1 + derLength(node.length).count
            var expected = contentStart
            for child in node.children {
                XCTAssertEqual(child.offset, expected, "child of element at \(node.offset)")
                XCTAssertEqual(child.depth, node.depth + 1)
                expected = child.offset + 1 + derLength(child.length).count + child.length
                checkTiling(child)
            }
            if !node.children.isEmpty {
                XCTAssertEqual(expected, contentStart + node.length, "children must end where the parent ends")
            }
        }
        checkTiling(tree)
        XCTAssertEqual(1 + derLength(tree.length).count + tree.length, der.count)
        try assertCertificateStructure(der)

        // Field values from the README: O=SwiftTrust, CN=www.swifttrust.test, 2025-06-01 → 2027-06-01
        // (a 730-day leaf, within Apple's 825-day limit for TLS server certificates).
        var outer = try DERReader.parseSingle(der).children()
        var fields = try outer.read(.sequence).children()
        _ = try fields.read(.context(0, constructed: true))
        _ = try fields.read(.integer).integerBytes()
        var algorithm = try fields.read(.sequence).children()
        XCTAssertEqual(try algorithm.read(.objectIdentifier).objectIdentifier(), "1.2.840.10045.4.3.2")
        _ = try fields.read(.sequence) // issuer
        var validity = try fields.read(.sequence).children()
        // RFC 5280 §4.1.2.5: dates through 2049 are UTCTime.
        let notBefore = try validity.read(.utcTime).time()
        let notAfter = try validity.read(.utcTime).time()
        XCTAssertEqual(notBefore.description, "2025-06-01T00:00:00Z")
        XCTAssertEqual(notAfter.description, "2027-06-01T00:00:00Z")
        let subject = try fields.read(.sequence)
        var rdns = try subject.children()
        var values: [(String, String)] = []
        while let rdn = try rdns.next() {
            var set = try rdn.children()
            var attribute = try set.read(.sequence).children()
            let oid = try attribute.read(.objectIdentifier).objectIdentifier()
            let value = try attribute.read(.utf8String).string()
            values.append((oid.dotted, value))
        }
        XCTAssertEqual(values.map(\.0), ["2.5.4.10", "2.5.4.3"])
        XCTAssertEqual(values.map(\.1), ["SwiftTrust", "www.swifttrust.test"])
    }

    func testECDSAIntermediateValidityUsesGeneralizedTimeFrom2050() throws {
        // The CA certificates run 2024-01-01 → 2099-12-31 (README); RFC 5280 §4.1.2.5: 2050 and later
        // must be GeneralizedTime, earlier dates UTCTime.
        let der = try XCTUnwrap(pemBlocks("ecdsa/intermediate.pem").first?.der)
        var outer = try DERReader.parseSingle(der).children()
        var fields = try outer.read(.sequence).children()
        _ = try fields.read(.context(0, constructed: true))
        _ = try fields.read(.integer)
        _ = try fields.read(.sequence) // signature
        _ = try fields.read(.sequence) // issuer
        var validity = try fields.read(.sequence).children()
        XCTAssertEqual(try validity.read(.utcTime).time().description, "2024-01-01T00:00:00Z")
        XCTAssertEqual(try validity.read(.generalizedTime).time().description, "2099-12-31T23:59:59Z")
        try validity.finish()
    }

    func testECDSALeafDERMatchesPEM() throws {
        let fromPEM = try XCTUnwrap(pemBlocks("ecdsa/leaf.pem").first?.der)
        let der = try load("ecdsa/leaf.der")
        XCTAssertEqual(der, fromPEM)
        XCTAssertFalse(PEM.looksLikePEM(der))
        XCTAssertEqual(PEM.encode(der, label: "CERTIFICATE"), String(decoding: try load("ecdsa/leaf.pem"), as: UTF8.self))
    }

    // MARK: - Every certificate file

    func testEveryCertificateFileWalks() throws {
        var checked = 0
        for directory in ["ecdsa", "rsa", "ed25519", "scenarios"] {
            let url = Self.directory.appendingPathComponent(directory)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".pem") }.sorted()
            XCTAssertFalse(names.isEmpty, directory)
            for name in names {
                let path = "\(directory)/\(name)"
                // Combined files (rsa/leaf-and-key.pem) also hold a key: only certificates are walked.
                let text = String(decoding: try load(path), as: UTF8.self)
                let blocks = try PEM.decode(text, labels: ["CERTIFICATE"]).blocks
                XCTAssertFalse(blocks.isEmpty, path)
                for block in blocks {
                    do {
                        try assertCertificateStructure(block.der, requireV3: !name.hasPrefix("v1-"))
                    } catch {
                        XCTFail("\(path) block at line \(block.line): \(error)")
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 50)
    }

    func testBundleWithCommentaryHoldsSevenCertificates() throws {
        let blocks = try pemBlocks("bundle-all-valid.pem")
        XCTAssertEqual(blocks.count, 7)
        XCTAssertTrue(blocks.allSatisfy { $0.label == "CERTIFICATE" })
        XCTAssertEqual(Set(blocks.map(\.line)).count, 7)
        XCTAssertEqual(blocks.map(\.line), blocks.map(\.line).sorted())
        for block in blocks { try assertCertificateStructure(block.der) }
        // The bundle's third certificate is ecdsa/leaf.pem.
        XCTAssertEqual(blocks[2].der, try load("ecdsa/leaf.der"))
    }

    // MARK: - malformed/

    func testMalformedTruncatedDER() throws {
        let der = try load("malformed/truncated.der")
        let leaf = try load("ecdsa/leaf.der")
        // The first half of ecdsa/leaf.der (its sizes change when the corpus is regenerated).
        XCTAssertEqual(der.count, leaf.count / 2)
        XCTAssertEqual(der, Array(leaf.prefix(der.count)))
        // The outer header claims the whole certificate's content bytes, from offset 4.
        assertDERError(.truncated, at: 4) { try walkSingle(der) }
    }

    func testMalformedTrailingBytesDER() throws {
        let der = try load("malformed/trailing-bytes.der")
        let leaf = try load("ecdsa/leaf.der")
        XCTAssertEqual(Array(der.suffix(2)), [0x05, 0x00])
        assertDERError(.trailingBytes, at: leaf.count) { try walkSingle(der) }
        XCTAssertNoThrow(try walkSingle(Array(der.dropLast(2))))
    }

    func testMalformedIndefiniteLengthDER() throws {
        let der = try load("malformed/indefinite-length.der")
        XCTAssertEqual(Array(der.prefix(2)), [0x30, 0x80])
        assertDERError(.indefiniteLength, at: 1) { try walkSingle(der) }
    }

    func testMalformedBadBase64PEM() throws {
        let text = String(decoding: try load("malformed/bad-base64.pem"), as: UTF8.self)
        // The `!` is on the second base64 line, i.e. line 3 of the file.
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 3)) { try PEM.decode(text) }
    }

    func testMalformedNotACertificatePEM() throws {
        let blocks = try pemBlocks("malformed/not-a-certificate.pem")
        XCTAssertEqual(blocks.map(\.label), ["PRIVATE KEY"])
        XCTAssertFalse(blocks.contains { $0.label == "CERTIFICATE" })
        // PKCS#8 PrivateKeyInfo is still well-formed DER.
        let tree = try walkSingle(try XCTUnwrap(blocks.first?.der))
        XCTAssertEqual(tree.children.first?.tag, .integer)
    }
}
