import XCTest
@testable import trustctl

/// `trustctl probe`'s target syntax and its ServerHello reader, on bytes rather than sockets.
final class ProbeParsingTests: XCTestCase {
    func testTargets() throws {
        let cases: [(String, String, Int, Bool)] = [
            ("example.test", "example.test", 443, false), ("example.test:8443", "example.test", 8443, true),
            ("https://example.test/", "example.test", 443, false), ("https://example.test:4433/path?q#f", "example.test", 4433, true),
            ("127.0.0.1:1", "127.0.0.1", 1, true), ("[::1]:4433", "::1", 4433, true), ("[2001:db8::1]", "2001:db8::1", 443, false),
            ("2001:db8::1", "2001:db8::1", 443, false), ("HTTPS://example.test", "example.test", 443, false),
            ("example.test:443", "example.test", 443, true),
        ]
        for (text, host, port, explicit) in cases {
            let target = try ProbeTarget(parsing: text)
            XCTAssertEqual([target.host, String(target.port)], [host, String(port)], text)
            XCTAssertEqual(target.hasExplicitPort, explicit, text)
        }
        for bad in [
            "", ":443", "http://example.test/", "example.test:0", "example.test:65536", "example.test:x",
            "[::1", "[::1]x", "https://user@example.test/", "https://:443/",
        ] {
            XCTAssertThrowsError(try ProbeTarget(parsing: bad), bad)
        }
    }

    /// A TLS record holding the start of a ServerHello with a session id of `sessionID` bytes and `suite`.
    private func serverHello(sessionID: Int, suite: UInt16) -> [UInt8] {
        var body: [UInt8] = [2, 0, 0, 0] + [3, 3] + [UInt8](repeating: 0xAB, count: 32)
        body += [UInt8(sessionID)] + [UInt8](repeating: 0xCD, count: sessionID) + [UInt8(suite >> 8), UInt8(suite & 0xFF), 0]
        return [22, 3, 3, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    func testServerHelloCipherSuite() {
        XCTAssertEqual(ServerHelloSniffer.cipherSuite(in: serverHello(sessionID: 32, suite: 0x1301)), .found(0x1301))
        XCTAssertEqual(ServerHelloSniffer.cipherSuite(in: serverHello(sessionID: 0, suite: 0xC02B)), .found(0xC02B))
        XCTAssertEqual(TLSCipherSuiteNames.name(of: 0x1302), "TLS_AES_256_GCM_SHA384")
        XCTAssertEqual(TLSCipherSuiteNames.name(of: 0xABCD), "0xABCD")
    }

    func testTruncatedServerHellosAskForMoreAndOtherRecordsAreNotServerHellos() {
        let full = serverHello(sessionID: 32, suite: 0x1303)
        for length in 0..<(full.count - 1) {
            XCTAssertEqual(
                ServerHelloSniffer.cipherSuite(in: Array(full.prefix(length))), length < 5 + 4 + 2 + 32 + 1 + 32 + 2 ? .needMore : .found(0x1303),
                "\(length) bytes")
        }
        XCTAssertEqual(ServerHelloSniffer.cipherSuite(in: Array("HTTP/1.0 400".utf8)), .notServerHello)
        XCTAssertEqual(ServerHelloSniffer.cipherSuite(in: [21, 3, 3, 0, 2, 2, 40]), .notServerHello, "an alert")
        XCTAssertEqual(ServerHelloSniffer.cipherSuite(in: [22, 3, 3, 0, 4, 11, 0, 0, 0]), .notServerHello, "not a ServerHello")
        // A session id length pointing past the end: more is needed, never an out-of-bounds read.
        var long = serverHello(sessionID: 0, suite: 0x1301)
        long[5 + 4 + 2 + 32] = 0xFF
        XCTAssertEqual(ServerHelloSniffer.cipherSuite(in: long), .needMore)
    }
}
