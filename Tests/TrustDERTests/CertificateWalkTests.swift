import Foundation
import TrustDER
import XCTest

/// A real certificate, walked end to end: PEM → DER → every TLV in the tree.
final class CertificateWalkTests: XCTestCase {
    /// Produced by `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=test -days 1 -keyout /dev/null`.
    static let embeddedPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBczCCARmgAwIBAgIUBNWyOzr55YJLrHoZuuyeExBxzW8wCgYIKoZIzj0EAwIw
        DzENMAsGA1UEAwwEdGVzdDAeFw0yNjExMjEwNjQ5MDlaFw0yNjExMjIwNjQ5MDla
        MA8xDTALBgNVBAMMBHRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATlCAR2
        czcVmfUerNXZ5vS8phXDbTHA01npLGU57TXS5hGzPLFR173zACoNOEdsdAQcDoXh
        MOBbYCZ5epI9KZAIo1MwUTAdBgNVHQ4EFgQUr2S8dtj065LvDVAjJjfvIY749Eow
        HwYDVR0jBBgwFoAUr2S8dtj065LvDVAjJjfvIY749EowDwYDVR0TAQH/BAUwAwEB
        /zAKBggqhkjOPQQDAgNIADBFAiA8vN69scol6HBNxYu0eA/IUP2DYTjDX0MElGr+
        wPBFWAIhAImgKIn7Cn+5W+Lg7JX9YoBPaV1ump2m8JWqGBICYsVg
        -----END CERTIFICATE-----

