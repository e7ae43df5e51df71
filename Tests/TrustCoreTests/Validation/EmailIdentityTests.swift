import Foundation
import OpenSSLServerSupport
import TrustTestSupport
import XCTest
@testable import TrustCore
import TrustX509

/// Mailbox identities (`.email` policies, RFC 8398 matching) and rfc822Name name constraints
/// (RFC 5280 §4.2.1.10), on the committed client certificate and on certificates issued by openssl.
final class EmailIdentityTests: XCTestCase {
    // MARK: - Parsing

    func testMailboxSyntax() {
        let valid: [(text: String, local: String, domain: String, line: UInt)] = [
            ("user@example.com", "user", "example.com", #line),
            ("User.Name+tag@Example.COM", "User.Name+tag", "example.com", #line),
            ("*@example.com", "*", "example.com", #line),
            ("\"a@b\"@example.com", "\"a@b\"", "example.com", #line),
            ("\"a b\\\"c\"@example.com", "\"a b\\\"c\"", "example.com", #line),
            ("user@Bücher.example", "user", "xn--bcher-kva.example", #line),
        ]
        for testCase in valid {
            let address = EmailAddress(testCase.text)
            XCTAssertEqual(address?.localPart, testCase.local, testCase.text, line: testCase.line)
            XCTAssertEqual(address?.domain, testCase.domain, testCase.text, line: testCase.line)
        }
        let invalid: [(text: String, line: UInt)] = [
            ("", #line), ("example.com", #line), ("@example.com", #line), ("user@", #line),
            ("invalid@address@example.com", #line), ("user name@example.com", #line), (".user@example.com", #line),
            ("user.@example.com", #line), ("us..er@example.com", #line), ("user@example..com", #line),
            ("user@example.com.", #line), ("user@192.0.2.1", #line), ("user@[192.0.2.1]", #line),
            ("\"unterminated@example.com", #line), ("\"a\"b@example.com", #line), ("üser@example.com", #line),
            (String(repeating: "a", count: 65) + "@example.com", #line),
        ]
        for testCase in invalid {
            XCTAssertNil(EmailAddress(testCase.text), testCase.text, line: testCase.line)
        }
        XCTAssertNotNil(EmailAddress(String(repeating: "a", count: 64) + "@example.com"))
    }

    func testMatchingComparesTheLocalPartExactlyAndTheDomainWithoutCase() throws {
        let address = try XCTUnwrap(EmailAddress("user@example.com"))
        XCTAssertTrue(address.matches(rfc822Name: "user@example.com"))
        XCTAssertTrue(address.matches(rfc822Name: "user@EXAMPLE.com"))
        XCTAssertFalse(address.matches(rfc822Name: "User@example.com"))
        XCTAssertFalse(address.matches(rfc822Name: "user@mail.example.com"))
        XCTAssertFalse(address.matches(rfc822Name: "example.com"))
        XCTAssertEqual(ServerIdentity(emailAddress: "user@Example.com")?.description, "user@example.com")
        XCTAssertNil(ServerIdentity(emailAddress: "www.example.com"))
        XCTAssertNil(ServerIdentity("user@example.com"), "a host name is never read as a mailbox")
    }

    // MARK: - The committed client certificate (SAN email:user@swifttrust.test)

    private func clientTrust(_ policies: [TrustPolicy]) throws -> ServerTrust {
        try TestCertificates.trust(["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"], policies: policies)
    }

    func testAClientCertificateIsValidForItsMailbox() throws {
        assertTrusted(try clientTrust([.ssl(server: false, hostname: nil), .email("user@swifttrust.test")]).evaluate())
        assertTrusted(try clientTrust([.ssl(server: false, hostname: nil), .email("user@SwiftTrust.TEST")]).evaluate())
        assertTrusted(try clientTrust([.basicX509, .email("user@swifttrust.test")]).evaluate())
    }

    func testEveryMailboxMustMatch() throws {
        let wrongCase = try clientTrust([.ssl(server: false, hostname: nil), .email("User@swifttrust.test")]).evaluate()
        assertNotTrusted(wrongCase, .recoverableTrustFailure, failures: ["0:emailAddressMismatch"])
        XCTAssertEqual(
            wrongCase.failures.first?.reason,
            .emailAddressMismatch(expected: "User@swifttrust.test", presented: ["email:user@swifttrust.test"]))
        XCTAssertEqual(
            wrongCase.failures.first?.reason.summary,
            "email address User@swifttrust.test not in SAN [email:user@swifttrust.test]")
        let oneMissing = try clientTrust([
            .ssl(server: false, hostname: nil), .email("user@swifttrust.test"),
            .email("other@swifttrust.test"),
        ]).evaluate()
        assertNotTrusted(oneMissing, .recoverableTrustFailure, failures: ["0:emailAddressMismatch"])
    }

    func testAnInvalidMailboxIsReported() throws {
        let evaluation = try clientTrust([.ssl(server: false, hostname: nil), .email("not a mailbox")]).evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:invalidReferenceIdentity"])
        XCTAssertEqual(evaluation.failures.first?.reason, .invalidReferenceIdentity("not a mailbox"))
    }

    func testAServerCertificateNamesNoMailbox() throws {
        let evaluation = try TestCertificates.trust(
            ["ecdsa/chain.pem"],
            policies: [
                .ssl(server: true, hostname: TestCertificates.host),
                .email("user@www.swifttrust.test"),
            ]
        ).evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:emailAddressMismatch"])
    }

    // MARK: - Certificates issued by openssl

    func testAnInternationalisedDomainMatchesItsALabels() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let leaf = try issuer.issue(
            commonName: "idn",
            extensions: OpenSSLIssuer.leafExtensions(
                subjectAltNames: ["email:user@xn--bcher-kva.example"], eku: "clientAuth")
        ).certificate
        assertTrusted(try OpenSSLIssuer.trust(leaf, policies: [.ssl(server: false, hostname: nil), .email("user@bücher.example")]).evaluate())
    }

    /// A quoted local part may contain `@`: the mailbox is still well-formed (RFC 5321 §4.1.2), and
    /// a local part with a bare space is not.
    func testSubjectAltNameMailboxSyntax() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let quoted = try issuer.issue(
            commonName: "quoted",
            extensions: OpenSSLIssuer.leafExtensions(
                subjectAltNames: ["email:\\\"a@b\\\"@swifttrust.test"], eku: "clientAuth")
        ).certificate
        XCTAssertEqual(quoted.extensions.subjectAlternativeNames, [.rfc822Name("\"a@b\"@swifttrust.test")])
        assertTrusted(
            try OpenSSLIssuer.trust(
                quoted,
                policies: [
                    .ssl(server: false, hostname: nil),
                    .email("\"a@b\"@swifttrust.test"),
                ]
            ).evaluate())
        let spaced = try issuer.issue(
            commonName: "spaced",
            extensions: OpenSSLIssuer.leafExtensions(
                subjectAltNames: ["email:user name@swifttrust.test"], eku: "clientAuth")
        ).certificate
        // SAN syntax is an RFC 5280 §4.2.1.6 issuance rule: the strict RFC 5280 and web-PKI profiles check it.
        let evaluation = try OpenSSLIssuer.trust(spaced, policies: [.webPKI(server: false, hostname: nil)]).evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:profileViolation"])
        XCTAssertEqual(evaluation.violatedRules, [.subjectAltNameSyntax])
    }

    /// RFC 5280 §4.2.1.10: an rfc822Name constraint is a mailbox (exact, local part with case), a
    /// host (every mailbox on it) or `.domain` (every mailbox on a proper subdomain).
    func testRFC822NameConstraints() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let cases: [(constraint: String, mailbox: String, permitted: Bool, line: UInt)] = [
            ("permitted;email:swifttrust.test", "user@swifttrust.test", true, #line),
            ("permitted;email:swifttrust.test", "user@mail.swifttrust.test", false, #line),
            ("permitted;email:.swifttrust.test", "user@mail.swifttrust.test", true, #line),
            ("permitted;email:.swifttrust.test", "user@swifttrust.test", false, #line),
            ("permitted;email:user@swifttrust.test", "user@SWIFTTRUST.test", true, #line),
            ("permitted;email:user@swifttrust.test", "User@swifttrust.test", false, #line),
            ("permitted;email:*@swifttrust.test", "user@swifttrust.test", false, #line),
            ("permitted;email:swifttrust.test", "\\\"a@b\\\"@swifttrust.test", true, #line),
            ("excluded;email:.evil.test", "user@mail.evil.test", false, #line),
            ("excluded;email:.evil.test", "user@swifttrust.test", true, #line),
        ]
        for (offset, testCase) in cases.enumerated() {
            let ca = try issuer.issue(
                commonName: "Constrained CA \(offset)",
                extensions: OpenSSLIssuer.constrainedCAExtensions(testCase.constraint),
                by: .root, key: "keys/ecdsa/intermediate2.key.pem")
            let leaf = try issuer.issue(
                commonName: "client \(offset)",
                extensions: OpenSSLIssuer.leafExtensions(
                    subjectAltNames: ["email:\(testCase.mailbox)"], eku: "clientAuth"), by: ca.authority
            ).certificate
            let evaluation = try OpenSSLIssuer.trust(
                leaf, intermediates: [ca.certificate],
                policies: [.ssl(server: false, hostname: nil)]
            ).evaluate()
            if testCase.permitted {
                assertTrusted(evaluation, line: testCase.line)
            } else {
                assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:nameConstraintViolation"], line: testCase.line)
            }
        }
    }

    /// A constraint that is neither a mailbox nor a domain makes the CA unusable (fail closed).
    func testAMalformedRFC822NameConstraintIsRejected() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let ca = try issuer.issue(
            commonName: "Malformed CA",
            extensions: OpenSSLIssuer.constrainedCAExtensions(
                "permitted;email:us er@swifttrust.test"), by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(
            commonName: "client",
            extensions: OpenSSLIssuer.leafExtensions(
                subjectAltNames: ["email:user@swifttrust.test"], eku: "clientAuth"), by: ca.authority
        ).certificate
        let evaluation = try OpenSSLIssuer.trust(leaf, intermediates: [ca.certificate], policies: [.ssl(server: false, hostname: nil)]).evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:nameConstraintMalformed"])
        // The reason is typed: the subtree base that cannot be evaluated.
        XCTAssertEqual(evaluation.failures.map(\.reason), [.nameConstraintMalformed(.rfc822Name("us er@swifttrust.test"))])
    }
}
