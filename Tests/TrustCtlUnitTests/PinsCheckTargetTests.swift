import XCTest
@testable import trustctl

/// `trustctl pins check`'s `HOST[:PORT][@ADDRESS]` targets.
final class PinsCheckTargetTests: XCTestCase {
    func testHostPortAndAddress() throws {
        let cases: [(String, String, Int, String?)] = [
            ("www.example.test", "www.example.test", 8443, nil),
            ("www.example.test:443", "www.example.test", 443, nil),
            ("www.example.test@127.0.0.1", "www.example.test", 8443, "127.0.0.1"),
            ("www.example.test:4433@127.0.0.2", "www.example.test", 4433, "127.0.0.2"),
            ("[::1]:4433@[::1]", "::1", 4433, "::1"),
            ("2001:db8::1", "2001:db8::1", 8443, nil),
        ]
        for (text, host, port, address) in cases {
            let target = try PinsCheckTarget(parsing: text, defaultPort: 8443)
            XCTAssertEqual(target, PinsCheckTarget(host: host, port: port, address: address), text)
        }
        for bad in ["www.example.test@", "@127.0.0.1", "www.example.test:0@127.0.0.1"] {
            XCTAssertThrowsError(try PinsCheckTarget(parsing: bad, defaultPort: 443), bad)
        }
    }
}
