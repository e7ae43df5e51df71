import Foundation
@testable import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// ``ServerTrust`` with an unusable explicit system trust store fails closed with its own reason,
/// and only when the system store is needed. The store is supplied to the evaluation directly, so
/// the process environment (and the shared store) are left alone.
final class SystemTrustStoreEvaluationTests: XCTestCase {
    private let missing = "/nonexistent/swifttrust-anchors.pem"
    private var unusable: SystemTrustStoreError {
        .unreadable(variable: "SSL_CERT_FILE", path: missing, problem: .doesNotExist)
    }

    /// Evaluates `trust` with `systemTrustStore` standing for the shared store.
    private func evaluate(
        _ trust: ServerTrust,
        systemTrustStore: () throws(SystemTrustStoreError) -> SystemTrustStore
    ) -> TrustEvaluation {
        let config = trust.snapshot
        return TrustEngine.evaluate(EvaluationSnapshot(config), systemTrustStore: systemTrustStore)
    }

    func testAnUnusableSystemStoreFailsClosedWhenItIsTheAnchorSet() throws {
        let trust = ServerTrust(
            certificates: try TestCertificates.certificates("ecdsa/chain.pem"),
            policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.verifyDate = TestCertificates.verifyDate
        let error = unusable
        let evaluation = evaluate(trust) { () throws(SystemTrustStoreError) in throw error }
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["-:systemTrustStoreUnavailable"])
        XCTAssertEqual(evaluation.failures.first?.reason, .systemTrustStoreUnavailable(unusable))
        XCTAssertTrue(evaluation.failures.first?.description.contains("SSL_CERT_FILE=\(missing)") ?? false, "\(evaluation.failures)")
    }

    func testAnUnusableSystemStoreFailsClosedWhenAddedToCustomAnchors() throws {
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.anchorsOnly = false
        let error = unusable
        let evaluation = evaluate(trust) { () throws(SystemTrustStoreError) in throw error }
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["-:systemTrustStoreUnavailable"])
    }

    func testCustomAnchorsOnlyNeverDependOnTheSystemStore() throws {
        // The store is consulted only to classify the caller's roots (Apple asks its system source
        // whatever the anchors, AnchorSource): unusable, it classifies nothing and fails nothing.
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        let error = unusable
        assertTrusted(evaluate(trust) { () throws(SystemTrustStoreError) in throw error })
        // Usable, it adds no anchor: a chain only it could anchor is not trusted.
        let rsaChain = try TestCertificates.trust(["rsa/leaf.pem", "rsa/intermediate.pem"])
        let rsa = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": TestCertificates.path("rsa/root.pem")])
        XCTAssertFalse(evaluate(rsaChain) { rsa }.isTrusted)
    }

    func testAnExplicitlyConfiguredStoreIsTheAnchorSet() throws {
        let trust = ServerTrust(
            certificates: try TestCertificates.certificates("ecdsa/chain.pem"),
            policies: [.profile(.rfc5280, purpose: .serverAuth, hostname: TestCertificates.host)])
        trust.verifyDate = TestCertificates.verifyDate
        let ecdsa = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": TestCertificates.path("ecdsa/root.pem")])
        assertTrusted(evaluate(trust) { ecdsa })
        // Under Apple's SSL policy a system root brings the system-scoped rules: the test leaf's 730
        // days exceed the 398 allowed under system roots since 2020-09-01 (not under the caller's own).
        trust.policies = [.ssl(server: true, hostname: TestCertificates.host)]
        XCTAssertEqual(evaluate(trust) { ecdsa }.violatedRules, [.systemTrustedLeafValidityPeriod])
        // A system root is one by its bytes, however supplied (trustd asks kSecSystemAnchorSource):
        // the caller's own copy of it brings the same rules; a root outside the store does not.
        let own = ServerTrust(
            certificates: try TestCertificates.certificates("ecdsa/chain.pem"),
            policies: [.ssl(server: true, hostname: TestCertificates.host)])
        own.verifyDate = TestCertificates.verifyDate
        own.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        XCTAssertEqual(evaluate(own) { ecdsa }.violatedRules, [.systemTrustedLeafValidityPeriod])
        let rsaStore = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": TestCertificates.path("rsa/root.pem")])
        assertTrusted(evaluate(own) { rsaStore })
        trust.policies = [.profile(.rfc5280, purpose: .serverAuth, hostname: TestCertificates.host)]
        let rsa = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": TestCertificates.path("rsa/root.pem")])
        XCTAssertFalse(evaluate(trust) { rsa }.isTrusted, "only the configured anchors are trusted")
    }
}
