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
        do {
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
        _ = try tbs.read(.sequence) // subject
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
}
