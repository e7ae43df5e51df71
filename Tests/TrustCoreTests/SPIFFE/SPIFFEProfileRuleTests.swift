import OpenSSLServerSupport
import TrustCore
import TrustX509
import XCTest

/// The spiffe profile's X.509-SVID rules (spiffe/spiffe standards/X509-SVID.md), one test per rule
/// on certificates SPIFFEPKI makes with openssl: each defective certificate is one rule away from a
/// good SVID, refused under spiffe for exactly that rule (with its detail) and trusted under rfc5280,
/// which applies none of them.
final class SPIFFEProfileRuleTests: XCTestCase {
    /// `defect`'s certificate breaks exactly `rule` under spiffe, with `detail`, and nothing else;
    /// rfc5280 trusts the same chain.
    func assertBreaks(
        _ rule: ProfileRule, detail: ProfileViolationDetail, _ defect: SPIFFEPKI.Defect,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let pki = try SPIFFEFixtures.pki()
        let credential = pki.credential(defect)
        let refused = SPIFFEFixtures.evaluate(credential, anchors: [pki.example.root])
        XCTAssertFalse(refused.isTrusted, "\(refused)", file: file, line: line)
        XCTAssertEqual(refused.violatedRules, [rule], "\(refused)", file: file, line: line)
        XCTAssertEqual(failureSummary(refused).filter { !$0.hasSuffix(":profileViolation") }, [], "\(refused)", file: file, line: line)
        XCTAssertEqual(SPIFFEFixtures.details(of: rule, in: refused), [detail], "\(refused)", file: file, line: line)
        XCTAssertTrue(refused.failures.contains { $0.reason.summary.contains(rule.source) }, "\(refused)", file: file, line: line)
        let rfc5280 = SPIFFEFixtures.evaluate(
            credential, anchors: [pki.example.root],
            policy: .profile(.rfc5280, purpose: .serverAuth, hostname: nil))
        XCTAssertTrue(rfc5280.isTrusted, "rfc5280: \(rfc5280)", file: file, line: line)
    }

    func testTheGoodSVIDsAreTrustedForBothPurposes() throws {
        let pki = try SPIFFEFixtures.pki()
        for credential in [pki.server, pki.client, pki.loopback] {
            for purpose in [KeyPurpose.serverAuth, .clientAuth] {
                let evaluation = SPIFFEFixtures.evaluate(
                    credential, anchors: [pki.example.root],
                    policy: .profile(.spiffe, purpose: purpose, hostname: nil))
                assertTrusted(evaluation)
            }
        }
        assertTrusted(SPIFFEFixtures.evaluate(pki.otherDomainServer, anchors: [pki.other.root]))
    }

    func testSVIDUnderAnotherTrustDomainsAuthoritiesIsRefused() throws {
        let pki = try SPIFFEFixtures.pki()
        let evaluation = SPIFFEFixtures.evaluate(pki.server, anchors: [pki.other.root])
        XCTAssertFalse(evaluation.isTrusted, "\(evaluation)")
        XCTAssertEqual(evaluation.violatedRules, [])
        XCTAssertFalse(SPIFFEFixtures.evaluate(pki.otherDomainServer, anchors: [pki.example.root]).isTrusted)
    }

    func testLeafWithTwoURIs() throws {
        try assertBreaks(.svidSingleURI, detail: .svidWithSeveralURIs(count: 2), .twoURIs)
    }

    func testLeafWithoutURI() throws {
        try assertBreaks(.svidSingleURI, detail: .svidWithoutURI, .noURI)
    }

    func testLeafWhoseURIIsNotASPIFFEID() throws {
        try assertBreaks(
            .svidSPIFFEID, detail: .invalidSPIFFEID(uri: "spiffe://example.org/ns/./api", error: .dotSegment),
            .invalidSPIFFEID)
    }

    func testLeafWithTheTrustDomainsOwnID() throws {
        try assertBreaks(.svidSPIFFEID, detail: .svidSPIFFEIDWithoutPath(try SPIFFEID("spiffe://example.org")), .trustDomainID)
    }

    func testLeafThatIsACA() throws {
        try assertBreaks(.svidLeafNotCA, detail: .svidLeafIsCA, .caLeaf)
    }

    func testLeafWithoutKeyUsage() throws {
        try assertBreaks(.svidLeafDigitalSignature, detail: .svidLeafWithoutKeyUsage, .noKeyUsage)
    }

    func testLeafWithoutDigitalSignature() throws {
        try assertBreaks(.svidLeafDigitalSignature, detail: .svidLeafWithoutDigitalSignature, .noDigitalSignature)
    }

    func testLeafWithKeyCertSignOrCRLSign() throws {
        try assertBreaks(.svidLeafNotSigner, detail: .svidLeafKeyCertSign, .keyCertSignLeaf)
        try assertBreaks(.svidLeafNotSigner, detail: .svidLeafCRLSign, .cRLSignLeaf)
    }

    func testSigningCertificateWithoutKeyUsage() throws {
        let pki = try SPIFFEFixtures.pki()
        try assertBreaks(.svidSigningCertificateKeyUsage, detail: .svidSigningCertificateWithoutKeyUsage, .signerWithoutKeyUsage)
        // The violation names the intermediate, not the leaf.
        let evaluation = SPIFFEFixtures.evaluate(pki.credential(.signerWithoutKeyUsage), anchors: [pki.example.root])
        XCTAssertEqual(evaluation.failures.map(\.certificateIndex), [1])
    }

