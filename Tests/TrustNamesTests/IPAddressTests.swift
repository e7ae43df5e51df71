import XCTest
@testable import TrustNames

final class IPAddressTests: XCTestCase {
    func testValidIPv4() {
        let cases: [(String, [UInt8])] = [
            ("1.2.3.4", [1, 2, 3, 4]),
            ("0.0.0.0", [0, 0, 0, 0]),
            ("255.255.255.255", [255, 255, 255, 255]),
            ("192.0.2.1", [192, 0, 2, 1]),
            ("10.0.100.9", [10, 0, 100, 9]),
        ]
        for (text, bytes) in cases {
            let address = IPAddress(text)
            XCTAssertEqual(address?.bytes, bytes, text)
            XCTAssertEqual(address?.isIPv4, true, text)
            XCTAssertEqual(address?.description, text, text)
        }
    }

    func testInvalidIPv4() {
        let invalid = [
            "01.2.3.4", "1.2.3.04", "1.2.3.00", "1.2.3", "1.2", "1", "1.2.3.4.5", "0x1.2.3.4", "0x01020304",
            "256.1.1.1", "1.2.3.256", "1.2.3.-1", "1.2.3.+1", "1..2.3", ".1.2.3.4", "1.2.3.4.", "1.2.3.4 ",
            " 1.2.3.4", "1.2.3.4\n", "1.2.3.1000", "1.2.3.a", "१.२.३.४", "1.2.3.4:80", "[1.2.3.4]", "",
            "4294967295", "1.2.3.0000",
        ]
        for text in invalid {
            XCTAssertNil(IPAddress(text), text.debugDescription)
        }
    }

    func testValidIPv6() {
        let cases: [(text: String, bytes: [UInt8], canonical: String)] = [
            ("::", [UInt8](repeating: 0, count: 16), "::"),
            ("::1", [UInt8](repeating: 0, count: 15) + [1], "::1"),
            ("1::", [0, 1] + [UInt8](repeating: 0, count: 14), "1::"),
            ("2001:db8::", [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12), "2001:db8::"),
            (
                "2001:DB8:0:0:8:800:200C:417A",
                [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 8, 0x08, 0, 0x20, 0x0C, 0x41, 0x7A],
                "2001:db8::8:800:200c:417a"
            ),
            (
                "2001:0db8:0000:0000:0000:0000:0000:0001",
                [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1], "2001:db8::1"
            ),
            (
                "::ffff:192.0.2.1",
                [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 192, 0, 2, 1], "::ffff:192.0.2.1"
            ),
            (
                "::FFFF:c000:0201",
                [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 192, 0, 2, 1], "::ffff:192.0.2.1"
            ),
            (
                "0:0:0:0:0:ffff:1.2.3.4",
                [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 1, 2, 3, 4], "::ffff:1.2.3.4"
            ),
            ("::1.2.3.4", [UInt8](repeating: 0, count: 12) + [1, 2, 3, 4], "::102:304"),
            (
                "64:ff9b::192.0.2.33",
                [0, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8) + [192, 0, 2, 33], "64:ff9b::c000:221"
            ),
            ("1:2:3:4:5:6:7:8", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8], "1:2:3:4:5:6:7:8"),
            ("1:2:3:4:5:6:7::", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0], "1:2:3:4:5:6:7:0"),
            ("::2:3:4:5:6:7:8", [0, 0, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8], "0:2:3:4:5:6:7:8"),
            ("1:2:3:4:5:6:1.2.3.4", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4], "1:2:3:4:5:6:102:304"),
            ("[2001:db8::1]", [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1], "2001:db8::1"),
            ("fe80::1", [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1], "fe80::1"),
        ]
        for (text, bytes, canonical) in cases {
            let address = IPAddress(text)
            XCTAssertEqual(address?.bytes, bytes, text)
            XCTAssertEqual(address?.isIPv4, false, text)
            XCTAssertEqual(address?.description, canonical, text)
            // The canonical form parses back to the same address.
            XCTAssertEqual(IPAddress(canonical), address, text)
        }
    }

    func testInvalidIPv6() {
        let invalid = [
            "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2::3", "::1::", ":::", "1:::2", "12345::", "::12345",
            "fe80::1%eth0", "fe80::1%25eth0", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", ":1::2", "1::2:",
            ":", "1:", ":1", "g::1", "::ffff:192.0.2", "::ffff:192.0.2.01", "::ffff:256.0.2.1",
            "::1.2.3.4:5", "1.2.3.4::", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.4.5", "[::1", "::1]", "[[::1]]",
            "[]", "[::1]:443", "::-1", " ::1", "::1 ", "2001:db8::1/64", "0x1::", "::+1",
            "1:2:3:4:5:6:7:8:1.2.3.4", "::ffff:1.2.3.4:1",
        ]
        for text in invalid {
            XCTAssertNil(IPAddress(text), text.debugDescription)
        }
    }

    func testCanonicalCompressionRules() {
        // RFC 5952 §4.2: longest run compressed, first on a tie, never a single group.
        let cases: [(String, String)] = [
            ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
            ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),
            ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
            ("0:0:0:1:0:0:0:0", "0:0:0:1::"),
            ("1:0:0:0:0:0:0:0", "1::"),
            ("0:0:0:0:0:0:0:1", "::1"),
            ("2001:DB8:AAAA:00BB:0CCC:DDDD:EEEE:FFFF", "2001:db8:aaaa:bb:ccc:dddd:eeee:ffff"),
            ("::ffff:0:0", "::ffff:0.0.0.0"),
        ]
        for (text, canonical) in cases {
            XCTAssertEqual(IPAddress(text)?.description, canonical, text)
        }
    }

    func testInitFromBytes() {
        XCTAssertEqual(IPAddress(bytes: [192, 0, 2, 1])?.description, "192.0.2.1")
        XCTAssertEqual(IPAddress(bytes: [UInt8](repeating: 0, count: 15) + [1])?.description, "::1")
        XCTAssertEqual(IPAddress(bytes: ArraySlice<UInt8>([10, 0, 0, 1])), IPAddress("10.0.0.1"))
        for count in [0, 1, 3, 5, 8, 15, 17, 32] {
            XCTAssertNil(IPAddress(bytes: [UInt8](repeating: 1, count: count)), "\(count)")
        }
    }

    func testIPv4AndMappedIPv6AreDistinct() {
        let v4 = IPAddress("192.0.2.1")
        let mapped = IPAddress("::ffff:192.0.2.1")
        XCTAssertNotNil(v4)
        XCTAssertNotNil(mapped)
        XCTAssertNotEqual(v4, mapped)
        XCTAssertEqual(IPAddress("2001:DB8::1"), IPAddress("2001:db8:0::0:1"))
        XCTAssertEqual(Set([IPAddress("::1"), IPAddress("0::1"), IPAddress("0:0:0:0:0:0:0:1")]).count, 1)
    }

    func testLongInputIsRejected() {
        XCTAssertNil(IPAddress(String(repeating: "0", count: 10_000) + "::1"))
        XCTAssertNil(IPAddress(String(repeating: "1.", count: 1_000) + "1"))
    }
}
