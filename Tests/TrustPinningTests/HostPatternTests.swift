import TrustPinning
import XCTest

final class HostPatternTests: XCTestCase {
    private func matches(_ pattern: String, _ host: String, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        try HostPattern(pattern).matches(host)
    }

    func testExact() throws {
        XCTAssertTrue(try matches("api.example.com", "api.example.com"))
        XCTAssertTrue(try matches("API.Example.COM", "api.example.com."))
        XCTAssertTrue(try matches("api.example.com", "Api.EXAMPLE.com"))
        XCTAssertFalse(try matches("api.example.com", "www.api.example.com"))
        XCTAssertFalse(try matches("api.example.com", "example.com"))
        XCTAssertFalse(try matches("api.example.com", "api.example.co"))
    }

    func testSingleLabelWildcard() throws {
        XCTAssertTrue(try matches("*.example.com", "a.example.com"))
        XCTAssertTrue(try matches("*.example.com", "A.EXAMPLE.COM"))
        XCTAssertFalse(try matches("*.example.com", "a.b.example.com"))
        XCTAssertFalse(try matches("*.example.com", "example.com"))
        XCTAssertFalse(try matches("*.example.com", "badexample.com"))
        XCTAssertFalse(try matches("*.example.com", ".example.com"))
    }

    func testAnyDepthWildcard() throws {
        XCTAssertTrue(try matches("**.example.com", "example.com"))
        XCTAssertTrue(try matches("**.example.com", "a.example.com"))
        XCTAssertTrue(try matches("**.example.com", "a.b.c.example.com"))
        XCTAssertFalse(try matches("**.example.com", "badexample.com"))
        XCTAssertFalse(try matches("**.example.com", "example.com.evil.test"))
    }

    func testIDNA() throws {
        XCTAssertTrue(try matches("bücher.example", "xn--bcher-kva.example"))
        XCTAssertTrue(try matches("xn--bcher-kva.example", "BÜCHER.example"))
        XCTAssertTrue(try matches("*.bücher.example", "shop.xn--bcher-kva.example"))
        XCTAssertEqual(try HostPattern("**.Bücher.Example.").description, "**.xn--bcher-kva.example")
    }

    func testHostsWithUnderscoresFindTheirPatterns() throws {
        // Trust evaluation accepts `_srv.pinned.example` as a host (Apple SecDNSMatch does not
        // validate the reference), so the pattern covering it must apply: otherwise such a host would
        // be evaluated without the pins of its domain.
        XCTAssertTrue(try matches("**.pinned.example", "_srv.pinned.example"))
        XCTAssertTrue(try matches("*.pinned.example", "My_Host.pinned.example."))
        XCTAssertTrue(try matches("_srv.pinned.example", "_SRV.pinned.example"))
        XCTAssertFalse(try matches("*.pinned.example", "a._srv.pinned.example"))
        let manager = try ServerTrustManager(
            allHostsMustBeEvaluated: true, matching: .hostPatterns, evaluators: ["**.pinned.example": DisabledTrustEvaluator()])
        XCTAssertEqual(manager.matchingPattern(forHost: "_srv.pinned.example")?.description, "**.pinned.example")
    }

    func testIPAddresses() throws {
        XCTAssertTrue(try matches("192.0.2.10", "192.0.2.10"))
        XCTAssertTrue(try matches("2001:DB8::10", "[2001:db8:0::10]"))
        XCTAssertFalse(try matches("192.0.2.10", "192.0.2.11"))
        XCTAssertFalse(try matches("**.0.2.10", "192.0.2.10"), "wildcards never match IP addresses")
        XCTAssertFalse(try matches("*.0.2.10", "192.0.2.10"))
    }

    func testInvalidPatterns() {
        for bad in [
            "", "*", "**", "*.", "**.", "a.*.example.com", "*foo.example.com", "***.example.com", "*.*.example.com",
            "exa mple.com", "*.192.0.2.1", "**.2001:db8::1", "-bad.example.com",
        ] {
            XCTAssertThrowsError(try HostPattern(bad), bad) { error in
                guard case .invalidHostPattern(bad, _)? = error as? PinningConfigurationError else { return XCTFail("\(bad): \(error)") }
            }
        }
    }
}