    /// A signing certificate whose keyUsage lacks keyCertSign is RFC 5280 §6.1.4 (n)'s failure under
    /// every profile, reported once (the SVID rule asks only that keyUsage be there).
    func testSigningCertificateWithoutKeyCertSignIsRFC5280sFailure() throws {
        let pki = try SPIFFEFixtures.pki()
        for profile in [TrustProfile.spiffe, .rfc5280] {
            let evaluation = SPIFFEFixtures.evaluate(
                pki.credential(.signerWithoutKeyCertSign), anchors: [pki.example.root],
                policy: .profile(profile, purpose: .serverAuth, hostname: nil))
            XCTAssertEqual(failureSummary(evaluation), ["1:missingKeyCertSign"], "\(profile): \(evaluation)")
        }
    }

    /// The trust anchor is a signing certificate too: under spiffe it must be a CA with keyCertSign
    /// (anchorIsCA) and have keyUsage; rfc5280 takes an anchor as a name and a key.
    func testTrustAnchorIsASigningCertificate() throws {
        let pki = try SPIFFEFixtures.pki()
        // The good leaf's intermediate trusted as the anchor is fine; the defective signer trusted
        // directly is not (no keyUsage), nor is a leaf of the other kind (no keyCertSign).
        let signer = pki.credential(.signerWithoutKeyUsage)
        let spiffe = SPIFFEFixtures.evaluate(chain: [signer.certificate], anchors: [signer.chain[1]])
        XCTAssertEqual(spiffe.violatedRules, [ProfileRule.svidSigningCertificateKeyUsage], "\(spiffe)")
        XCTAssertEqual(spiffe.failures.map(\.certificateIndex), [1])
        assertTrusted(
            SPIFFEFixtures.evaluate(
                chain: [signer.certificate], anchors: [signer.chain[1]],
                policy: .profile(.rfc5280, purpose: .serverAuth, hostname: nil)))
        let noKeyCertSign = pki.credential(.signerWithoutKeyCertSign)
        let anchoredThere = SPIFFEFixtures.evaluate(chain: [noKeyCertSign.certificate], anchors: [noKeyCertSign.chain[1]])
        XCTAssertEqual(failureSummary(anchoredThere), ["1:missingKeyCertSign"], "\(anchoredThere)")
    }

    /// The EKU decision (TrustProfile.spiffe): the role's purpose as RFC 5280 §4.2.1.12 reads it.
    func testExtendedKeyUsageIsTheRolesPurpose() throws {
        let pki = try SPIFFEFixtures.pki()
        for purpose in [KeyPurpose.serverAuth, .clientAuth] {
            assertTrusted(
                SPIFFEFixtures.evaluate(
                    pki.withoutExtendedKeyUsage, anchors: [pki.example.root],
                    policy: .profile(.spiffe, purpose: purpose, hostname: nil)))
        }
        assertTrusted(
            SPIFFEFixtures.evaluate(
                pki.clientAuthOnly, anchors: [pki.example.root],
                policy: .profile(.spiffe, purpose: .clientAuth, hostname: nil)))
        let asServer = SPIFFEFixtures.evaluate(pki.clientAuthOnly, anchors: [pki.example.root])
        XCTAssertEqual(asServer.failures.map(\.reason), [.extendedKeyUsageIncompatible(purpose: "serverAuth")], "\(asServer)")
    }

    /// The profile is RFC 5280's rules, the anchor held to being a CA, and the SVID rules; and no
    /// other profile applies an SVID rule.
    func testTheSPIFFEProfileIsRFC5280PlusTheSVIDRules() {
        let svid: [ProfileRule] = [
            .svidSingleURI, .svidSPIFFEID, .svidLeafNotCA, .svidLeafDigitalSignature, .svidLeafNotSigner,
            .svidSigningCertificateKeyUsage,
        ]
        XCTAssertEqual(TrustProfile.spiffe.rules, TrustProfile.rfc5280.rules.union(ProfileRuleSet([.anchorIsCA] + svid)))
        for profile in TrustProfile.allCases where profile != .spiffe {
            XCTAssertTrue(profile.rules.intersection(ProfileRuleSet(svid)).isEmpty, "\(profile)")
        }
        XCTAssertEqual(TrustProfile(name: "spiffe"), .spiffe)
        XCTAssertEqual(TrustProfile.spiffe.description, "spiffe")
        for rule in svid { XCTAssertTrue(rule.source.hasPrefix("SPIFFE X509-SVID §"), "\(rule)") }
    }

    /// Peer text in a violation is escaped: a URI SAN with an escape sequence reaches no terminal raw.
    func testViolationTextEscapesTheURI() {
        let detail = ProfileViolationDetail.invalidSPIFFEID(
            uri: "spiffe://example.org/\u{1B}[2J",
            error: .invalidPathCharacter(offset: 21, character: "\u{1B}"))
        XCTAssertFalse(detail.description.unicodeScalars.contains("\u{1B}"), detail.description)
        XCTAssertTrue(detail.description.contains("SPIFFE-ID §2.2"), detail.description)
    }
}
