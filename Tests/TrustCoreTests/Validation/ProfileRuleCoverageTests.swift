import OpenSSLServerSupport
import Foundation
import TrustCore
import TrustX509
import XCTest

/// Profile rules the committed corpus has no certificate for, on certificates openssl issues in the
/// test (each one defect away from a valid chain): the profiles that apply the rule reject it, naming
/// the rule; the others accept the same chain.
final class ProfileRuleCoverageTests: XCTestCase {
    let host = "www.swifttrust.test"

    /// The profiles these tests judge TLS server chains under: every profile but spiffe, whose leaf
    /// is an X.509-SVID (a URI SAN and nothing a server leaf here has to have). Its own rules are
    /// covered on SVIDs (SPIFFE/SPIFFEProfileRuleTests); the rules it shares with rfc5280 are the same
    /// checks, keyed by rule (SPIFFEProfileRuleTests.testTheSPIFFEProfileIsRFC5280PlusTheSVIDRules).
    static let profiles = ProfileRulesTable.profiles.filter { $0 != .spiffe }

    func leafExtensions(_ extra: [String] = [], san: String? = "DNS:www.swifttrust.test", eku: String = "serverAuth") -> [String] {
        [
            "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = \(eku)",
            "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
        ] + (san.map { ["subjectAltName = \($0)"] } ?? []) + extra
    }

    func caExtensions(_ extra: [String], subjectKeyIdentifier: Bool = true) -> [String] {
        [
            "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign", "authorityKeyIdentifier = keyid",
            subjectKeyIdentifier ? "subjectKeyIdentifier = hash" : "subjectKeyIdentifier = none",
        ] + extra
    }

    /// A self-signed root's extensions: a critical CA with keyCertSign, a subjectKeyIdentifier
    /// unless told otherwise, and `extra`.
    static func rootExtensions(_ extra: [String] = [], subjectKeyIdentifier: Bool = true) -> [String] {
        [
            "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
            subjectKeyIdentifier ? "subjectKeyIdentifier = hash" : "subjectKeyIdentifier = none",
        ] + extra
    }

