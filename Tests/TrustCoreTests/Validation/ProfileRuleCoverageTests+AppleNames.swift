import Foundation
@testable import TrustCore
@testable import TrustDiagnostics
import TrustX509
import OpenSSLServerSupport
import TrustTestSupport
import XCTest

/// Issue 32, on certificates openssl issues in the test: DEFAULT values written out (read as Apple's
/// SecCertificateParse reads them, refused by the strict profiles), name constraints as Apple's
/// nameconstraints.c and SecPolicyCheckBasicCertificateProcessing read them, and host names as
/// Apple's SecFrameworkIsDNSName and SecDNSMatch match them.
extension ProfileRuleCoverageTests {
    // MARK: DEFAULT values written out (ProfileRule.derDefaultOmitted)

    /// ``leafExtensions(_:san:eku:)`` with basicConstraints written as `value` (openssl syntax).
    func leafExtensions(basicConstraints value: String) -> [String] {
        leafExtensions().map { $0.hasPrefix("basicConstraints") ? "basicConstraints = \(value)" : $0 }
    }

    func testExplicitCAFalseIsReadAsOmittedExceptByTheStrictProfiles() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // SEQUENCE { BOOLEAN FALSE }: what Apple's SecCEPBasicConstraints reads with DERParseBooleanWithDefault.
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(basicConstraints: "critical, DER:30:03:01:01:00"))
            .certificate
        XCTAssertFalse(leaf.isCA)
        guard leaf.encodingFindings.count == 1, case .explicitCAFalse = leaf.encodingFindings[0] else {
            return XCTFail("\(leaf.encodingFindings)")
        }
        XCTAssertEqual(leaf.semanticDefects, [])
        try assertRule(.derDefaultOmitted, detail: .explicitDefaultValue(leaf.encodingFindings[0]), leaf: leaf)
    }

    func testExplicitCAFalseOnAnIntermediateMakesItNoCA() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // cA FALSE written out is still FALSE: the certificate cannot issue, under every profile.
        let (ca, leaf) = try caAndLeaf(
            &issuer, commonName: "Not a CA",
            extensions: caExtensions([]).map {
                $0.hasPrefix("basicConstraints") ? "basicConstraints = critical, DER:30:03:01:01:00" : $0
            })
        XCTAssertFalse(ca.isCA)
        XCTAssertEqual(ca.encodingFindings.count, 1)
        for profile in ProfileRuleCoverageTests.profiles {
            let evaluation = try OpenSSLIssuer.trust(leaf, intermediates: [ca], policies: [.profile(profile, purpose: .serverAuth, hostname: host)])
                .evaluate()
            XCTAssertTrue(failureSummary(evaluation).contains("1:notCA"), "\(profile): \(evaluation)")
        }
    }

    func testNonDERBooleanStaysRefused() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // BOOLEAN 0x01: BER, not DER. Apple's DERParseBoolean refuses it too (only 0x00 and 0xFF).
        XCTAssertThrowsError(try issuer.issue(commonName: host, extensions: leafExtensions(basicConstraints: "critical, DER:30:03:01:01:01"))) {
            error in
            guard let error = error as? X509Error, case .malformedExtension(name: "basicConstraints", _, _) = error.reason else {
                return XCTFail("\(error)")
            }
        }
    }

    func testExplicitSubtreeMinimumZeroIsReadAsOmittedExceptByTheStrictProfiles() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // permitted [0] { SEQUENCE { dNSName "swifttrust.test", minimum [0] 0 } }: Apple's
        // parseGeneralSubtrees accepts an explicit minimum 0.
        let (ca, leaf) = try caAndLeaf(
            &issuer, commonName: "Minimum 0 CA",
            extensions: caExtensions([
                "nameConstraints = critical, DER:30:18:a0:16:30:14:82:0f:" + Self.hex("swifttrust.test") + ":80:01:00"
            ]))
        XCTAssertEqual(ca.extensions.nameConstraints?.permittedSubtrees, [.dnsName("swifttrust.test")])
        guard ca.encodingFindings.count == 1, case .explicitSubtreeMinimumZero = ca.encodingFindings[0] else {
            return XCTFail("\(ca.encodingFindings)")
        }
        try assertRule(.derDefaultOmitted, detail: .explicitDefaultValue(ca.encodingFindings[0]), leaf: leaf, intermediates: [ca])
        // The constraint still constrains: a leaf outside it fails under every profile.
        try assertOutsideConstraints("www.other.test", under: ca, &issuer)
    }

    func testExplicitSubtreeMinimumOtherThanZeroOrAMaximumStaysRefused() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // minimum 1, and maximum 0: RFC 5280 §4.2.1.10; Apple's parseGeneralSubtrees refuses both.
        for field in ["80:01:01", "81:01:00"] {
            let extensions = caExtensions(["nameConstraints = critical, DER:30:18:a0:16:30:14:82:0f:" + Self.hex("swifttrust.test") + ":" + field])
            XCTAssertThrowsError(
                try issuer.issue(
                    commonName: "Bad subtree CA", extensions: extensions, by: .root,
                    key: "keys/ecdsa/intermediate2.key.pem"), field
            ) { error in
                guard let error = error as? X509Error, case .malformedExtension(name: "nameConstraints", _, _) = error.reason else {
                    return XCTFail("\(error)")
                }
            }
        }
    }

    func testExplicitCriticalFalseIsReadAsOmittedExceptByTheStrictProfiles() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // openssl never writes critical FALSE (its template omits the DEFAULT), so the leaf it issues
        // gets one inserted in its subjectAltName and is signed again with the intermediate's key by
        // `openssl dgst`. Apple's SecCertificateParse reads it with DERParseBooleanWithDefault.
        let issued = try issuer.issue(commonName: host, extensions: leafExtensions()).certificate
        let leaf = try Self.resigned(issued, keyPath: "keys/ecdsa/intermediate.key.pem") { extensions in
            let san = RevocationTLV.oid("2.5.29.17")
            guard let index = extensions.firstIndex(where: { $0.children.first == san }) else { return XCTFail("no subjectAltName") }
            extensions[index].children.insert(.primitive(0x01, [0x00]), at: 1)
        }
        XCTAssertEqual(leaf.extensions.criticality(of: .subjectAltName), false)
        XCTAssertEqual(leaf.dnsNames, [host])
        guard leaf.encodingFindings.count == 1, case .explicitCriticalFalse("subjectAltName", _) = leaf.encodingFindings[0] else {
            return XCTFail("\(leaf.encodingFindings)")
        }
        try assertRule(.derDefaultOmitted, detail: .explicitDefaultValue(leaf.encodingFindings[0]), leaf: leaf)
        // OpenSSL reads the certificate too.
        let text = try OpenSSLVerifyDifferentialTests.run(
            XCTUnwrap(OpenSSLVerifyDifferentialTests.opensslPath),
            ["x509", "-noout", "-subject", "-in", try Self.write(leaf, in: issuer)])
        XCTAssertEqual(text.status, 0, text.output)
    }

    func testEncodingFindingsAreShownByChainDiagnostics() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(basicConstraints: "critical, DER:30:03:01:01:00"))
            .certificate
        for (profile, severity) in [(TrustProfile.ssl, "warning"), (.webPKI, "error")] {
            let trust = try OpenSSLIssuer.trust(leaf, policies: [.profile(profile, purpose: .serverAuth, hostname: host)])
            let findings = ChainDiagnostics(trust: trust, host: host, verifyDate: Date()).findings
            let finding = findings.first { $0.code == "der-default-written" }
            XCTAssertEqual(finding?.severity, severity, "\(profile)")
            XCTAssertEqual(finding?.certificateIndex, 0)
            XCTAssertTrue(finding?.message.contains("cA FALSE") == true, finding?.message ?? "none")
        }
        // None for a certificate without such values.
        let plain = try issuer.issue(commonName: host, extensions: leafExtensions()).certificate
        let trust = try OpenSSLIssuer.trust(plain, policies: [.ssl(server: true, hostname: host)])
        XCTAssertFalse(ChainDiagnostics(trust: trust, host: host, verifyDate: Date()).findings.contains { $0.code == "der-default-written" })
    }

    // MARK: Name constraints (nameconstraints.c, SecPolicyCheckBasicCertificateProcessing)

    func testLeadingPeriodDNSNameConstraintMeansProperSubdomains() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Apple SecDNSNameConstraintsMatch, OpenSSL nc_dns and Go read `.swifttrust.test` as the
        // proper subdomains of swifttrust.test; RFC 5280 §4.2.1.10 has no such DNS syntax, so the
        // strict profiles refuse the constraint (x509-limbo rfc5280::nc::invalid-dnsname-leading-period).
        let (ca, leaf) = try caAndLeaf(
            &issuer, commonName: "Leading-dot CA",
            extensions: caExtensions(["nameConstraints = critical, permitted;DNS:.swifttrust.test"]))
        try assertRule(.nameConstraintsDNSNameSyntax, detail: .invalidDNSNameConstraint(".swifttrust.test"), leaf: leaf, intermediates: [ca])
        // The domain itself is not a proper subdomain: outside the permitted subtree everywhere.
        try assertOutsideConstraints("swifttrust.test", under: ca, &issuer)
    }

    func testUnderscoreInADNSNameConstraint() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Apple, OpenSSL and Go all accept an underscore in a DNS constraint; the strict profiles
        // hold the base to preferred name syntax.
        let constraints = "nameConstraints = critical, permitted;DNS:swifttrust.test, excluded;DNS:bad_zone.swifttrust.test"
        let (ca, leaf) = try caAndLeaf(&issuer, commonName: "Underscore CA", extensions: caExtensions([constraints]))
        try assertRule(
            .nameConstraintsDNSNameSyntax, detail: .invalidDNSNameConstraint("bad_zone.swifttrust.test"), leaf: leaf,
            intermediates: [ca])
        // And it excludes: a name inside it fails under ssl (the profile that accepts the constraint).
        let authority = try Self.authority(ca, in: issuer)
        let excluded = try issuer.issue(
            commonName: host, extensions: leafExtensions(san: "DNS:www.swifttrust.test, DNS:a.bad_zone.swifttrust.test"),
            by: authority
        ).certificate
        let evaluation = try OpenSSLIssuer.trust(excluded, intermediates: [ca], policies: [.ssl(server: true, hostname: host)]).evaluate()
        XCTAssertEqual(failureSummary(evaluation), ["0:nameConstraintViolation"], "\(evaluation)")
    }

    func testWildcardDNSNameConstraintStaysMalformed() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Decided stricter than Apple, OpenSSL and Go (see NameConstraintChecker.isValidDNSConstraint):
        // read literally, an excluded `*.swifttrust.test` would exclude no host name.
        let (ca, leaf) = try caAndLeaf(
            &issuer, commonName: "Wildcard CA",
            extensions: caExtensions(["nameConstraints = critical, excluded;DNS:*.swifttrust.test"]))
        for profile in ProfileRuleCoverageTests.profiles {
            let evaluation = try OpenSSLIssuer.trust(leaf, intermediates: [ca], policies: [.profile(profile, purpose: .serverAuth, hostname: host)])
                .evaluate()
            XCTAssertTrue(failureSummary(evaluation).contains("1:nameConstraintMalformed"), "\(profile): \(evaluation)")
            XCTAssertTrue(evaluation.failures.contains { $0.reason == .nameConstraintMalformed(.dnsName("*.swifttrust.test")) }, "\(evaluation)")
            XCTAssertFalse(evaluation.isTrusted)
        }
    }

    func testCriticalNameConstraintsWithAFormThatCannotBeChecked() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Apple fails the chain (SecNameConstraintsAreSubtreesSupported, SecPolicyServer.c:1410/1437)
        // even though the leaf has no otherName or registeredID; RFC 5280 §4.2.1.10 asks only when a
        // name of the form appears (x509-limbo rfc5280::nc::nc-forbids-othername-noop).
        let constraints =
            "nameConstraints = critical, permitted;DNS:swifttrust.test, excluded;otherName:1.3.6.1.4.1.55555.1;UTF8:x, "
            + "excluded;RID:1.3.6.1.4.1.55555.2"
        let (ca, leaf) = try caAndLeaf(&issuer, commonName: "OtherName CA", extensions: caExtensions([constraints]))
        try assertRule(
            .nameConstraintsFormsSupported, detail: .unsupportedCriticalNameConstraint(form: "otherName"), leaf: leaf,
            intermediates: [ca])
        try assertRule(
            .nameConstraintsFormsSupported, detail: .unsupportedCriticalNameConstraint(form: "registeredID"), leaf: leaf,
            intermediates: [ca])
        // The same constraints on a trusted anchor seed Apple's state unasked: no violation.
        try assertTrustedUnderEveryProfile(leaf: leaf, intermediates: [], anchors: [ca])
    }

    func testNonCriticalNameConstraintsWithAFormThatCannotBeChecked() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Non-critical: only a name of that form fails (Apple nc_compare_subtree: "present but not
        // matched"), as before.
        let constraints = "nameConstraints = permitted;DNS:swifttrust.test, excluded;otherName:1.3.6.1.4.1.55555.1;UTF8:x"
        let (ca, leaf) = try caAndLeaf(&issuer, commonName: "Non-critical OtherName CA", extensions: caExtensions([constraints]))
        let plain = try OpenSSLIssuer.trust(leaf, intermediates: [ca], policies: [.ssl(server: true, hostname: host)]).evaluate()
        assertTrusted(plain)
        let authority = try Self.authority(ca, in: issuer)
        let named = try issuer.issue(
            commonName: host,
            extensions: leafExtensions(
                san: "DNS:www.swifttrust.test, otherName:1.3.6.1.4.1.55555.1;UTF8:y"), by: authority
        ).certificate
        let evaluation = try OpenSSLIssuer.trust(named, intermediates: [ca], policies: [.ssl(server: true, hostname: host)]).evaluate()
        XCTAssertEqual(failureSummary(evaluation), ["0:nameConstraintViolation"], "\(evaluation)")
    }

    // MARK: Host names (SecFrameworkIsDNSName, SecDNSMatch)

    func testUnderscoreHostNamesMatch() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Apple's SecFrameworkIsDNSName allows `_` anywhere in a SAN name and SecDNSMatch does not
        // validate the reference; RFC 5280 §4.2.1.6 (preferred name syntax) does not allow it, so
        // the strict profiles refuse the SAN (x509-limbo rfc5280::san::underscore-dns).
        for name in ["my_host.swifttrust.test", "_srv.swifttrust.test"] {
            let leaf = try issuer.issue(commonName: name, extensions: leafExtensions(san: "DNS:\(name)")).certificate
            try assertRule(.subjectAltNameSyntax, detail: .invalidDNSName(name), leaf: leaf, hostname: name)
            try assertRule(.subjectAltNameSyntax, detail: .invalidDNSName(name), leaf: leaf, hostname: name.uppercased() + ".")
        }
        // A wildcard stands for a label with an underscore too, and is still only the whole left-most label.
        let wildcard = try issuer.issue(commonName: host, extensions: leafExtensions(san: "DNS:*.swifttrust.test")).certificate
        assertTrusted(try OpenSSLIssuer.trust(wildcard, policies: [.ssl(server: true, hostname: "my_host.swifttrust.test")]).evaluate())
        let partial = try issuer.issue(commonName: host, extensions: leafExtensions(san: "DNS:my_*.swifttrust.test")).certificate
        let evaluation = try OpenSSLIssuer.trust(partial, policies: [.ssl(server: true, hostname: "my_host.swifttrust.test")]).evaluate()
        XCTAssertEqual(failureSummary(evaluation), ["0:hostnameMismatch"], "\(evaluation)")
    }

    func testSubjectAltNameEndingInADotNeverMatches() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Apple's SecFrameworkIsDNSName drops a SAN name ending in a dot, so it matches no host.
        let dotted = try issuer.issue(commonName: host, extensions: leafExtensions(san: "DNS:www.swifttrust.test.")).certificate
        for reference in [host, host + "."] {
            for profile in ProfileRuleCoverageTests.profiles {
                let evaluation = try OpenSSLIssuer.trust(dotted, policies: [.profile(profile, purpose: .serverAuth, hostname: reference)])
                    .evaluate()
                XCTAssertTrue(failureSummary(evaluation).contains("0:hostnameMismatch"), "\(profile) \(reference): \(evaluation)")
            }
        }
        // The reference's single trailing dot is still stripped (SecDNSMatch).
        let plain = try issuer.issue(commonName: host, extensions: leafExtensions()).certificate
        try assertTrustedUnderEveryProfile(leaf: plain, hostname: host + ".")
    }

    // MARK: Helpers

    /// Issues a TLS server leaf for `name` under `ca` (made by ``caAndLeaf(_:commonName:extensions:leafLines:)``)
    /// and checks that every profile fails it for a name constraint.
    func assertOutsideConstraints(
        _ name: String, under ca: Certificate, _ issuer: inout OpenSSLIssuer,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let authority = try Self.authority(ca, in: issuer)
        let leaf = try issuer.issue(commonName: name, extensions: leafExtensions(san: "DNS:\(name)"), by: authority).certificate
        for profile in ProfileRuleCoverageTests.profiles {
            let evaluation = try OpenSSLIssuer.trust(leaf, intermediates: [ca], policies: [.profile(profile, purpose: .serverAuth, hostname: name)])
                .evaluate()
            XCTAssertTrue(failureSummary(evaluation).contains("0:nameConstraintViolation"), "\(profile): \(evaluation)", file: file, line: line)
        }
    }

    /// The lower-case hex of `text`'s bytes, colon-separated (openssl's `DER:` syntax).
    static func hex(_ text: String) -> String { Array(text.utf8).map { String(format: "%02x", $0) }.joined(separator: ":") }

    /// Writes `certificate` as PEM into the issuer's directory; returns the path.
    static func write(_ certificate: Certificate, in issuer: OpenSSLIssuer) throws -> String {
        let path = issuer.directory.appendingPathComponent("written-\(UUID().uuidString).pem").path
        try certificate.pemEncoded.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// An authority for issuing under `ca`, a CA ``caAndLeaf(_:commonName:extensions:leafLines:)`` made
    /// (on the committed intermediate2 key).
    static func authority(_ ca: Certificate, in issuer: OpenSSLIssuer) throws -> OpenSSLIssuer.Authority {
        OpenSSLIssuer.Authority(certificatePath: try write(ca, in: issuer), keyPath: TestCertificates.path("keys/ecdsa/intermediate2.key.pem"))
    }

    /// `certificate` with its Extensions list edited by `edit`, signed again (ECDSA with SHA-256,
    /// by `openssl dgst`) with the PEM key at `keyPath` under TestCertificates/.
    static func resigned(_ certificate: Certificate, keyPath: String, edit: (inout [RevocationTLV]) -> Void) throws -> Certificate {
        var tree = try RevocationTLV.parse(certificate.derEncoded)
        var tbs = tree[0]
        guard let index = tbs.children.firstIndex(where: { $0.tag == 0xA3 }) else { throw CocoaError(.coderReadCorrupt) }
        edit(&tbs.children[index].children[0].children)
        tree[0] = tbs
        tree[2] = .primitive(0x03, [0x00] + (try CRLForge.sign(tbs.der, keyPath: keyPath)))
        return try Certificate(derEncoded: tree.der)
    }
}
