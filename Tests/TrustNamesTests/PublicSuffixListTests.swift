import Foundation
import XCTest
@testable import TrustNames

final class PublicSuffixListTests: XCTestCase {
    /// publicsuffix.org's own test vectors (tests/test_psl.txt, `checkPublicSuffix(domain,
    /// registrableDomain)`), on the shipped list with both sections (as the vectors assume:
    /// `uk.com` is a private rule); IDN expectations in A-label form.
    func testRegistrableDomainsOfTheOfficialTestVectors() {
        let cases: [(domain: String, registrable: String?, line: UInt)] = [
            // Mixed case.
            ("COM", nil, #line), ("example.COM", "example.com", #line), ("WwW.example.COM", "example.com", #line),
            // Leading dot.
            (".com", nil, #line), (".example", nil, #line), (".example.com", nil, #line), (".example.example", nil, #line),
            // Unlisted TLD: the implicit rule "*".
            ("example", nil, #line), ("example.example", "example.example", #line),
            ("b.example.example", "example.example", #line), ("a.b.example.example", "example.example", #line),
            // TLD with only one rule.
            ("biz", nil, #line), ("domain.biz", "domain.biz", #line), ("b.domain.biz", "domain.biz", #line),
            ("a.b.domain.biz", "domain.biz", #line),
            // TLD with some two-level rules.
            ("com", nil, #line), ("example.com", "example.com", #line), ("b.example.com", "example.com", #line),
            ("a.b.example.com", "example.com", #line), ("uk.com", nil, #line), ("example.uk.com", "example.uk.com", #line),
            ("b.example.uk.com", "example.uk.com", #line), ("a.b.example.uk.com", "example.uk.com", #line),
            ("test.ac", "test.ac", #line),
            // TLD with only one (wildcard) rule.
            ("mm", nil, #line), ("c.mm", nil, #line), ("b.c.mm", "b.c.mm", #line), ("a.b.c.mm", "b.c.mm", #line),
            // More complex TLD.
            ("jp", nil, #line), ("test.jp", "test.jp", #line), ("www.test.jp", "test.jp", #line), ("ac.jp", nil, #line),
            ("test.ac.jp", "test.ac.jp", #line), ("www.test.ac.jp", "test.ac.jp", #line), ("kyoto.jp", nil, #line),
            ("test.kyoto.jp", "test.kyoto.jp", #line), ("ide.kyoto.jp", nil, #line), ("b.ide.kyoto.jp", "b.ide.kyoto.jp", #line),
            ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp", #line), ("c.kobe.jp", nil, #line), ("b.c.kobe.jp", "b.c.kobe.jp", #line),
            ("a.b.c.kobe.jp", "b.c.kobe.jp", #line), ("city.kobe.jp", "city.kobe.jp", #line),
            ("www.city.kobe.jp", "city.kobe.jp", #line),
            // TLD with a wildcard rule and exceptions.
            ("ck", nil, #line), ("test.ck", nil, #line), ("b.test.ck", "b.test.ck", #line), ("a.b.test.ck", "b.test.ck", #line),
            ("www.ck", "www.ck", #line), ("www.www.ck", "www.ck", #line),
            // US K12.
            ("us", nil, #line), ("test.us", "test.us", #line), ("www.test.us", "test.us", #line), ("ak.us", nil, #line),
            ("test.ak.us", "test.ak.us", #line), ("www.test.ak.us", "test.ak.us", #line), ("k12.ak.us", nil, #line),
            ("test.k12.ak.us", "test.k12.ak.us", #line), ("www.test.k12.ak.us", "test.k12.ak.us", #line),
            // IDN labels (rules written as U-labels in the list), answered in A-label form.
            ("食狮.com.cn", "xn--85x722f.com.cn", #line), ("食狮.公司.cn", "xn--85x722f.xn--55qx5d.cn", #line),
            ("www.食狮.公司.cn", "xn--85x722f.xn--55qx5d.cn", #line), ("shishi.公司.cn", "shishi.xn--55qx5d.cn", #line),
            ("公司.cn", nil, #line), ("食狮.中国", "xn--85x722f.xn--fiqs8s", #line),
            ("www.食狮.中国", "xn--85x722f.xn--fiqs8s", #line), ("shishi.中国", "shishi.xn--fiqs8s", #line), ("中国", nil, #line),
            // The same, punycoded.
            ("xn--85x722f.com.cn", "xn--85x722f.com.cn", #line), ("xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn", #line),
            ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn", #line),
            ("shishi.xn--55qx5d.cn", "shishi.xn--55qx5d.cn", #line), ("xn--55qx5d.cn", nil, #line),
            ("xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s", #line),
            ("www.xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s", #line),
            ("shishi.xn--fiqs8s", "shishi.xn--fiqs8s", #line), ("xn--fiqs8s", nil, #line),
        ]
        var list = PublicSuffixList.snapshot
        list.consultedSections = .all
        for testCase in cases {
            XCTAssertEqual(list.registrableDomain(of: testCase.domain), testCase.registrable, testCase.domain, line: testCase.line)
        }
    }

    func testPublicSuffixesAndTheirSections() {
        let icann = PublicSuffixList.snapshot
        XCTAssertEqual(icann.consultedSections, .icann)
        XCTAssertEqual(icann.publicSuffix(of: "www.example.co.uk"), "co.uk")
        XCTAssertTrue(icann.isPublicSuffix("co.uk"))
        XCTAssertFalse(icann.isPublicSuffix("example.co.uk"))
        XCTAssertEqual(icann.publicSuffix(of: "192.0.2.1"), nil, "an IP address is not a domain")
        // A private registry's suffix counts only when the private section is consulted.
        XCTAssertFalse(icann.isPublicSuffix("s3.amazonaws.com"))
        XCTAssertEqual(icann.registrableDomain(of: "bucket.s3.amazonaws.com"), "amazonaws.com")
        var both = icann
        both.consultedSections = .all
        XCTAssertTrue(both.isPublicSuffix("s3.amazonaws.com"))
        XCTAssertEqual(both.registrableDomain(of: "bucket.s3.amazonaws.com"), "bucket.s3.amazonaws.com")
        XCTAssertTrue(both.isPublicSuffix("co.uk"))
        var privateOnly = icann
        privateOnly.consultedSections = .privateDomains
        XCTAssertFalse(privateOnly.isPublicSuffix("co.uk"), "co.uk is an ICANN rule")
    }

    /// The shipped text parses completely: every rule line is one rule (the fail-closed fallback,
    /// which holds no rule, is never what `snapshot` is).
    func testSnapshotParsesEveryRule() {
        let ruleLines = PublicSuffixListSnapshot.text.split(separator: "\n").filter { !$0.hasPrefix("//") }
        XCTAssertGreaterThan(ruleLines.count, 5000)
        XCTAssertEqual(PublicSuffixList.snapshot.ruleCount, ruleLines.count)
        XCTAssertFalse(PublicSuffixList.snapshotVersion.isEmpty)
    }

    /// Every plain rule of the snapshot (no wildcard, no exception) is itself a public suffix once
    /// parsed, in its A-label form: no rule is lost or mangled by how the list is cut into labels.
    func testEverySnapshotRuleIsAPublicSuffix() throws {
        let list = try PublicSuffixList(parsing: PublicSuffixListSnapshot.text, consultedSections: .all)
        var checked = 0
        for line in PublicSuffixListSnapshot.text.split(separator: "\n") {
            let rule = String(line.prefix { !$0.isWhitespace })
            guard !rule.isEmpty, !rule.hasPrefix("//"), !rule.hasPrefix("!"), !rule.contains("*") else { continue }
            let ascii = try XCTUnwrap(IDNA.toASCII(rule), rule)
            XCTAssertTrue(list.isPublicSuffix(ascii), rule)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 5000)
    }

    func testParsingTheFormat() throws {
        let text = """
            // A comment line, then rules; text after white space is ignored.
            example   anything after the rule
            *.wild.example
            !keep.wild.example
            公司.example

            // ===BEGIN PRIVATE DOMAINS===
            hosting.example
            // ===END PRIVATE DOMAINS===
            """
        let list = try PublicSuffixList(parsing: text)
        XCTAssertEqual(list.ruleCount, 5)
        XCTAssertTrue(list.isPublicSuffix("example"))
        XCTAssertTrue(list.isPublicSuffix("anything.wild.example"))
        XCTAssertFalse(list.isPublicSuffix("keep.wild.example"), "an exception rule")
        XCTAssertEqual(list.registrableDomain(of: "www.keep.wild.example"), "keep.wild.example")
        XCTAssertTrue(list.isPublicSuffix("xn--55qx5d.example"), "U-label rules are compared in A-label form")
        XCTAssertFalse(list.isPublicSuffix("hosting.example"), "private rules are not consulted by default")
        XCTAssertTrue(try PublicSuffixList(parsing: text, consultedSections: .all).isPublicSuffix("hosting.example"))
        // Unsectioned rules are always consulted, whatever the sections.
        XCTAssertTrue(try PublicSuffixList(parsing: text, consultedSections: .privateDomains).isPublicSuffix("example"))
    }

    func testAWildcardMayStandForAnyLabelOfARule() throws {
        let list = try PublicSuffixList(parsing: "zone.*.example\n")
        XCTAssertTrue(list.isPublicSuffix("zone.region1.example"))
        XCTAssertFalse(list.isPublicSuffix("other.region1.example"))
    }

    func testInvalidListsAreRejected() {
        let cases: [(text: String, error: PublicSuffixListError, line: UInt)] = [
            ("com\nbad..rule\n", .invalidRule(line: 2, rule: "bad..rule"), #line),
            ("!ck\n", .invalidRule(line: 1, rule: "!ck"), #line),
            ("!*.ck\n", .invalidRule(line: 1, rule: "!*.ck"), #line),
            (".com\n", .invalidRule(line: 1, rule: ".com"), #line),
            ("under_score.com\n", .invalidRule(line: 1, rule: "under_score.com"), #line),
            ("// only comments\n\n", .noRules, #line),
            ("", .noRules, #line),
        ]
        for testCase in cases {
            XCTAssertThrowsError(try PublicSuffixList(parsing: testCase.text), line: testCase.line) { error in
                XCTAssertEqual(error as? PublicSuffixListError, testCase.error, line: testCase.line)
            }
        }
        XCTAssertEqual(PublicSuffixListError.invalidRule(line: 2, rule: "x..y").description, "line 2: \"x..y\" is not a public suffix rule")
    }

    func testLoadingAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(UUID().uuidString).dat")
        defer { try? FileManager.default.removeItem(at: url) }
        try "corp.example\n".write(to: url, atomically: true, encoding: .utf8)
        let list = try PublicSuffixList(contentsOf: url.path)
        XCTAssertTrue(list.isPublicSuffix("corp.example"))
        XCTAssertThrowsError(try PublicSuffixList(contentsOf: url.path + ".missing")) { error in
            XCTAssertEqual(error as? PublicSuffixListError, .unreadable(path: url.path + ".missing"))
        }
    }

    /// Debian's `publicsuffix` package (installed by scripts/bootstrap) is the full upstream format,
    /// comments included: it loads and answers as the list prescribes.
    func testDebiansListLoads() throws {
        let path = "/usr/share/publicsuffix/public_suffix_list.dat"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("Debian's publicsuffix package is not installed") }
        let list = try PublicSuffixList(contentsOf: path, consultedSections: .all)
        XCTAssertTrue(list.isPublicSuffix("co.uk"))
        XCTAssertTrue(list.isPublicSuffix("s3.amazonaws.com"))
        XCTAssertEqual(list.registrableDomain(of: "www.city.kobe.jp"), "city.kobe.jp")
    }
}
