import XCTest
@testable import TrustNames
import TrustX509

final class HostnameMatcherTests: XCTestCase {
    func testDNSNameTable() {
        let cases: [(reference: String, pattern: String, matches: Bool, line: UInt)] = [
            // Exact and case-insensitive.
            ("example.com", "example.com", true, #line),
            ("www.example.com", "www.example.com", true, #line),
            ("www.example.com", "WWW.Example.COM", true, #line),
            ("WWW.EXAMPLE.COM", "www.example.com", true, #line),
            ("www.example.com", "example.com", false, #line),
            ("example.com", "www.example.com", false, #line),
            ("example.com", "example.org", false, #line),
            ("example.com", "example.co", false, #line),
            ("badexample.com", "example.com", false, #line),
            // One trailing dot on the reference is stripped (Apple SecDNSMatch); a dNSName ending in
            // a dot never matches (Apple's SecFrameworkIsDNSName drops it from the SAN names).
            ("example.com.", "example.com", true, #line),
            ("example.com", "example.com.", false, #line),
            ("example.com.", "example.com.", false, #line),
            ("example.com..", "example.com", false, #line),
            ("example.com", "example.com..", false, #line),
            // Wildcards: exactly one full left-most label.
            ("foo.example.com", "*.example.com", true, #line),
            ("FOO.example.com", "*.EXAMPLE.com", true, #line),
            ("foo.example.com.", "*.example.com", true, #line),
            ("foo.example.com", "*.example.com.", false, #line),
            ("example.com", "*.example.com", false, #line),
            ("a.b.example.com", "*.example.com", false, #line),
            (".example.com", "*.example.com", false, #line),
            ("foo.example.org", "*.example.com", false, #line),
            ("foo.example.com", "*.*.com", false, #line),
            ("foo.bar.example.com", "*.*.example.com", false, #line),
            ("foo.example.com", "foo.*.com", false, #line),
            ("foo.example.com", "foo.example.*", false, #line),
            // Partial-label wildcards never match.
            ("foo.example.com", "f*.example.com", false, #line),
            ("foo.example.com", "*oo.example.com", false, #line),
            ("foo.example.com", "f*o.example.com", false, #line),
            ("foo.example.com", "**.example.com", false, #line),
            ("f*.example.com", "f*.example.com", false, #line),
            // Too few labels after the wildcard.
            ("example.com", "*.com", false, #line),
            ("com", "*", false, #line),
            ("foo", "*", false, #line),
            ("foo.com", "*.", false, #line),
            ("foo.com.", "*.com.", false, #line),
            // No wildcard spans a public suffix (the shipped list, ICANN section).
            ("example.co.uk", "*.co.uk", false, #line),
            ("www.example.co.uk", "*.example.co.uk", true, #line),
            ("a.c.kobe.jp", "*.c.kobe.jp", false, #line),
            ("www.city.kobe.jp", "*.city.kobe.jp", true, #line),
            ("www.b.c.kobe.jp", "*.b.c.kobe.jp", true, #line),
            ("a.xn--55qx5d.cn", "*.xn--55qx5d.cn", false, #line),
            ("bucket.s3.amazonaws.com", "*.s3.amazonaws.com", true, #line),
            // A wildcard may stand for an A-label.
            ("xn--bcher-kva.example.com", "*.example.com", true, #line),
            ("xn--bcher-kva.example", "xn--bcher-kva.example", true, #line),
            ("www.xn--bcher-kva.example", "*.xn--bcher-kva.example", true, #line),
            // References must not contain wildcards.
            ("*.example.com", "*.example.com", false, #line),
            ("*.example.com", "foo.example.com", false, #line),
            // Malformed patterns never match.
            ("bücher.example", "bücher.example", false, #line),
            ("foo.example.com", "foo.example.com ", false, #line),
            ("foo.example.com", " foo.example.com", false, #line),
            ("foo.example.com", "foo..example.com", false, #line),
            ("foo.example.com", ".foo.example.com", false, #line),
            ("foo.example.com", "foo.example.com-", false, #line),
            ("foo.example.com", "foo.example.com\u{0}", false, #line),
            ("foo.example.com", "", false, #line),
            ("", "", false, #line),
            ("", "*", false, #line),
            // Underscores anywhere in a label, on both sides: Apple's SecFrameworkIsDNSName allows
            // them in SAN names and SecDNSMatch does not validate the reference.
            ("foo_bar.example.com", "foo_bar.example.com", true, #line),
            ("_srv.internal.example", "_srv.internal.example", true, #line),
            ("My_Host.example.com", "my_host.EXAMPLE.com", true, #line),
            ("host_.example.com", "host_.example.com", true, #line),
            ("my_host.example.com", "*.example.com", true, #line),
            ("_srv.example.com", "*.example.com", true, #line),
            ("a.my_zone.example", "*.my_zone.example", true, #line),
            ("my_host.example.com", "my-host.example.com", false, #line),
            ("myhost.example.com", "my_host.example.com", false, #line),
            // Still only the whole left-most label as a wildcard, and no other punctuation.
            ("f_o.example.com", "f_*.example.com", false, #line),
            ("a.b_c.example.com", "a.*.example.com", false, #line),
            ("foo+bar.example.com", "foo+bar.example.com", false, #line),
            ("foo_bar.example.com.", "foo_bar.example.com.", false, #line),
            // Numeric right-most labels (IP-like) never match as DNS names.
            ("1.2.3.4", "1.2.3.4", false, #line),
            ("1.2.3.4", "*.2.3.4", false, #line),
            ("a.0x7f", "a.0x7f", false, #line),
            ("a.123.example", "a.123.example", true, #line),
        ]
        for testCase in cases {
            XCTAssertEqual(
                HostnameMatcher.matchesDNSName(testCase.reference, pattern: testCase.pattern), testCase.matches,
                "\(testCase.reference.debugDescription) vs \(testCase.pattern.debugDescription)",
                line: testCase.line)
        }
    }

    func testTheSuppliedPublicSuffixListDecides() throws {
        var withPrivate = PublicSuffixList.snapshot
        withPrivate.consultedSections = .all
        XCTAssertFalse(
            HostnameMatcher.matchesDNSName(
                "bucket.s3.amazonaws.com", pattern: "*.s3.amazonaws.com",
                publicSuffixList: withPrivate))
        let custom = try PublicSuffixList(parsing: "corp.example\n")
        XCTAssertTrue(HostnameMatcher.matchesDNSName("a.corp.example", pattern: "*.corp.example"))
        XCTAssertFalse(HostnameMatcher.matchesDNSName("a.corp.example", pattern: "*.corp.example", publicSuffixList: custom))
        XCTAssertFalse(
            HostnameMatcher.matches(
                .dns("a.corp.example"), dnsNames: ["*.corp.example"], ipAddresses: [],
                publicSuffixList: custom))
        XCTAssertFalse(
            HostnameMatcher.matchesCommonName(
                .dns("a.corp.example"), commonNames: ["*.corp.example"],
                publicSuffixList: custom))
    }

    func testAnEmailIdentityNeverMatchesDNSOrIPNames() throws {
        let identity = try XCTUnwrap(ServerIdentity(emailAddress: "user@example.com"))
        XCTAssertFalse(HostnameMatcher.matches(identity, dnsNames: ["example.com", "user@example.com"], ipAddresses: []))
        XCTAssertFalse(HostnameMatcher.matchesCommonName(identity, commonNames: ["user@example.com"]))
    }

    func testOverlongNames() {
        let label63 = String(repeating: "a", count: 63)
        let label64 = String(repeating: "a", count: 64)
        XCTAssertTrue(HostnameMatcher.matchesDNSName(label63 + ".com", pattern: label63 + ".com"))
        XCTAssertFalse(HostnameMatcher.matchesDNSName(label64 + ".com", pattern: label64 + ".com"))
        XCTAssertFalse(HostnameMatcher.matchesDNSName(label64 + ".com", pattern: "*.com"))
        XCTAssertFalse(HostnameMatcher.matchesDNSName("x." + label64 + ".com", pattern: "*." + label64 + ".com"))

        // Names of exactly 253 octets match; 254 octets never do.
        let base = [label63, label63, label63].joined(separator: ".") // 191 octets
        let suffix251 = base + "." + String(repeating: "c", count: 59) // 251 octets
        XCTAssertEqual(suffix251.utf8.count, 251)
        XCTAssertTrue(HostnameMatcher.matchesDNSName("x." + suffix251, pattern: "*." + suffix251))
        XCTAssertTrue(HostnameMatcher.matchesDNSName("x." + suffix251, pattern: "x." + suffix251))
        let suffix252 = suffix251 + "c"
        XCTAssertFalse(HostnameMatcher.matchesDNSName("x." + suffix252, pattern: "*." + suffix252))
        XCTAssertFalse(HostnameMatcher.matchesDNSName("x." + suffix252, pattern: "x." + suffix252))

        let huge = String(repeating: "a.", count: 100_000) + "com"
        XCTAssertFalse(HostnameMatcher.matchesDNSName(huge, pattern: huge))
        XCTAssertFalse(HostnameMatcher.matchesDNSName("a.com", pattern: "*." + huge))
    }

    func testIDNReferenceMatchesALabelSAN() throws {
        let identity = try XCTUnwrap(ServerIdentity("bücher.example"))
        XCTAssertEqual(identity, .dns("xn--bcher-kva.example"))
        XCTAssertTrue(HostnameMatcher.matches(identity, dnsNames: ["xn--bcher-kva.example"], ipAddresses: []))
        XCTAssertTrue(HostnameMatcher.matches(identity, dnsNames: ["XN--BCHER-KVA.EXAMPLE"], ipAddresses: []))
        XCTAssertFalse(HostnameMatcher.matches(identity, dnsNames: ["bücher.example"], ipAddresses: []))
        XCTAssertFalse(HostnameMatcher.matches(identity, dnsNames: ["bucher.example"], ipAddresses: []))

        let sub = try XCTUnwrap(ServerIdentity("www.Bücher.example"))
        XCTAssertTrue(HostnameMatcher.matches(sub, dnsNames: ["*.xn--bcher-kva.example"], ipAddresses: []))
    }

    func testIPAndDNSAreSeparate() throws {
        let ipIdentity = try XCTUnwrap(ServerIdentity("192.0.2.1"))
        let ip = try XCTUnwrap(IPAddress("192.0.2.1"))
        XCTAssertEqual(ipIdentity, .ip(ip))
        XCTAssertTrue(HostnameMatcher.matches(ipIdentity, dnsNames: [], ipAddresses: [ip]))
        // An IP address in a dNSName never matches an IP identity.
        XCTAssertFalse(HostnameMatcher.matches(ipIdentity, dnsNames: ["192.0.2.1"], ipAddresses: []))
        XCTAssertFalse(
            HostnameMatcher.matches(
                ipIdentity, dnsNames: ["192.0.2.1"],
                ipAddresses: [try XCTUnwrap(IPAddress("192.0.2.2"))]))
        // The IPv4-mapped IPv6 form is a different address.
        XCTAssertFalse(
            HostnameMatcher.matches(
                ipIdentity, dnsNames: [],
                ipAddresses: [try XCTUnwrap(IPAddress("::ffff:192.0.2.1"))]))

        let v6Identity = try XCTUnwrap(ServerIdentity("[2001:DB8::1]"))
        XCTAssertTrue(
            HostnameMatcher.matches(
                v6Identity, dnsNames: [],
                ipAddresses: [try XCTUnwrap(IPAddress("2001:db8:0:0:0:0:0:1"))]))
        XCTAssertFalse(HostnameMatcher.matches(v6Identity, dnsNames: ["2001:db8::1"], ipAddresses: []))

        // A DNS identity never matches an iPAddress entry.
        let dnsIdentity = try XCTUnwrap(ServerIdentity("example.com"))
        XCTAssertFalse(HostnameMatcher.matches(dnsIdentity, dnsNames: [], ipAddresses: [ip]))
        XCTAssertTrue(HostnameMatcher.matches(dnsIdentity, dnsNames: ["other.test", "example.com"], ipAddresses: [ip]))
        XCTAssertFalse(HostnameMatcher.matches(dnsIdentity, dnsNames: [], ipAddresses: []))
    }

    func testManuallyConstructedInvalidReferences() {
        XCTAssertFalse(HostnameMatcher.matches(.dns("*.example.com"), dnsNames: ["*.example.com"], ipAddresses: []))
        XCTAssertFalse(HostnameMatcher.matches(.dns(""), dnsNames: [""], ipAddresses: []))
        XCTAssertFalse(HostnameMatcher.matches(.dns("1.2.3.4"), dnsNames: ["1.2.3.4"], ipAddresses: []))
        XCTAssertTrue(HostnameMatcher.matches(.dns("Example.COM."), dnsNames: ["example.com"], ipAddresses: []))
        // A dNSName ending in a dot never matches, not even a reference built with the same bytes
        // (Apple SecFrameworkIsDNSName): the byte-equality fast path must not let it through.
        XCTAssertFalse(HostnameMatcher.matches(.dns("example.com."), dnsNames: ["example.com."], ipAddresses: []))
        XCTAssertFalse(
            HostnameMatcher.matches(
                PreparedIdentity(.dns("example.com.")),
                subjectAlternativeNames: [.dnsName("example.com.")], publicSuffixList: .snapshot))
        XCTAssertTrue(
            HostnameMatcher.matches(
                PreparedIdentity(.dns("example.com.")),
                subjectAlternativeNames: [.dnsName("example.com")], publicSuffixList: .snapshot))
    }

    func testCommonName() throws {
        let identity = try XCTUnwrap(ServerIdentity("www.example.com"))
        XCTAssertTrue(HostnameMatcher.matchesCommonName(identity, commonNames: ["www.example.com"]))
        XCTAssertTrue(HostnameMatcher.matchesCommonName(identity, commonNames: ["Example Corp", "*.example.com"]))
        XCTAssertFalse(HostnameMatcher.matchesCommonName(identity, commonNames: ["Example Corp"]))
        XCTAssertFalse(HostnameMatcher.matchesCommonName(identity, commonNames: ["w*.example.com"]))
        XCTAssertFalse(HostnameMatcher.matchesCommonName(identity, commonNames: ["*.com"]))
        XCTAssertFalse(HostnameMatcher.matchesCommonName(identity, commonNames: []))
        // A common name is read like a dNSName: one ending in a dot never matches.
        XCTAssertFalse(HostnameMatcher.matchesCommonName(identity, commonNames: ["www.example.com."]))
        XCTAssertTrue(HostnameMatcher.matchesCommonName(try XCTUnwrap(ServerIdentity("my_host.example.com")), commonNames: ["my_host.example.com"]))

        let ipIdentity = try XCTUnwrap(ServerIdentity("192.0.2.1"))
        XCTAssertFalse(HostnameMatcher.matchesCommonName(ipIdentity, commonNames: ["192.0.2.1"]))
    }
    func testServerIdentityParsing() throws {
        let cases: [(String, ServerIdentity?)] = [
            ("www.example.com", .dns("www.example.com")),
            ("WWW.Example.com.", .dns("www.example.com")),
            ("münchen.de", .dns("xn--mnchen-3ya.de")),
            ("192.0.2.1", .ip(try XCTUnwrap(IPAddress(bytes: [192, 0, 2, 1])))),
            ("[::1]", .ip(try XCTUnwrap(IPAddress(bytes: [UInt8](repeating: 0, count: 15) + [1])))),
            ("::1", .ip(try XCTUnwrap(IPAddress(bytes: [UInt8](repeating: 0, count: 15) + [1])))),
            ("1.2.3.04", nil), // not an IP, and numeric TLD is refused as a DNS name
            ("1.2.3", nil),
            ("0x7f.1", nil),
            ("127.1", nil),
            ("[example.com]", nil),
            ("[::1", nil),
            ("fe80::1%eth0", nil),
            ("*.example.com", nil),
            ("", nil),
            ("exa mple.com", nil),
            ("example.com:443", nil),
            // Underscores in ASCII labels: Apple's SecDNSMatch does not validate the reference.
            ("_srv.internal.example", .dns("_srv.internal.example")),
            ("My_Host.Example.com.", .dns("my_host.example.com")),
            ("_.example.com", .dns("_.example.com")),
            ("_bücher.example", nil), // a non-ASCII label is IDNA's, which has no underscore
            ("a_b.xn--bcher-kva.example", .dns("a_b.xn--bcher-kva.example")),
            ("my_host..example.com", nil),
            ("foo+bar.example.com", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(ServerIdentity(text), expected, text)
        }
        XCTAssertEqual(ServerIdentity("Bücher.example")?.description, "xn--bcher-kva.example")
        XCTAssertEqual(ServerIdentity("[2001:DB8::1]")?.description, "2001:db8::1")
    }
}
