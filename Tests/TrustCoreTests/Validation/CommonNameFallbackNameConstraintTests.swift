import OpenSSLServerSupport
import Foundation
import TrustCore
import TrustX509
import XCTest

/// The legacy common-name fallback must not bypass DNS name constraints.
final class CommonNameFallbackNameConstraintTests: XCTestCase {
    /// A leaf's extensions without a subjectAltName.
    let noSAN = [
        "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature",
        "extendedKeyUsage = serverAuth", "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
    ]

    /// A CA under the committed root permitted only example.com.
    func constrainedCA(_ issuer: inout OpenSSLIssuer) throws -> (certificate: Certificate, authority: OpenSSLIssuer.Authority) {
        try issuer.issue(
            commonName: "Constrained CA", extensions: OpenSSLIssuer.constrainedCAExtensions("permitted;DNS:example.com"),
            by: .root, key: "keys/ecdsa/intermediate2.key.pem")
    }

    func testAConstrainedCACannotIssueAHostNameInTheCommonName() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let ca = try constrainedCA(&issuer)
        let victim = try issuer.issue(commonName: "victim.test", extensions: noSAN, by: ca.authority).certificate
        let trust = try OpenSSLIssuer.trust(victim, intermediates: [ca.certificate], policies: [.ssl(server: true, hostname: "victim.test")])
        // Without the fallback the host simply does not match ...
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:hostnameMismatch"])
        // ... with it, the common name is a DNS name outside the CA's permitted subtree.
        trust.options.allowsCommonNameFallback = true
        let evaluation = trust.evaluate()
        XCTAssertEqual(failureSummary(evaluation), ["0:nameConstraintViolation"])
        // A common name inside the permitted subtree passes under the fallback.
        let inside = try issuer.issue(commonName: "www.example.com", extensions: noSAN, by: ca.authority).certificate
        let allowed = try OpenSSLIssuer.trust(inside, intermediates: [ca.certificate], policies: [.ssl(server: true, hostname: "www.example.com")])
        allowed.options.allowsCommonNameFallback = true
        XCTAssertTrue(allowed.evaluate().isTrusted, "\(allowed.evaluate())")
    }

    func testAWildcardCommonNameIsConstrainedToo() throws {
        // `*.victim.test` is no host name, but the fallback matches it as a wildcard: it must be
        // constrained as a SAN `*.victim.test` would be (found reviewing issue 32; fail-open before).
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let ca = try constrainedCA(&issuer)
        let victim = try issuer.issue(commonName: "*.victim.test", extensions: noSAN, by: ca.authority).certificate
        let trust = try OpenSSLIssuer.trust(victim, intermediates: [ca.certificate], policies: [.ssl(server: true, hostname: "www.victim.test")])
        trust.options.allowsCommonNameFallback = true
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:nameConstraintViolation"])
        let inside = try issuer.issue(commonName: "*.example.com", extensions: noSAN, by: ca.authority).certificate
        let allowed = try OpenSSLIssuer.trust(inside, intermediates: [ca.certificate], policies: [.ssl(server: true, hostname: "www.example.com")])
        allowed.options.allowsCommonNameFallback = true
        XCTAssertTrue(allowed.evaluate().isTrusted, "\(allowed.evaluate())")
    }
}
