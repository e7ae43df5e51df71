import XCTest
@testable import TrustNames

final class NameConstraintMatchingTests: XCTestCase {
    func testDNSName() {
        let cases: [(name: String, constraint: String, within: Bool, line: UInt)] = [
            ("example.com", "example.com", true, #line),
            ("a.example.com", "example.com", true, #line),
            ("a.b.example.com", "example.com", true, #line),
            ("badexample.com", "example.com", false, #line),
            ("example.com.evil", "example.com", false, #line),
            ("com", "example.com", false, #line),
            ("example.org", "example.com", false, #line),
            ("EXAMPLE.COM", "example.com", true, #line),
            ("a.Example.Com", "EXAMPLE.com", true, #line),
            ("example.com.", "example.com", true, #line),
            ("a.example.com", "example.com.", true, #line),
            // Leading dot: proper subdomains only.
            ("example.com", ".example.com", false, #line),
            ("a.example.com", ".example.com", true, #line),
            ("a.b.example.com", ".example.com", true, #line),
            ("badexample.com", ".example.com", false, #line),
            // Empty constraint: everything.
            ("example.com", "", true, #line),
            ("anything.at.all", "", true, #line),
            // Wildcard names: "*" is an ordinary label.
            ("*.example.com", "example.com", true, #line),
            ("*.example.com", ".example.com", true, #line),
            ("*.example.com", "a.example.com", false, #line),
            ("*.badexample.com", "example.com", false, #line),
            // Malformed names or constraints match nothing.
            ("a..example.com", "example.com", false, #line),
            (".example.com", "example.com", false, #line),
            ("", "example.com", false, #line),
            ("bücher.example.com", "example.com", false, #line),
            ("example.com", "..example.com", false, #line),
            ("example.com", ".", false, #line),
            ("a.example.com", "example..com", false, #line),
        ]
        for testCase in cases {
            XCTAssertEqual(
                NameConstraintMatching.dnsName(testCase.name, isWithin: testCase.constraint),
                testCase.within, "\(testCase.name) within \(testCase.constraint)", line: testCase.line)
        }
    }

    func testEmail() {
        let cases: [(address: String, constraint: String, within: Bool, line: UInt)] = [
            // Exact mailbox.
            ("user@example.com", "user@example.com", true, #line),
            ("user@EXAMPLE.com", "user@example.com", true, #line),
            ("User@example.com", "user@example.com", false, #line),
            ("other@example.com", "user@example.com", false, #line),
            ("user@a.example.com", "user@example.com", false, #line),
            // All mailboxes on exactly one host.
            ("user@example.com", "example.com", true, #line),
            ("anyone@Example.COM", "example.com", true, #line),
            ("user@a.example.com", "example.com", false, #line),
            ("user@badexample.com", "example.com", false, #line),
            // Any mailbox on subdomains.
            ("user@a.example.com", ".example.com", true, #line),
            ("user@a.b.example.com", ".example.com", true, #line),
            ("user@example.com", ".example.com", false, #line),
            ("user@badexample.com", ".example.com", false, #line),
            // Quoted local parts containing "@": split at the last "@".
            ("\"a@b\"@example.com", "example.com", true, #line),
            ("\"a@b\"@example.com", "\"a@b\"@example.com", true, #line),
            // Empty constraint matches everything.
            ("user@example.com", "", true, #line),
            // Malformed.
            ("example.com", "example.com", false, #line),
            ("@example.com", "example.com", false, #line),
            ("user@", "example.com", false, #line),
            ("user@example..com", "example.com", false, #line),
            ("user@example.com", "@example.com", false, #line),
            ("user@example.com", "user@", false, #line),
        ]
        for testCase in cases {
            XCTAssertEqual(
                NameConstraintMatching.email(testCase.address, isWithin: testCase.constraint),
                testCase.within, "\(testCase.address) within \(testCase.constraint)", line: testCase.line)
        }
    }

    func testIPAddress() {
        let net192: [UInt8] = [192, 168, 0, 0, 255, 255, 0, 0]
        XCTAssertTrue(NameConstraintMatching.ipAddress([192, 168, 1, 2], isWithin: net192))
        XCTAssertTrue(NameConstraintMatching.ipAddress([192, 168, 255, 255], isWithin: net192))
        XCTAssertFalse(NameConstraintMatching.ipAddress([192, 169, 1, 2], isWithin: net192))
        XCTAssertFalse(NameConstraintMatching.ipAddress([10, 0, 0, 1], isWithin: net192))

        let net25: [UInt8] = [10, 0, 0, 128, 255, 255, 255, 128]
        XCTAssertTrue(NameConstraintMatching.ipAddress([10, 0, 0, 200], isWithin: net25))
        XCTAssertFalse(NameConstraintMatching.ipAddress([10, 0, 0, 127], isWithin: net25))

        let any4: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertTrue(NameConstraintMatching.ipAddress([8, 8, 8, 8], isWithin: any4))
        let host: [UInt8] = [1, 2, 3, 4, 255, 255, 255, 255]
        XCTAssertTrue(NameConstraintMatching.ipAddress([1, 2, 3, 4], isWithin: host))
        XCTAssertFalse(NameConstraintMatching.ipAddress([1, 2, 3, 5], isWithin: host))

        // Host bits in the constraint's address part are ignored.
        XCTAssertTrue(NameConstraintMatching.ipAddress([192, 168, 7, 7], isWithin: [192, 168, 9, 9, 255, 255, 0, 0]))

        // IPv6: 2001:db8::/32.
        let v6Net: [UInt8] =
            [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12)
            + [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 12)
        let v6In: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 7, count: 12)
        let v6Out: [UInt8] = [0x20, 0x01, 0x0D, 0xB9] + [UInt8](repeating: 0, count: 12)
        XCTAssertTrue(NameConstraintMatching.ipAddress(v6In, isWithin: v6Net))
        XCTAssertFalse(NameConstraintMatching.ipAddress(v6Out, isWithin: v6Net))

        // Address family must match.
        XCTAssertFalse(NameConstraintMatching.ipAddress([192, 168, 1, 2], isWithin: v6Net))
        XCTAssertFalse(NameConstraintMatching.ipAddress(v6In, isWithin: net192))
        XCTAssertFalse(NameConstraintMatching.ipAddress([UInt8](repeating: 0, count: 16), isWithin: any4))
        XCTAssertFalse(NameConstraintMatching.ipAddress([], isWithin: []))
        XCTAssertFalse(NameConstraintMatching.ipAddress([1, 2, 3], isWithin: [1, 2, 3, 255, 255, 255]))

        // Non-contiguous masks and wrong lengths match nothing.
        XCTAssertFalse(NameConstraintMatching.ipAddress([192, 168, 1, 2], isWithin: [192, 168, 0, 0, 255, 0, 255, 0]))
        XCTAssertFalse(NameConstraintMatching.ipAddress([192, 168, 1, 2], isWithin: [192, 168, 0, 0, 255, 255, 0]))
    }

    func testIsValidIPConstraint() {
        let valid: [[UInt8]] = [
            [0, 0, 0, 0, 0, 0, 0, 0],
            [10, 0, 0, 0, 255, 0, 0, 0],
            [10, 0, 0, 0, 255, 255, 255, 255],
            [10, 0, 0, 0, 255, 255, 254, 0],
            [10, 0, 0, 0, 128, 0, 0, 0],
            [UInt8](repeating: 0, count: 16) + [UInt8](repeating: 0xFF, count: 8) + [0xF0] + [UInt8](repeating: 0, count: 7),
            [UInt8](repeating: 0, count: 32),
            [UInt8](repeating: 0, count: 16) + [UInt8](repeating: 0xFF, count: 16),
        ]
        for constraint in valid {
            XCTAssertTrue(NameConstraintMatching.isValidIPConstraint(constraint), "\(constraint)")
        }
        let invalid: [[UInt8]] = [
            [],
            [10, 0, 0, 0],
            [10, 0, 0, 0, 255, 255, 255],
            [10, 0, 0, 0, 255, 255, 255, 255, 0],
            [10, 0, 0, 0, 255, 0, 255, 0],
            [10, 0, 0, 0, 0, 255, 255, 255],
            [10, 0, 0, 0, 255, 255, 0x7F, 0],
            [10, 0, 0, 0, 255, 0xF1, 0, 0],
            [10, 0, 0, 0, 0xFE, 0, 0, 1],
            [UInt8](repeating: 0, count: 16),
            [UInt8](repeating: 0, count: 16) + [UInt8](repeating: 0xFF, count: 15) + [0x01],
            [UInt8](repeating: 0, count: 16) + [0xFF, 0x00, 0xFF] + [UInt8](repeating: 0, count: 13),
        ]
        for constraint in invalid {
            XCTAssertFalse(NameConstraintMatching.isValidIPConstraint(constraint), "\(constraint)")
        }
    }

    func testURI() {
        let cases: [(uri: String, constraint: String, within: Bool, line: UInt)] = [
            ("https://host.example.com/path", "host.example.com", true, #line),
            ("https://HOST.Example.com", "host.example.com", true, #line),
            ("https://host.example.com:8443/x?y#z", "host.example.com", true, #line),
            ("https://user:pw@host.example.com/", "host.example.com", true, #line),
            ("ldap://host.example.com/dc=example", "host.example.com", true, #line),
            ("https://host.example.com./", "host.example.com", true, #line),
            ("https://host.example.com?q", "host.example.com", true, #line),
            // A bare host constraint does not cover subdomains.
            ("https://a.host.example.com/", "host.example.com", false, #line),
            ("https://example.com/", "host.example.com", false, #line),
            // Leading dot: subdomains only.
            ("https://a.example.com/", ".example.com", true, #line),
            ("https://a.b.example.com/", ".example.com", true, #line),
            ("https://example.com/", ".example.com", false, #line),
            ("https://badexample.com/", ".example.com", false, #line),
            // The host is what matters, not the path or user info.
            ("https://evil.test/host.example.com", "host.example.com", false, #line),
            ("https://host.example.com@evil.test/", "host.example.com", false, #line),
            ("https://evil.test#@host.example.com", "host.example.com", false, #line),
            // Empty constraint.
            ("https://anything.test/", "", true, #line),
            // No authority, IP literals, odd hosts.
            ("urn:isbn:0451450523", "example.com", false, #line),
            ("mailto:user@example.com", "example.com", false, #line),
            ("https:///path", "example.com", false, #line),
            ("https://192.0.2.1/", "192.0.2.1", false, #line),
            ("https://[2001:db8::1]/", "example.com", false, #line),
            ("https://ex%61mple.com/", "example.com", false, #line),
            ("https://host.example.com:abc/", "host.example.com", false, #line),
            ("host.example.com", "host.example.com", false, #line),
            ("//host.example.com/", "host.example.com", false, #line),
            ("1https://host.example.com/", "host.example.com", false, #line),
            ("https://bücher.example.com/", ".example.com", false, #line),
        ]
        for testCase in cases {
            XCTAssertEqual(
                NameConstraintMatching.uri(testCase.uri, isWithin: testCase.constraint),
                testCase.within, "\(testCase.uri) within \(testCase.constraint)", line: testCase.line)
        }
    }
}
