import Foundation
import TrustCore
import TrustX509
import XCTest

/// Profile rules the committed corpus has no certificate for, on certificates openssl issues in the
/// test (each one defect away from a valid chain): the profiles that apply the rule reject it, naming
/// the rule; the others accept the same chain.
final class ProfileRuleCoverageTests: XCTestCase {
    private let host = "www.swifttrust.test"

    private func leafExtensions(_ extra: [String] = [], san: String? = "DNS:www.swifttrust.test") -> [String] {
        ["basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = serverAuth",
         "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid"] + (san.map { ["subjectAltName = \($0)"] } ?? []) + extra
    }

    private func caExtensions(_ extra: [String], subjectKeyIdentifier: Bool = true) -> [String] {
        ["basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign", "authorityKeyIdentifier = keyid",
         subjectKeyIdentifier ? "subjectKeyIdentifier = hash" : "subjectKeyIdentifier = none"] + extra
    }

    /// Evaluates `leaf` (under `intermediates`) with each profile and checks which name `rule`.
    private func assertRule(_ rule: ProfileRule, leaf: Certificate, intermediates: [Certificate]? = nil,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        for profile in ProfileRulesTable.profiles {
            let trust = try OpenSSLIssuer.trust(leaf, intermediates: intermediates,
                                                policies: [.profile(profile, purpose: .serverAuth, hostname: host)])
            let evaluation = trust.evaluate()
            if profile.rules.contains(rule) {
                XCTAssertEqual(evaluation.violatedRules, [rule], "\(profile): \(evaluation)", file: file, line: line)
            } else {
                XCTAssertTrue(evaluation.isTrusted, "\(profile) does not apply \(rule): \(evaluation)", file: file, line: line)
            }
        }
    }

    func testAuthorityInfoAccessMustNotBeCritical() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(
            ["authorityInfoAccess = critical, OCSP;URI:http://ocsp.swifttrust.test"])).certificate
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
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(
            ["nameConstraints = critical, permitted;DNS:swifttrust.test"])).certificate
        try assertRule(.nameConstraintsInCAOnly, leaf: leaf)
    }

    func testIntermediateWithoutSubjectKeyIdentifier() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let ca = try issuer.issue(commonName: "No SKI CA", extensions: caExtensions([], subjectKeyIdentifier: false),
                                  by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions().filter { !$0.hasPrefix("authorityKeyIdentifier") },
                                    by: ca.authority).certificate
        try assertRule(.subjectKeyIdentifier, leaf: leaf, intermediates: [ca.certificate])
    }

    func testNonCriticalNameConstraintsUnderStrictRFC5280Only() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let ca = try issuer.issue(commonName: "Non-critical NC CA", extensions: caExtensions(
            ["nameConstraints = permitted;DNS:swifttrust.test"]), by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), by: ca.authority).certificate
        try assertRule(.nameConstraintsCritical, leaf: leaf, intermediates: [ca.certificate])
    }

    func testIntermediateRestrictedToAnotherPurpose() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let ca = try issuer.issue(commonName: "Client-only CA", extensions: caExtensions(["extendedKeyUsage = clientAuth"]),
                                  by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), by: ca.authority).certificate
        for profile in ProfileRulesTable.profiles {
            let evaluation = try OpenSSLIssuer.trust(leaf, intermediates: [ca.certificate],
                                                     policies: [.profile(profile, purpose: .serverAuth, hostname: host)]).evaluate()
            // Apple (sub-CA EKUs) and the web PKI chain EKUs; RFC 5280 does not.
            XCTAssertEqual(evaluation.isTrusted, !profile.rules.contains(.issuerExtendedKeyUsage), "\(profile): \(evaluation)")
            if !evaluation.isTrusted {
                XCTAssertEqual(failureSummary(evaluation), ["1:extendedKeyUsageIncompatible"])
            }
        }
    }
}