    /// A CA with `extensions` issued by the committed ECDSA root (on the committed intermediate2
    /// key), and a TLS server leaf under it with `leafLines` (default: ``leafExtensions(_:san:eku:)``).
    func caAndLeaf(
        _ issuer: inout OpenSSLIssuer, commonName: String?, extensions: [String],
        leafLines: [String]? = nil
    ) throws -> (ca: Certificate, leaf: Certificate) {
        let ca = try issuer.issue(commonName: commonName, extensions: extensions, by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(commonName: host, extensions: leafLines ?? leafExtensions(), by: ca.authority).certificate
        return (ca.certificate, leaf)
    }

    /// A self-signed root with `extensions` (on the committed ECDSA root key), valid for `days`, with
    /// `serial` if given, and a TLS server leaf under it whose authorityKeyIdentifier is
    /// `leafAuthorityKeyIdentifier` (openssl syntax).
    func rootAndLeaf(
        _ issuer: inout OpenSSLIssuer, extensions: [String], days: Int = 30, serial: String? = nil,
        leafAuthorityKeyIdentifier: String = "keyid"
    ) throws -> (root: Certificate, leaf: Certificate) {
        let root = try issuer.issue(
            commonName: "Generated Root", extensions: extensions, by: nil,
            key: "keys/ecdsa/root.key.pem", serial: serial, days: days)
        let leafLines = leafExtensions().map {
            $0.hasPrefix("authorityKeyIdentifier") ? "authorityKeyIdentifier = \(leafAuthorityKeyIdentifier)" : $0
        }
        let leaf = try issuer.issue(commonName: host, extensions: leafLines, by: root.authority).certificate
        return (root.certificate, leaf)
    }

    /// Evaluates `leaf` (under `intermediates`, anchored at `anchors`; defaults: the committed ECDSA
    /// intermediate and root) with each profile for `purpose` and `hostname`, and checks which name
    /// `rule`: exactly the profiles that apply it reject the chain for it. `companions` are rules the
    /// same defect cannot help breaking too (an RSA key under 1024 bits is also not a web-PKI key
    /// algorithm): each profile must report exactly those of `rule` and `companions` it applies, no
    /// other failure, and trust the chain when it applies none. With `detail`, the violation of
    /// `rule` carries that detail (e.g. the key size).
    func assertRule(
        _ rule: ProfileRule, alsoBreaking companions: Set<ProfileRule> = [], detail: ProfileViolationDetail? = nil,
        leaf: Certificate, intermediates: [Certificate]? = nil, anchors: [Certificate]? = nil,
        purpose: KeyPurpose = .serverAuth, hostname: String? = "www.swifttrust.test",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try assertRule(rule, alsoBreaking: companions, detail: detail, file: file, line: line) { profile in
            try OpenSSLIssuer.trust(
                leaf, intermediates: intermediates, anchors: anchors,
                policies: [.profile(profile, purpose: purpose, hostname: hostname)]
            ).evaluate()
        }
    }

    /// ``assertRule(_:alsoBreaking:detail:leaf:intermediates:anchors:purpose:hostname:file:line:)``
    /// on the evaluations `evaluate` makes under each profile.
    func assertRule(
        _ rule: ProfileRule, alsoBreaking companions: Set<ProfileRule> = [], detail: ProfileViolationDetail? = nil,
        file: StaticString = #filePath, line: UInt = #line,
        evaluate: (TrustProfile) throws -> TrustEvaluation
    ) throws {
        for profile in ProfileRuleCoverageTests.profiles {
            let evaluation = try evaluate(profile)
            let expected = Set(([rule] + companions).filter(profile.rules.contains))
            XCTAssertEqual(Set(evaluation.violatedRules), expected, "\(profile): \(evaluation)", file: file, line: line)
            XCTAssertEqual(evaluation.isTrusted, expected.isEmpty, "\(profile): \(evaluation)", file: file, line: line)
            XCTAssertEqual(
                failureSummary(evaluation).filter { !$0.hasSuffix(":profileViolation") }, [],
                "\(profile): \(evaluation)", file: file, line: line)
            if let detail, expected.contains(rule) {
                let details = evaluation.failures.compactMap { failure -> ProfileViolationDetail? in
                    guard case let .profileViolation(violation) = failure.reason, violation.rule == rule else { return nil }
                    return violation.detail
                }
                XCTAssertTrue(details.contains(detail), "\(profile): \(details)", file: file, line: line)
            }
        }
    }

    /// For rules reported as an RFC 5280 failure reason rather than a ``ProfileViolation`` (a CA's
    /// extendedKeyUsage, an anchor's validity, CA flags and critical extensions): the profiles that
    /// apply `rule` report exactly `failures` (``failureSummary(_:)``), the others trust the chain.
    /// Evaluated at `verifyDate` (default: now).
    func assertRule(
        _ rule: ProfileRule, reportedAs failures: [String], leaf: Certificate,
        intermediates: [Certificate]? = nil, anchors: [Certificate]? = nil, verifyDate: Date? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for profile in ProfileRuleCoverageTests.profiles {
            let trust = try OpenSSLIssuer.trust(
                leaf, intermediates: intermediates, anchors: anchors,
                policies: [.profile(profile, purpose: .serverAuth, hostname: host)])
            if let verifyDate { trust.verifyDate = verifyDate }
            let evaluation = trust.evaluate()
            let expected = profile.rules.contains(rule) ? failures : []
            XCTAssertEqual(failureSummary(evaluation), expected, "\(profile): \(evaluation)", file: file, line: line)
        }
    }

    /// The boundary a rule deliberately leaves open: every profile trusts the chain.
    func assertTrustedUnderEveryProfile(
        leaf: Certificate, intermediates: [Certificate]? = nil, anchors: [Certificate]? = nil,
        purpose: KeyPurpose = .serverAuth, hostname: String? = "www.swifttrust.test",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for profile in ProfileRuleCoverageTests.profiles {
            let evaluation = try OpenSSLIssuer.trust(
                leaf, intermediates: intermediates, anchors: anchors,
                policies: [.profile(profile, purpose: purpose, hostname: hostname)]
            ).evaluate()
            XCTAssertTrue(evaluation.isTrusted, "\(profile): \(evaluation)", file: file, line: line)
        }
    }

    func testAuthorityInfoAccessMustNotBeCritical() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(
            commonName: host,
            extensions: leafExtensions(
                ["authorityInfoAccess = critical, OCSP;URI:http://ocsp.swifttrust.test"])
        ).certificate
        try assertRule(.authorityInfoAccessNonCritical, leaf: leaf)
    }