        """

    private func embeddedDER() throws -> [UInt8] {
        let blocks = try PEM.decode(Self.embeddedPEM)
        XCTAssertEqual(blocks.count, 1)
        XCTAssertEqual(blocks.first?.label, "CERTIFICATE")
        return try XCTUnwrap(blocks.first?.der)
    }

    private func flatten(_ node: Node) -> [Node] {
        [node] + node.children.flatMap(flatten)
    }

    /// The embedded certificate's full tree, as printed by `openssl asn1parse -i`:
    /// (offset, depth, tag, content length).
    private let expectedTree: [(Int, Int, String, Int)] = [
        (0, 0, "SEQUENCE", 371),
        (4, 1, "SEQUENCE", 281),
        (8, 2, "[0] constructed", 3),
        (10, 3, "INTEGER", 1),
        (13, 2, "INTEGER", 20),
        (35, 2, "SEQUENCE", 10),
        (37, 3, "OBJECT IDENTIFIER", 8),
        (47, 2, "SEQUENCE", 15),
        (49, 3, "SET", 13),
        (51, 4, "SEQUENCE", 11),
        (53, 5, "OBJECT IDENTIFIER", 3),
        (58, 5, "UTF8String", 4),
        (64, 2, "SEQUENCE", 30),
        (66, 3, "UTCTime", 13),
        (81, 3, "UTCTime", 13),
        (96, 2, "SEQUENCE", 15),
        (98, 3, "SET", 13),
        (100, 4, "SEQUENCE", 11),
        (102, 5, "OBJECT IDENTIFIER", 3),
        (107, 5, "UTF8String", 4),
        (113, 2, "SEQUENCE", 89),
        (115, 3, "SEQUENCE", 19),
        (117, 4, "OBJECT IDENTIFIER", 7),
        (126, 4, "OBJECT IDENTIFIER", 8),
        (136, 3, "BIT STRING", 66),
        (204, 2, "[3] constructed", 83),
        (206, 3, "SEQUENCE", 81),
        (208, 4, "SEQUENCE", 29),
        (210, 5, "OBJECT IDENTIFIER", 3),
        (215, 5, "OCTET STRING", 22),
        (239, 4, "SEQUENCE", 31),
        (241, 5, "OBJECT IDENTIFIER", 3),
        (246, 5, "OCTET STRING", 24),
        (272, 4, "SEQUENCE", 15),
        (274, 5, "OBJECT IDENTIFIER", 3),
        (279, 5, "BOOLEAN", 1),
        (282, 5, "OCTET STRING", 5),
        (289, 1, "SEQUENCE", 10),
        (291, 2, "OBJECT IDENTIFIER", 8),
        (301, 1, "BIT STRING", 72),
    ]

    func testEmbeddedCertificateTreeMatchesASN1Parse() throws {
        let der = try embeddedDER()
        XCTAssertEqual(der.count, 375)
        XCTAssertEqual(Array(der.prefix(4)), [0x30, 0x82, 0x01, 0x73])
        let tree = try walkSingle(der)
        let flat = flatten(tree)
        XCTAssertEqual(flat.count, expectedTree.count)
        for (node, expected) in zip(flat, expectedTree) {
            XCTAssertEqual(node.offset, expected.0)
            XCTAssertEqual(node.depth, expected.1, "at \(node.offset)")
            XCTAssertEqual(node.tag.description, expected.2, "at \(node.offset)")
            XCTAssertEqual(node.length, expected.3, "at \(node.offset)")
        }
        XCTAssertEqual(flat.map(\.depth).max(), 5)
    }

    func testEmbeddedCertificateFieldValues() throws {
        let der = try embeddedDER()
        try assertCertificateStructure(der)

        let certificate = try DERReader.parseSingle(der)
        var outer = try certificate.children()
        var tbs = try outer.read(.sequence).children()
        _ = try tbs.read(.context(0, constructed: true))
        let serial = try tbs.read(.integer).integerBytes()
        XCTAssertEqual(Array(serial.prefix(4)), [0x04, 0xD5, 0xB2, 0x3B])
        var signatureAlgorithm = try tbs.read(.sequence).children()
        XCTAssertEqual(try signatureAlgorithm.read(.objectIdentifier).objectIdentifier(), "1.2.840.10045.4.3.2")
        try signatureAlgorithm.finish()
        for _ in 0..<1 {
            var name = try tbs.read(.sequence).children()
            var rdn = try name.read(.set).children()
            var attribute = try rdn.read(.sequence).children()
            XCTAssertEqual(try attribute.read(.objectIdentifier).objectIdentifier(), "2.5.4.3")
            XCTAssertEqual(try attribute.readAny().string(), "test")
            try attribute.finish()
            try rdn.finish()
            try name.finish()
        }
        var validity = try tbs.read(.sequence).children()
        let notBefore = try validity.read(.utcTime).time()
        let notAfter = try validity.read(.utcTime).time()
        XCTAssertEqual(notBefore.description, "2026-11-21T06:49:09Z")
        XCTAssertEqual(notAfter.description, "2026-11-22T06:49:09Z")
        XCTAssertEqual(notAfter.secondsSince1970 - notBefore.secondsSince1970, 86_400)
        _ = try tbs.read(.sequence)  // subject
        var spki = try tbs.read(.sequence).children()
        var algorithm = try spki.read(.sequence).children()
        XCTAssertEqual(try algorithm.read(.objectIdentifier).objectIdentifier(), "1.2.840.10045.2.1")
        XCTAssertEqual(try algorithm.read(.objectIdentifier).objectIdentifier(), "1.2.840.10045.3.1.7")
        let key = try spki.read(.bitString).bitString()
        XCTAssertEqual(key.unusedBits, 0)
        XCTAssertEqual(key.bytes.count, 65)
        XCTAssertEqual(key.bytes.first, 0x04, "uncompressed P-256 point")

        // Extensions: SKI, AKI, critical basicConstraints cA=TRUE.
        var wrapper = try tbs.read(.context(3, constructed: true)).children()
        var extensions = try wrapper.read(.sequence).children()
        try wrapper.finish()
        var oids: [String] = []
        while let ext = try extensions.next() {
            var fields = try ext.children()
            let oid = try fields.read(.objectIdentifier).objectIdentifier()
            oids.append(oid.dotted)
            let critical = try fields.readIfPresent(.boolean)?.boolean() ?? false
            let value = try fields.read(.octetString).octetString()
            try fields.finish()
            let inner = try DERReader.parseSingle(value)
            if oid == "2.5.29.19" {
                XCTAssertTrue(critical)
                var constraints = try inner.children()
                XCTAssertEqual(try constraints.read(.boolean).boolean(), true)
                try constraints.finish()
            } else {
                XCTAssertFalse(critical)
            }
            if oid == "2.5.29.14" {
                XCTAssertEqual(try inner.octetString().count, 20)
            }
            if oid == "2.5.29.35" {
                var aki = try inner.children()
                XCTAssertEqual(try aki.read(.context(0, constructed: false)).content.count, 20)
            }
        }
        XCTAssertEqual(oids, ["2.5.29.14", "2.5.29.35", "2.5.29.19"])
        try tbs.finish()
    }

    func testReencodingTheEmbeddedCertificateReproducesThePEM() throws {
        let der = try embeddedDER()
        XCTAssertEqual(PEM.encode(der, label: "CERTIFICATE"), Self.embeddedPEM)
    }

    func testEveryProperPrefixOfTheCertificateIsRejected() throws {
        let der = try embeddedDER()
        for length in 0..<der.count {
            let error = assertThrowsDERError("prefix \(length)") { try walkSingle(Array(der[0..<length])) }
            XCTAssertEqual(error?.rule, .truncated, "prefix \(length)")
        }
        // One extra byte is trailing.
        assertDERError(.trailingBytes, at: der.count) { try walkSingle(der + [0x00]) }
    }

    func testSingleByteCorruptionsNeverCrash() throws {
        // Flip each byte to a few values: every outcome must be a value or a DERError.
        let der = try embeddedDER()
        for index in der.indices {
            for replacement: UInt8 in [0x00, 0x80, 0xFF, der[index] ^ 0x20] {
                var corrupted = der
                corrupted[index] = replacement
                do {
                    _ = try walkSingle(corrupted)
                } catch is DERError {
                    // expected for most corruptions
                }
            }
        }
    }

    func testTestCertificatesLeafIfPresent() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("TestCertificates/ecdsa/leaf.pem").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("TestCertificates/ecdsa/leaf.pem not present")
        }
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertTrue(PEM.looksLikePEM(Array(data)))
        let blocks = try PEM.decode(String(decoding: data, as: UTF8.self))
        XCTAssertFalse(blocks.isEmpty)
        XCTAssertEqual(blocks.first?.label, "CERTIFICATE")
        for block in blocks where block.label == "CERTIFICATE" {
            try assertCertificateStructure(block.der)
        }
    }

    // MARK: - Generic certificate shape

    /// Asserts the X.509 v3 shape (RFC 5280 §4.1) of `der` using only the DER reader.
    private func assertCertificateStructure(_ der: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
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
        // version [0] EXPLICIT INTEGER 2 (v3) is the first element.
        let version = try tbs.read(.context(0, constructed: true))
        var versionReader = try version.children()
        XCTAssertEqual(try versionReader.read(.integer).integer(as: Int.self), 2, file: file, line: line)
        try versionReader.finish()
        let serial = try tbs.read(.integer).integerBytes()
        XCTAssertLessThanOrEqual(serial.count, 21, file: file, line: line)
        let innerAlgorithm = try tbs.read(.sequence)
        XCTAssertEqual(Array(innerAlgorithm.encoded), Array(outerAlgorithm.encoded),
                       "tbsCertificate.signature must equal signatureAlgorithm", file: file, line: line)
        for _ in 0..<1 { try assertName(tbs.read(.sequence), file: file, line: line) }
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
    private func assertName(_ name: DERElement, file: StaticString, line: UInt) throws {
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
}
