import TrustDER
import XCTest

/// PEM (RFC 7468) decoding and encoding.
final class PEMTests: XCTestCase {
    private let explanatoryPEM = """
        Subject: CN=one
        Issuer: CN=one
        -----BEGIN CERTIFICATE-----
        MAMCAQE=
        -----END CERTIFICATE-----
        Some text between blocks, with -- dashes -- and base64-ish words.

        -----BEGIN X509 CRL-----
        MAYCAQICAQM=
        -----END X509 CRL-----
        -----BEGIN CERTIFICATE-----
        BQA=
        -----END CERTIFICATE-----
        trailing text
        """

    func testSingleBlock() throws {
        let blocks = try PEM.decode("-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n")
        XCTAssertEqual(blocks.count, 1)
        XCTAssertEqual(blocks[0].label, "CERTIFICATE")
        XCTAssertEqual(blocks[0].der, [0x30, 0x03, 0x02, 0x01, 0x01])
        XCTAssertEqual(blocks[0].line, 1)
        XCTAssertEqual(try DERReader.parseSingle(blocks[0].der).tag, .sequence)
    }

    func testMultipleBlocksWithExplanatoryText() throws {
        let blocks = try PEM.decode(explanatoryPEM)
        XCTAssertEqual(blocks.map(\.label), ["CERTIFICATE", "X509 CRL", "CERTIFICATE"])
        XCTAssertEqual(blocks.map(\.line), [3, 8, 11])
        XCTAssertEqual(blocks[0].der, [0x30, 0x03, 0x02, 0x01, 0x01])
        XCTAssertEqual(blocks[1].der, [0x30, 0x06, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03])
        XCTAssertEqual(blocks[2].der, [0x05, 0x00])
    }

    func testCRLFLineEndings() throws {
        let crlf = explanatoryPEM.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n") + "\r\n"
        XCTAssertTrue(crlf.utf8.contains(0x0D))
        let blocks = try PEM.decode(crlf)
        XCTAssertEqual(blocks.map(\.label), ["CERTIFICATE", "X509 CRL", "CERTIFICATE"])
        XCTAssertEqual(blocks.map(\.line), [3, 8, 11])
        XCTAssertEqual(blocks[1].der, [0x30, 0x06, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03])
        // A final CR with no LF still ends the line.
        let finalCR = "-----BEGIN CERTIFICATE-----\r\nMAMCAQE=\r\n-----END CERTIFICATE-----\r"
        XCTAssertEqual(try PEM.decode(finalCR).first?.der, [0x30, 0x03, 0x02, 0x01, 0x01])
        // Mixed endings in one file.
        let mixed = "-----BEGIN CERTIFICATE-----\r\nMAMC\nAQE=\r\n-----END CERTIFICATE-----\n"
        XCTAssertEqual(try PEM.decode(mixed).first?.der, [0x30, 0x03, 0x02, 0x01, 0x01])
    }

