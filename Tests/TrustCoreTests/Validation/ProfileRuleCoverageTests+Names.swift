import OpenSSLServerSupport
import Foundation
import TrustCore
import TrustX509
import XCTest

/// Profile rules about a certificate's identity fields (serial number, subject, issuer, version), on
/// certificates openssl issues in the test, under every profile.
extension ProfileRuleCoverageTests {
    func testSerialNumberZeroNegativeOrOverlong() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // RFC 5280 §4.1.2.2: positive, at most 20 octets. openssl writes each serial as given.
        let cases: [(String, ProfileViolationDetail)] = [
            ("0", .serialNumberNotPositive), ("-1", .serialNumberNotPositive),
            ("0x0102030405060708090a0b0c0d0e0f101112131415", .serialNumberTooLong),
        ]
        for (serial, detail) in cases {
            let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), serial: serial).certificate
            try assertRule(.serialNumber, detail: detail, leaf: leaf)
        }
    }

    func testSerialNumberOfALeafTrustedDirectly() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // The anchor exemption below is for CAs: a self-signed leaf the caller trusts is still a leaf.
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), by: nil, serial: "0").certificate
        try assertRule(.serialNumber, detail: .serialNumberNotPositive, leaf: leaf, intermediates: [], anchors: [leaf])
    }

    func testSerialNumberOfTwentyOctetsWithItsSignPaddingAndZeroSerialAnchor() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // 20 octets with the top bit set take 21 in DER (a leading zero keeps them positive): allowed.
        let leaf = try issuer.issue(
            commonName: host, extensions: leafExtensions(),
            serial: "0x8102030405060708090a0b0c0d0e0f1011121314"
        ).certificate
        XCTAssertEqual(leaf.serialNumber.count, 21)
        try assertTrustedUnderEveryProfile(leaf: leaf)
        // Trust anchors are exempt: long-standing roots (Starfield G2) have serial 0.
        let (root, underRoot) = try rootAndLeaf(&issuer, extensions: Self.rootExtensions(), serial: "0")
        XCTAssertTrue(root.serialNumberIsZero)
        try assertTrustedUnderEveryProfile(leaf: underRoot, intermediates: [], anchors: [root])
    }

    func testEmptySubjectWithoutCriticalSubjectAltName() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(commonName: nil, extensions: leafExtensions()).certificate
        XCTAssertTrue(leaf.subject.isEmpty)
        // RFC 5280 §4.2.1.6 says the same thing from the SAN's side: critical when the subject is empty.
        try assertRule(
            .nonEmptySubject, alsoBreaking: [.subjectAltNameCriticality], detail: .emptySubjectWithoutCriticalSubjectAltName,
            leaf: leaf)
        // With the subjectAltName critical, an empty subject is what RFC 5280 and Apple allow.
        let named = try issuer.issue(commonName: nil, extensions: leafExtensions(san: "critical, DNS:www.swifttrust.test"))
        try assertTrustedUnderEveryProfile(leaf: named.certificate)
    }

    func testEmptyIssuerName() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Only a certificate whose issuer has an empty subject has an empty issuer name, and a CA
        // with an empty subject breaks rules of its own (see the next test). A self-signed leaf
        // the caller trusts directly, with an empty subject named by a critical subjectAltName,
        // breaks only this rule: a non-empty issuer is required of every certificate, anchors too.
        let leaf = try issuer.issue(
            commonName: nil, extensions: leafExtensions(san: "critical, DNS:www.swifttrust.test"),
            by: nil
        ).certificate
        XCTAssertTrue(leaf.issuer.isEmpty)
        try assertRule(.issuerNonEmpty, leaf: leaf, intermediates: [], anchors: [leaf])
    }

    func testCAWithEmptySubject() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Named by a critical subjectAltName, as an empty subject must be (RFC 5280 §4.2.1.6); still
        // a CA's subject is the name its certificates are issued under (§4.1.2.6), so its leaf's
        // issuer is empty and Apple rejects an empty subject in any CA.
        let (ca, leaf) = try caAndLeaf(
            &issuer, commonName: nil,
            extensions: caExtensions(["subjectAltName = critical, DNS:ca.swifttrust.test"]))
        XCTAssertTrue(leaf.issuer.isEmpty)
        try assertRule(.caSubjectNonEmpty, alsoBreaking: [.issuerNonEmpty, .nonEmptySubject], leaf: leaf, intermediates: [ca])
    }

    func testVersion1Leaf() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // A v1 certificate has no extensions, so a v1 leaf cannot carry the subjectAltName and
        // extKeyUsage the web PKI requires of subscribers either. As a TLS client certificate (no host,
        // no serverAuth requirement) it breaks nothing else.
        let leaf = try issuer.issueVersion1(commonName: "v1 client").certificate
        XCTAssertEqual(leaf.version, 1)
        try assertRule(
            .version3, alsoBreaking: [.leafSubjectAltNameRequired, .leafExtendedKeyUsage], detail: .versionNot3(version: 1),
            leaf: leaf, purpose: .clientAuth, hostname: nil)
    }

    func testVersion1TrustAnchor() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // An anchor is a name and a key (RFC 5280 §6.1.1 (d)); v1 roots are still in trust stores.
        let root = try issuer.issueVersion1(commonName: "v1 Root", by: nil, key: "keys/ecdsa/root.key.pem")
        XCTAssertEqual(root.certificate.version, 1)
        // The root has no subjectKeyIdentifier to name, so the leaf's AKI names its issuer and serial.
        let extensions = leafExtensions().map { $0.hasPrefix("authorityKeyIdentifier") ? "authorityKeyIdentifier = issuer:always" : $0 }
        let leaf = try issuer.issue(commonName: host, extensions: extensions, by: root.authority).certificate
        try assertTrustedUnderEveryProfile(leaf: leaf, intermediates: [], anchors: [root.certificate])
    }
}
