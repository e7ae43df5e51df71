import TrustDER
import XCTest

/// `PEM.decode(_:labels:)`: the wanted blocks decoded strictly, the others passed over unread.
final class PEMSkippingTests: XCTestCase {
    private let combined = """
        Key and certificate for www.example.test.

        -----BEGIN RSA PRIVATE KEY-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-256-CBC,9D9ABD69262B22AE9357DB6BDBB11BF3

        not base64 at all: RFC 1421 headers and an encrypted body
        -----END RSA PRIVATE KEY-----
        ...and between...
        -----BEGIN CERTIFICATE-----
        MAMCAQE=
        -----END CERTIFICATE-----
        -----BEGIN EC PARAMETERS-----
        BggqhkjOPQMBBw==
        -----END EC PARAMETERS-----
        """

    func testOtherBlocksAreSkippedUnreadWithTheirLines() throws {
        let decoded = try PEM.decode(combined, labels: ["CERTIFICATE"])
        XCTAssertEqual(decoded.blocks.map(\.label), ["CERTIFICATE"])
        XCTAssertEqual(decoded.blocks.map(\.line), [10])
        XCTAssertEqual(decoded.blocks.map(\.der), [[0x30, 0x03, 0x02, 0x01, 0x01]])
        XCTAssertEqual(decoded.skipped.map(\.description), ["RSA PRIVATE KEY at line 3", "EC PARAMETERS at line 13"])
        // Decoding every block still reads the key's body, and fails on it.
        XCTAssertThrowsError(try PEM.decode(combined)) { error in
            XCTAssertEqual(error as? PEMError, .invalidBase64(label: "RSA PRIVATE KEY", line: 4))
        }
    }

    func testWantedBlocksStayStrictAndMarkersMustBeWellFormed() {
        // A certificate block with a header line is not base64 (RFC 7468 allows no headers).
        XCTAssertThrowsError(
            try PEM.decode(
                "-----BEGIN CERTIFICATE-----\nProc-Type: 4\nMAMCAQE=\n-----END CERTIFICATE-----\n",
                labels: ["CERTIFICATE"])
        ) { error in
            XCTAssertEqual(error as? PEMError, .invalidBase64(label: "CERTIFICATE", line: 2))
        }
        // A skipped block must still end, with its own label.
        XCTAssertThrowsError(try PEM.decode("-----BEGIN PRIVATE KEY-----\nxx\n", labels: ["CERTIFICATE"])) { error in
            XCTAssertEqual(error as? PEMError, .unterminatedBlock(label: "PRIVATE KEY", line: 1))
        }
        XCTAssertThrowsError(try PEM.decode("-----BEGIN PRIVATE KEY-----\nxx\n-----END CERTIFICATE-----\n", labels: ["CERTIFICATE"])) { error in
            XCTAssertEqual(error as? PEMError, .mismatchedEnd(begin: "PRIVATE KEY", end: "CERTIFICATE", line: 3))
        }
    }
}
