import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustSession
import TrustX509
import XCTest

/// Issue 41 item 1: each kind of identity rule on certificates made by the openssl CLI here, its
/// boundaries (one-label wildcards, `/`-bounded prefixes, IP networks, case rules), and the factories'
/// refusals.
final class IdentityRuleTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A self-signed certificate with `subject` and the subjectAltName `san` (openssl's syntax).
    private func certificate(subject: String = "/CN=workload", san: String?) throws -> Certificate {
        let name = UUID().uuidString
        let key = directory.appendingPathComponent("\(name).key").path, pem = directory.appendingPathComponent("\(name).pem").path
        let config = directory.appendingPathComponent("req.cnf").path
        try "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\n".write(toFile: config, atomically: true, encoding: .utf8)
        var arguments = [
            "req", "-x509", "-new", "-config", config, "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-nodes", "-keyout", key, "-subj", subject, "-days", "30", "-out", pem,
        ]
        if let san { arguments += ["-addext", "subjectAltName = \(san)"] }
        try OpenSSLCommand.run(arguments)
        return try XCTUnwrap(try Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: pem)))).first)
    }

    private func assert(
        _ rule: IdentityRule, allows allowed: [Certificate], refuses refused: [Certificate],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for certificate in allowed { XCTAssertTrue(rule.matches(certificate), "\(rule) refused \(certificate.subject)", file: file, line: line) }
        for certificate in refused { XCTAssertFalse(rule.matches(certificate), "\(rule) allowed \(certificate.subject)", file: file, line: line) }
    }

    func testDNSNamesAreExactOrOneLabelWildcards() throws {
        let api = try certificate(san: "DNS:API.svc.example.com."), deep = try certificate(san: "DNS:a.api.svc.example.com")
        let apex = try certificate(san: "DNS:svc.example.com"), wildcard = try certificate(san: "DNS:*.svc.example.com")
        let commonNameOnly = try certificate(subject: "/CN=api.svc.example.com", san: nil)
        assert(try .dnsName("api.svc.example.com"), allows: [api], refuses: [deep, apex, wildcard, commonNameOnly])
        assert(try .dnsName("*.svc.example.com"), allows: [api, wildcard], refuses: [deep, apex, commonNameOnly])
        // U+212A KELVIN SIGN folds to `k` under Unicode lower-casing; DNS folds ASCII only.
        let kelvin = try certificate(san: "DNS:\u{212A}.example.com")
        assert(try .dnsName("k.example.com"), allows: [], refuses: [kelvin])
        for bad in ["", "*.com", "a..b", "-a.example", "bücher.example", "a b.example", "*a.example.com", "a.*.example.com"] {
            XCTAssertThrowsError(try IdentityRule.dnsName(bad), bad) { XCTAssertEqual($0 as? IdentityRuleError, .invalidDNSName(bad)) }
        }
    }

    func testURIsAreExactOrSlashBoundedPrefixes() throws {
        let tenantA = try certificate(san: "URI:https://example.com/tenants/a"), tenants = try certificate(san: "URI:https://example.com/tenants")
        let tenantsX = try certificate(san: "URI:https://example.com/tenantsx"), query = try certificate(san: "URI:https://example.com/tenants?a")
        assert(try .uri("https://example.com/tenants"), allows: [tenants], refuses: [tenantA, tenantsX, query])
        assert(try .uri(prefix: "https://example.com/tenants"), allows: [tenants, tenantA], refuses: [tenantsX, query])
        assert(try .uri(prefix: "https://example.com/tenants/"), allows: [tenantA], refuses: [tenants, tenantsX])
        for bad in ["no-scheme", "://x", "https://a b", "1http://x"] { XCTAssertThrowsError(try IdentityRule.uri(bad), bad) }
        XCTAssertThrowsError(try IdentityRule.uri(prefix: "https://example.com/?q"))
    }

    func testSPIFFEIDsNeedTheOneURIOfAnSVIDInTheTrustDomain() throws {
        let api = try certificate(san: "URI:spiffe://example.org/ns/prod/sa/api")
        let production = try certificate(san: "URI:spiffe://example.org/ns/production")
        let otherDomain = try certificate(san: "URI:spiffe://other.example/ns/prod/sa/api")
        let twoURIs = try certificate(san: "URI:spiffe://example.org/ns/prod/sa/api, URI:https://example.org/")
        let upperCaseDomain = try certificate(san: "URI:spiffe://Example.org/ns/prod/sa/api")
        let dotSegment = try certificate(san: "URI:spiffe://example.org/ns/prod/../admin")
        assert(try .spiffeID(trustDomain: "example.org"), allows: [api, production], refuses: [otherDomain, twoURIs, upperCaseDomain, dotSegment])
        assert(try .spiffeID(trustDomain: "example.org", pathPrefix: "/ns/prod"), allows: [api], refuses: [production, twoURIs, dotSegment])
        assert(try .spiffeID("spiffe://example.org/ns/prod/sa/api"), allows: [api], refuses: [production, otherDomain, twoURIs])
        assert(try .spiffeID("spiffe://example.org/ns/prod"), allows: [], refuses: [api])
        for bad in [
            "spiffe://Example.org", "spiffe://example.org/", "spiffe://example.org//a", "spiffe://example.org/a/./b",
            "https://example.org/a", "spiffe://", "spiffe://example.org:8443/a", "spiffe://example.org/a%20b",
        ] {
            XCTAssertThrowsError(try IdentityRule.spiffeID(bad), bad) { XCTAssertEqual($0 as? IdentityRuleError, .invalidSPIFFEID(bad)) }
        }
    }

    func testIPAddressesAndNetworks() throws {
        let v4 = try certificate(san: "IP:10.1.2.3"), v6 = try certificate(san: "IP:2001:db8::1"), mapped = try certificate(san: "IP:::ffff:10.1.2.3")
        let outside = try certificate(san: "IP:11.0.0.1")
        assert(try .ipAddress("10.0.0.0/8"), allows: [v4], refuses: [v6, mapped, outside])
        assert(try .ipAddress("10.1.2.3"), allows: [v4], refuses: [mapped, outside])
        assert(try .ipAddress("2001:db8::/32"), allows: [v6], refuses: [v4, mapped])
        assert(try .ipAddress("0.0.0.0/0"), allows: [v4, outside], refuses: [v6])
        for bad in ["10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/08", "example.com", "2001:db8::1/129"] {
            XCTAssertThrowsError(try IdentityRule.ipAddress(bad), bad)
        }
    }

    func testEmailAddressesAndDomains() throws {
        let alice = try certificate(san: "email:alice@Example.COM"), upperAlice = try certificate(san: "email:Alice@example.com")
        let sub = try certificate(san: "email:alice@mail.example.com")
        assert(try .email("alice@example.com"), allows: [alice], refuses: [upperAlice, sub])
        assert(try .emailDomain("example.com"), allows: [alice, upperAlice], refuses: [sub])
        XCTAssertThrowsError(try IdentityRule.email("alice"))
    }

    func testSubjectAttributesCompareOctetForOctet() throws {
        let payments = try certificate(subject: "/O=Acme/OU=Payments/CN=svc", san: nil)
        assert(.subject(.organizationalUnit, equals: "Payments"), allows: [payments], refuses: [])
        assert(.subject(.organizationalUnit, equals: "payments"), allows: [], refuses: [payments])
        assert(.subject(.commonName, equals: "Payments"), allows: [], refuses: [payments])
        XCTAssertEqual(SubjectAttribute(name: "ou"), .organizationalUnit)
        XCTAssertEqual(SubjectAttribute(name: "2.5.4.97")?.type.dotted, "2.5.4.97")
        XCTAssertNil(SubjectAttribute(name: "XX"))
    }

    func testAnyAndAllNameTheRuleThatFailed() throws {
        let api = try certificate(subject: "/O=Acme/CN=api", san: "DNS:api.example.com, URI:spiffe://example.org/api")
        let dns = try IdentityRule.dnsName("api.example.com"), other = try IdentityRule.dnsName("other.example.com")
        let spiffe = try IdentityRule.spiffeID(trustDomain: "example.org")
        XCTAssertNil(IdentityRule.all([dns, spiffe]).refusal(of: api))
        XCTAssertEqual(IdentityRule.all([dns, other, spiffe]).refusal(of: api), other)
        XCTAssertNil(IdentityRule.any([other, dns]).refusal(of: api))
        let neither = IdentityRule.any([other, try .ipAddress("10.0.0.0/8")])
        XCTAssertEqual(neither.refusal(of: api), neither)
        XCTAssertFalse(IdentityRule.any([]).matches(api))
        XCTAssertTrue(IdentityRule.all([]).matches(api))
        XCTAssertEqual(neither.description, "any(dns other.example.com, ip 10.0.0.0/8)")
    }
}
