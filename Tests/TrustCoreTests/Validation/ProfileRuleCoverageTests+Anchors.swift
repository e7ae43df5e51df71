import OpenSSLServerSupport
import Foundation
import TrustCore
import TrustX509
import XCTest

/// Profile rules about trust anchors (RFC 5280 §6.1.1 (d): a name and a key, whose own constraints
/// count only under the rules that say so, RFC 5937), on roots and cross-signed CAs openssl issues in
/// the test and the caller trusts directly, under every profile.
extension ProfileRuleCoverageTests {
    func testTrustAnchorWithoutSubjectKeyIdentifier() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // With no key identifier to name, the leaf's AKI names the root's issuer and serial.
        let (root, leaf) = try rootAndLeaf(
            &issuer, extensions: Self.rootExtensions(subjectKeyIdentifier: false),
            leafAuthorityKeyIdentifier: "issuer:always")
        XCTAssertNil(root.extensions.subjectKeyIdentifier)
        try assertRule(
            .anchorProfile, detail: .anchorSubjectKeyIdentifierMissing, leaf: leaf, intermediates: [],
            anchors: [root])
    }

    func testCrossSignedTrustAnchorWithoutAuthorityKeyIdentifier() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // A CA issued by the committed root, trusted directly, without the AKI its issuer should have
        // written (`none`: openssl adds one by default when it signs with -CA).
        let withoutAKI = caExtensions([]).map { $0.hasPrefix("authorityKeyIdentifier") ? "authorityKeyIdentifier = none" : $0 }
        let (ca, leaf) = try caAndLeaf(&issuer, commonName: "Cross-signed Anchor", extensions: withoutAKI)
        XCTAssertNil(ca.extensions.authorityKeyIdentifier)
        try assertRule(
            .anchorProfile, detail: .anchorAuthorityKeyIdentifierMissing, leaf: leaf, intermediates: [],
            anchors: [ca])
    }

    func testSelfIssuedAnchorThatIsNotSelfSigned() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // A key rollover certificate (RFC 4210 §4.4 "new with old"): same name as the root, a new key,
        // signed with the old one. Self-issued but not self-signed, so it is no root certificate: its
        // AKI naming the old key is right (CABF 7.1.2.1.3 is about self-signed roots), and an EKU in it
        // is an anchor's EKU (CABF 7.1.2.1.2 is about roots too).
        let old = try issuer.issue(
            commonName: "Generated Root", extensions: Self.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem")
        let rollover = try issuer.issue(
            commonName: "Generated Root",
            extensions: Self.rootExtensions(
                ["authorityKeyIdentifier = keyid", "extendedKeyUsage = serverAuth"]), by: old.authority, key: "keys/ecdsa/intermediate2.key.pem")
        XCTAssertTrue(rollover.certificate.isSelfIssued)
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), by: rollover.authority).certificate
        try assertTrustedUnderEveryProfile(leaf: leaf, intermediates: [], anchors: [rollover.certificate])
        // Nor is it exempt from authorityKeyIdentifier, as a self-signed certificate would be.
        let withoutAKI = try issuer.issue(
            commonName: "Generated Root", extensions: Self.rootExtensions(["authorityKeyIdentifier = none"]),
            by: old.authority, key: "keys/ecdsa/intermediate2.key.pem")
        let leafUnder = try issuer.issue(commonName: host, extensions: leafExtensions(), by: withoutAKI.authority).certificate
        try assertRule(
            .anchorProfile, detail: .anchorAuthorityKeyIdentifierMissing, leaf: leafUnder, intermediates: [],
            anchors: [withoutAKI.certificate])
    }

    func testRolloverAnchorSelfSignatureCheckDrawsFromTheEvaluationsBudget() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let old = try issuer.issue(
            commonName: "Generated Root", extensions: Self.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem")
        let rollover = try issuer.issue(
            commonName: "Generated Root", extensions: Self.rootExtensions(["authorityKeyIdentifier = keyid"]),
            by: old.authority, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), by: rollover.authority).certificate
        // One check for the leaf's signature, one for "is the anchor self-signed?" (web PKI reads it).
        for (limit, trusted) in [(1, false), (2, true)] {
            let trust = try OpenSSLIssuer.trust(
                leaf, intermediates: [], anchors: [rollover.certificate],
                policies: [.webPKI(server: true, hostname: host)])
            trust.options.budget.signatureChecks = limit
            let evaluation = trust.evaluate()
            XCTAssertEqual(evaluation.isTrusted, trusted, "limit \(limit): \(evaluation)")
            let exhausted = evaluation.failures.contains { if case .budgetExhausted(.signatureChecks, _) = $0.reason { true } else { false } }
            XCTAssertEqual(exhausted, !trusted, "limit \(limit): \(evaluation)")
        }
    }

    func testTrustAnchorWithUnknownCriticalExtension() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // An extension no verifier knows (a private-enterprise OID), critical: RFC 5280 §4.2 rejects it
        // in a certificate; in an anchor only when the anchor is held to the profile.
        let (root, leaf) = try rootAndLeaf(&issuer, extensions: Self.rootExtensions(["1.3.6.1.4.1.55738.1 = critical, ASN1:NULL"]))
        try assertRule(.anchorProfile, reportedAs: ["1:unhandledCriticalExtension"], leaf: leaf, intermediates: [], anchors: [root])
    }

    func testSelfSignedRootAuthorityKeyIdentifierWithIssuerAndSerial() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let (root, leaf) = try rootAndLeaf(
            &issuer,
            extensions: Self.rootExtensions(["authorityKeyIdentifier = keyid:always, issuer:always"]))
        XCTAssertNotNil(root.extensions.authorityKeyIdentifier?.authorityCertSerialNumber)
        try assertRule(
            .rootAuthorityKeyIdentifier, detail: .rootAuthorityKeyIdentifierNotKeyIdentifierOnly, leaf: leaf, intermediates: [], anchors: [root])
    }

    func testSelfSignedRootAuthorityKeyIdentifierNotItsOwnKeyIdentifier() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // openssl copies the AKI keyid from the issuing certificate's SKI. Re-issuing a root under a
        // first self-signed root of the same name and key, with an explicit different SKI, gives a
        // certificate that is still self-signed (same name, same key) whose AKI names the other SKI.
        let first = try issuer.issue(
            commonName: "Generated Root", extensions: Self.rootExtensions(), by: nil,
            key: "keys/ecdsa/root.key.pem")
        let root = try issuer.issue(
            commonName: "Generated Root",
            extensions: [
                "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
                "subjectKeyIdentifier = 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33", "authorityKeyIdentifier = keyid",
            ], by: first.authority, key: "keys/ecdsa/root.key.pem")
        XCTAssertEqual(root.certificate.issuer, root.certificate.subject)
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), by: root.authority).certificate
        try assertRule(
            .rootAuthorityKeyIdentifier, detail: .rootAuthorityKeyIdentifierMismatch, leaf: leaf, intermediates: [],
            anchors: [root.certificate])
    }

    func testSelfSignedRootWithExtendedKeyUsage() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // serverAuth: the anchor's EKU allows the purpose, so only the root rule is broken.
        let (root, leaf) = try rootAndLeaf(&issuer, extensions: Self.rootExtensions(["extendedKeyUsage = serverAuth"]))
        try assertRule(.rootWithoutExtendedKeyUsage, leaf: leaf, intermediates: [], anchors: [root])
    }

    func testExpiredTrustAnchor() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // The root expires after one day, its leaf after 30: evaluated in two days.
        let (root, leaf) = try rootAndLeaf(&issuer, extensions: Self.rootExtensions(), days: 1)
        try assertRule(
            .anchorValidity, reportedAs: ["1:expired"], leaf: leaf, intermediates: [], anchors: [root],
            verifyDate: Date().addingTimeInterval(2 * 86_400))
    }

    func testTrustAnchorThatIsNotACA() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // v3 without basicConstraints (and without keyUsage, which would need cA for keyCertSign).
        let notCA = try rootAndLeaf(&issuer, extensions: ["subjectKeyIdentifier = hash"])
        try assertRule(.anchorIsCA, reportedAs: ["1:notCA"], leaf: notCA.leaf, intermediates: [], anchors: [notCA.root])
        // A CA whose keyUsage leaves out keyCertSign.
        let noKeyCertSign = try rootAndLeaf(
            &issuer,
            extensions: [
                "basicConstraints = critical, CA:TRUE", "keyUsage = critical, digitalSignature", "subjectKeyIdentifier = hash",
            ])
        try assertRule(
            .anchorIsCA, reportedAs: ["1:missingKeyCertSign"], leaf: noKeyCertSign.leaf, intermediates: [],
            anchors: [noKeyCertSign.root])
    }
}