    func testCRLFErrorsReportLineNumbers() {
        assertPEMError(.mismatchedEnd(begin: "CERTIFICATE", end: "X509 CRL", line: 4)) {
            try PEM.decode("x\r\n-----BEGIN CERTIFICATE-----\r\nMAMCAQE=\r\n-----END X509 CRL-----\r\n")
        }
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 3)) {
            try PEM.decode("-----BEGIN CERTIFICATE-----\r\nMAMC\r\nAQ*=\r\n-----END CERTIFICATE-----\r\n")
        }
    }

    func testTextWithoutBlocksYieldsNoBlocks() throws {
        XCTAssertEqual(try PEM.decode("just some text\nand more\n").count, 0)
        XCTAssertEqual(try PEM.decode("").count, 0)
    }

    func testMultiLineBodyAndTrailingWhitespace() throws {
        let text = "-----BEGIN CERTIFICATE-----  \nMAYC\t\nAQIC \nAQM=\n-----END CERTIFICATE----- \n"
        let blocks = try PEM.decode(text)
        XCTAssertEqual(blocks.first?.der, [0x30, 0x06, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03])
    }

    func testLabelIsPreserved() throws {
        for label in [
            "CERTIFICATE", "X509 CRL", "PUBLIC KEY", "EC PRIVATE KEY", "TRUSTED CERTIFICATE",
            "CERTIFICATE REQUEST", "PKCS7", "NEW-LABEL 2",
        ] {
            let blocks = try PEM.decode(PEM.encode([0x05, 0x00], label: label))
            XCTAssertEqual(blocks.map(\.label), [label])
        }
    }

    func testUnterminatedBlock() {
        assertPEMError(.unterminatedBlock(label: "CERTIFICATE", line: 2)) {
            try PEM.decode("intro\n-----BEGIN CERTIFICATE-----\nMAMCAQE=\n")
        }
        // Without a final newline, and with CRLF endings.
        assertPEMError(.unterminatedBlock(label: "CERTIFICATE", line: 2)) {
            try PEM.decode("intro\n-----BEGIN CERTIFICATE-----\nMAMCAQE=")
        }
        assertPEMError(.unterminatedBlock(label: "CERTIFICATE", line: 2)) {
            try PEM.decode("intro\r\n-----BEGIN CERTIFICATE-----\r\nMAMCAQE=\r\n")
        }
        assertPEMError(.unterminatedBlock(label: "CERTIFICATE", line: 1)) { try PEM.decode("-----BEGIN CERTIFICATE-----\n") }
        // A real blank line before the end of input is still a blank line inside the block.
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 3)) {
            try PEM.decode("-----BEGIN CERTIFICATE-----\nMAMCAQE=\n\n")
        }
        // A second BEGIN before the first END.
        let nested = "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n"
        assertPEMError(.unterminatedBlock(label: "CERTIFICATE", line: 1)) { try PEM.decode(nested) }
        // A complete block followed by an unterminated one.
        let second = "-----BEGIN CERTIFICATE-----\nBQA=\n-----END CERTIFICATE-----\n-----BEGIN X509 CRL-----\nBQA=\n"
        assertPEMError(.unterminatedBlock(label: "X509 CRL", line: 4)) { try PEM.decode(second) }
    }

    /// `decodeEach` reports each bad block on its own and still decodes the blocks after it.
    func testDecodeEachKeepsTheBlocksAroundABadOne() {
        let text = [
            "-----BEGIN CERTIFICATE-----", "MAMCAQE=", "-----END CERTIFICATE-----", // 1–3: good
            "-----BEGIN CERTIFICATE-----", "not base64!", "BQA=", "-----END CERTIFICATE-----", // 4–7: bad line 5
            "-----BEGIN CERTIFICATE-----", "BQA=", "-----END X509 CRL-----", // 8–10: mismatched END
            "-----END CERTIFICATE-----", // 11: END without BEGIN
            "-----BEGIN CERTIFICATE-----", "BQA=", // 12–13: cut short by…
            "-----BEGIN X509 CRL-----", "BQA=", "-----END X509 CRL-----", // 14–16: good
            "-----BEGIN CERTIFICATE-----", "BQA=", // 17–18: unterminated
        ].joined(separator: "\n")
        let results: [String] = PEM.decodeEach(text).map {
            switch $0 {
            case let .success(block): return "\(block.label) at \(block.line): \(block.der)"
            case let .failure(error): return "\(error)"
            }
        }
        XCTAssertEqual(
            results,
            [
                "CERTIFICATE at 1: [48, 3, 2, 1, 1]",
                "\(PEMError.invalidBase64(label: "CERTIFICATE", line: 5))",
                "\(PEMError.mismatchedEnd(begin: "CERTIFICATE", end: "X509 CRL", line: 10))",
                "\(PEMError.malformedMarker(line: 11))",
                "\(PEMError.unterminatedBlock(label: "CERTIFICATE", line: 12))",
                "X509 CRL at 14: [5, 0]",
                "\(PEMError.unterminatedBlock(label: "CERTIFICATE", line: 17))",
            ])
        // The strict form stops at the first problem.
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 5)) { try PEM.decode(text) }
    }

    func testMismatchedEndLabel() {
        let text = "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END X509 CRL-----\n"
        assertPEMError(.mismatchedEnd(begin: "CERTIFICATE", end: "X509 CRL", line: 3)) { try PEM.decode(text) }
        let similar = "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATES-----\n"
        assertPEMError(.mismatchedEnd(begin: "CERTIFICATE", end: "CERTIFICATES", line: 3)) { try PEM.decode(similar) }
    }

    func testMalformedMarkers() {
        assertPEMError(.malformedMarker(line: 1)) { try PEM.decode("-----BEGIN certificate-----\nBQA=\n-----END certificate-----\n") }
        assertPEMError(.malformedMarker(line: 1)) { try PEM.decode("-----BEGIN CERTIFICATE\nBQA=\n-----END CERTIFICATE-----\n") }
        assertPEMError(.malformedMarker(line: 1)) { try PEM.decode("-----BEGIN -----\nBQA=\n-----END -----\n") }
        assertPEMError(.malformedMarker(line: 3)) { try PEM.decode("-----BEGIN CERTIFICATE-----\nBQA=\n-----END CERTIFICATE\n") }
        // END without a BEGIN.
        assertPEMError(.malformedMarker(line: 2)) { try PEM.decode("text\n-----END CERTIFICATE-----\n") }
    }

    func testInvalidBase64Character() {
        // A character outside the alphabet names the offending line.
        let text = "-----BEGIN CERTIFICATE-----\nMAMC\nAQ*=\n-----END CERTIFICATE-----\n"
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 3)) { try PEM.decode(text) }
        for bad in ["MAMC-QE=", "MAMC_QE=", "MAMC AQE=", "MAMC.QE=", "MAMCAQE=é"] {
            assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 2)) {
                try PEM.decode("-----BEGIN CERTIFICATE-----\n\(bad)\n-----END CERTIFICATE-----\n")
            }
        }
        // Blank lines and headers are not allowed inside a block.
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 3)) {
            try PEM.decode("-----BEGIN CERTIFICATE-----\nMAMC\n\nAQE=\n-----END CERTIFICATE-----\n")
        }
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 2)) {
            try PEM.decode("-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\nMAMCAQE=\n-----END CERTIFICATE-----\n")
        }
    }

    func testBadPadding() {
        // Padding problems are found when the body is decoded: reported at the BEGIN line.
        let cases = [
            "BQ==MAMCAQE=", // "=" in the middle
            "BQ==\nMAMCAQE=", // "=" at the end of a line that is not the last
            "BQA", // missing padding
            "BQ=", // wrong count
            "BQ===",
            "B===",
            "====",
            "BQA=BQA=B",
        ]
        for body in cases {
            assertPEMError(.invalidBase64(label: "X509 CRL", line: 2)) {
                try PEM.decode("text\n-----BEGIN X509 CRL-----\n\(body)\n-----END X509 CRL-----\n")
            }
        }
    }

    func testNonZeroPadBits() throws {
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 1)) {
            try PEM.decode("-----BEGIN CERTIFICATE-----\nQR==\n-----END CERTIFICATE-----\n")
        }
        assertPEMError(.invalidBase64(label: "CERTIFICATE", line: 1)) {
            try PEM.decode("-----BEGIN CERTIFICATE-----\nQUJ=\n-----END CERTIFICATE-----\n")
        }
        XCTAssertEqual(try PEM.decode("-----BEGIN CERTIFICATE-----\nQQ==\n-----END CERTIFICATE-----\n").first?.der, [0x41])
    }

    func testEmptyBlock() {
        assertPEMError(.emptyBlock(label: "CERTIFICATE", line: 2)) {
            try PEM.decode("x\n-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n")
        }
        assertPEMError(.emptyBlock(label: "PUBLIC KEY", line: 1)) { try PEM.decode(PEM.encode([], label: "PUBLIC KEY")) }
    }

    func testLooksLikePEM() {
        XCTAssertTrue(PEM.looksLikePEM(Array(explanatoryPEM.utf8)))
        XCTAssertTrue(PEM.looksLikePEM(Array("-----BEGIN X".utf8)))
        XCTAssertTrue(PEM.looksLikePEM(Array("junk -----BEGIN CERTIFICATE-----".utf8)))
        XCTAssertTrue(PEM.looksLikePEM([0x30, 0x82, 0x01] + Array("-----BEGIN CERTIFICATE-----\n".utf8)))
        XCTAssertFalse(PEM.looksLikePEM([]))
        XCTAssertFalse(PEM.looksLikePEM([0x30, 0x03, 0x02, 0x01, 0x01]))
        XCTAssertFalse(PEM.looksLikePEM(Array("-----BEGIN".utf8)))
        XCTAssertFalse(PEM.looksLikePEM(Array("-----BEGIN-CERTIFICATE-----".utf8)))
        XCTAssertFalse(PEM.looksLikePEM(Array("----BEGIN CERTIFICATE-----".utf8)))
        XCTAssertFalse(PEM.looksLikePEM(Array("-----END CERTIFICATE-----".utf8)))
        XCTAssertFalse(PEM.looksLikePEM(Array("-----begin certificate-----".utf8)))
    }

    func testEncodeLayout() {
        XCTAssertEqual(
            PEM.encode([0x30, 0x03, 0x02, 0x01, 0x01], label: "CERTIFICATE"),
            "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n")
        // 48 bytes → exactly one 64-character line; 49 bytes → a second line.
        let oneLine = PEM.encode([UInt8](repeating: 0, count: 48), label: "X").split(separator: "\n")
        XCTAssertEqual(oneLine.map(\.count), [17, 64, 15])
        let twoLines = PEM.encode([UInt8](repeating: 0, count: 49), label: "X").split(separator: "\n")
        XCTAssertEqual(twoLines.map(\.count), [17, 64, 4, 15])
    }

    func testEncodeDecodeRoundTrip() throws {
        for length in [1, 2, 3, 47, 48, 49, 95, 96, 97, 200, 1000] {
            let der = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let text = PEM.encode(der, label: "TEST DATA")
            for line in text.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, 64 + 20)
                if !line.hasPrefix("-----") { XCTAssertLessThanOrEqual(line.count, 64) }
            }
            let blocks = try PEM.decode(text)
            XCTAssertEqual(blocks.count, 1)
            XCTAssertEqual(blocks[0].der, der, "length \(length)")
            XCTAssertEqual(blocks[0].label, "TEST DATA")
            // Two encoded blocks concatenated decode as two blocks.
            let twice = try PEM.decode(text + "between\n" + PEM.encode(der.reversed(), label: "OTHER"))
            XCTAssertEqual(twice.map(\.label), ["TEST DATA", "OTHER"])
            XCTAssertEqual(twice[1].der, der.reversed())
        }
    }

    func testErrorDescriptions() {
        XCTAssertEqual(
            PEMError.unterminatedBlock(label: "CERTIFICATE", line: 4).description,
            "PEM block CERTIFICATE starting at line 4 has no END line")
        XCTAssertEqual(
            PEMError.invalidBase64(label: "X509 CRL", line: 2).description,
            "PEM block X509 CRL: invalid base64 at line 2")
    }
}