    func testSubjectAltNameIsNotCriticalWithASubject() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(san: "critical, DNS:www.swifttrust.test")).certificate
        try assertRule(.subjectAltNameCriticality, leaf: leaf)
    }

    func testNameConstraintsOnlyInCACertificates() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(
            commonName: host,
            extensions: leafExtensions(
                ["nameConstraints = critical, permitted;DNS:swifttrust.test"])
        ).certificate
        try assertRule(.nameConstraintsInCAOnly, leaf: leaf)
    }

    func testPathLenConstraintOnlyWithCA() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // basicConstraints SEQUENCE { pathLenConstraint 0 }: cA omitted (FALSE) but a path length
        // given, which RFC 5280 §4.2.1.9 forbids and Apple's SecCEPBasicConstraints reads anyway.
        let leaf = try issuer.issue(
            commonName: host,
            extensions: leafExtensions().map {
                $0.hasPrefix("basicConstraints") ? "basicConstraints = critical, DER:30:03:02:01:00" : $0
            }
        ).certificate
        XCTAssertFalse(leaf.isCA)
        XCTAssertEqual(leaf.extensions.basicConstraints?.pathLengthConstraint, 0)
        XCTAssertEqual(leaf.encodingFindings, [])
        try assertRule(.pathLenConstraintInCAOnly, detail: .pathLenConstraintWithoutCA(pathLength: 0), leaf: leaf)
        // Apple's SSL policy trusts it, and so does the ssl profile.
        assertTrusted(try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: true, hostname: host)]).evaluate())
        // The boundary: a CA with a path length (cA asserted) breaks no rule.
        let (ca, below) = try caAndLeaf(
            &issuer, commonName: "PathLen 0 CA",
            extensions: caExtensions([]).map {
                $0.hasPrefix("basicConstraints") ? "basicConstraints = critical, CA:TRUE, pathlen:0" : $0
            })
        XCTAssertEqual(ca.extensions.basicConstraints?.pathLengthConstraint, 0)
        try assertTrustedUnderEveryProfile(leaf: below, intermediates: [ca])
    }

    func testIntermediateWithoutSubjectKeyIdentifier() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let (ca, leaf) = try caAndLeaf(
            &issuer, commonName: "No SKI CA", extensions: caExtensions([], subjectKeyIdentifier: false),
            leafLines: leafExtensions().filter { !$0.hasPrefix("authorityKeyIdentifier") })
        try assertRule(.subjectKeyIdentifier, leaf: leaf, intermediates: [ca])
    }

    func testNonCriticalNameConstraintsUnderStrictRFC5280Only() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let (ca, leaf) = try caAndLeaf(
            &issuer, commonName: "Non-critical NC CA",
            extensions: caExtensions(["nameConstraints = permitted;DNS:swifttrust.test"]))
        try assertRule(.nameConstraintsCritical, leaf: leaf, intermediates: [ca])
    }

    func testCARestrictedToAnotherPurpose() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let (ca, leaf) = try caAndLeaf(&issuer, commonName: "Client-only CA", extensions: caExtensions(["extendedKeyUsage = clientAuth"]))
        // As an intermediate: Apple (sub-CA EKUs) and the web PKI chain EKUs; RFC 5280 does not.
        try assertRule(.issuerExtendedKeyUsage, reportedAs: ["1:extendedKeyUsageIncompatible"], leaf: leaf, intermediates: [ca])
        // The same CA trusted directly (cross-signed, so no self-signed root rule applies): only the
        // web PKI holds an anchor to its extendedKeyUsage.
        try assertRule(
            .anchorExtendedKeyUsage, reportedAs: ["1:extendedKeyUsageIncompatible"], leaf: leaf, intermediates: [],
            anchors: [ca])
    }

    func testSubjectAltNameSyntax() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Each beside the name the host check uses, so only the malformed entry is wrong.
        let cases: [(String, ProfileViolationDetail)] = [
            ("DNS:192.0.2.1", .ipAddressAsDNSName("192.0.2.1")), ("DNS:www..swifttrust.test", .invalidDNSName("www..swifttrust.test")),
            ("email:user name@swifttrust.test", .invalidMailbox("user name@swifttrust.test")),
        ]
        for (entry, detail) in cases {
            let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(san: "DNS:www.swifttrust.test, \(entry)"))
            try assertRule(.subjectAltNameSyntax, detail: detail, leaf: leaf.certificate)
        }
    }
}
