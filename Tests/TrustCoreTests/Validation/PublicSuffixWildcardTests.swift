import OpenSSLServerSupport
import Foundation
import XCTest
@testable import TrustCore
import TrustX509

/// The wildcard rule on real certificates issued by openssl: `*.REST` never matches when REST is a
/// public suffix (CABF BR §3.2.2.6), with the shipped list or one the caller supplies.
final class PublicSuffixWildcardTests: XCTestCase {
    private var issuer: OpenSSLIssuer!

    override func setUpWithError() throws { issuer = try OpenSSLIssuer() }
    override func tearDown() { issuer?.remove() }

    private func wildcardLeaf(_ pattern: String) throws -> Certificate {
        try issuer.issue(commonName: pattern, extensions: OpenSSLIssuer.leafExtensions(subjectAltNames: ["DNS:\(pattern)"])).certificate
    }

    func testAWildcardOverAPublicSuffixMatchesNothing() throws {
        let leaf = try wildcardLeaf("*.co.uk")
        let evaluation = try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: true, hostname: "example.co.uk")]).evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
        XCTAssertEqual(evaluation.failures.first?.reason, .hostnameMismatch(expected: "example.co.uk", presented: ["DNS:*.co.uk"]))
        // The same chain without a host name is fine: only the match is refused.
        assertTrusted(try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: true, hostname: nil)]).evaluate())
    }

    func testAWildcardUnderARegistrableDomainMatches() throws {
        let leaf = try wildcardLeaf("*.example.co.uk")
        assertTrusted(try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: true, hostname: "www.example.co.uk")]).evaluate())
    }

    /// Wildcard and exception rules of the list: `*.kobe.jp` makes `c.kobe.jp` public, `!city.kobe.jp` does not.
    func testWildcardAndExceptionRules() throws {
        let underWildcardRule = try wildcardLeaf("*.c.kobe.jp")
        assertNotTrusted(
            try OpenSSLIssuer.trust(underWildcardRule, policies: [.ssl(server: true, hostname: "a.c.kobe.jp")]).evaluate(),
            .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
        let underException = try wildcardLeaf("*.city.kobe.jp")
        assertTrusted(try OpenSSLIssuer.trust(underException, policies: [.ssl(server: true, hostname: "www.city.kobe.jp")]).evaluate())
    }

    /// Private registries' suffixes are consulted only on request: by default a bucket host matches
    /// `*.s3.amazonaws.com` (the certificate S3 serves), with the private section it does not.
    func testThePrivateSectionIsConsultedOnRequest() throws {
        let leaf = try wildcardLeaf("*.s3.amazonaws.com")
        let trust = try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: true, hostname: "bucket.s3.amazonaws.com")])
        XCTAssertEqual(trust.options.publicSuffixList.consultedSections, .icann)
        assertTrusted(trust.evaluate())
        var list = PublicSuffixList.snapshot
        list.consultedSections = .all
        trust.options.publicSuffixList = list
        assertNotTrusted(trust.evaluate(), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
    }

    /// A list loaded from a file replaces the shipped one (e.g. a newer copy, or a private PKI's own suffixes).
    func testASuppliedListReplacesTheSnapshot() throws {
        let leaf = try wildcardLeaf("*.corp.example")
        let trust = try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: true, hostname: "a.corp.example")])
        assertTrusted(trust.evaluate())
        let file = issuer.directory.appendingPathComponent("suffixes.dat")
        try "// ===BEGIN ICANN DOMAINS===\ncorp.example\n// ===END ICANN DOMAINS===\n".write(to: file, atomically: true, encoding: .utf8)
        trust.options.publicSuffixList = try PublicSuffixList(contentsOf: file.path)
        assertNotTrusted(trust.evaluate(), .recoverableTrustFailure, failures: ["0:hostnameMismatch"])
    }
}
