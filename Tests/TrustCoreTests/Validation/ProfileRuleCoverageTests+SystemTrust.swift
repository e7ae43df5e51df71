import Foundation
@testable import TrustCore
import TrustX509
import OpenSSLServerSupport
import TrustTestSupport
import XCTest

/// Profile rules scoped to chains that end at a system-store anchor, on a leaf openssl issues in the
/// test, under every profile. The system store is supplied to the evaluation directly (internal API),
/// so the process environment and the shared store are left alone.
extension ProfileRuleCoverageTests {
    func testLeafValidityUnderASystemRoot() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // Issued now for 400 days: over Apple's 398 under system roots, within the 825 under others.
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), days: 400).certificate
        let chain = [leaf, try TestCertificates.certificate("ecdsa/intermediate.pem")]
        let system = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": TestCertificates.path("ecdsa/root.pem")])
        try assertRule(.systemTrustedLeafValidityPeriod, detail: .leafValidityTooLong(days: 400, limit: .systemTrustedFromSeptember2020)) { profile in
            let trust = ServerTrust(certificates: chain, policies: [.profile(profile, purpose: .serverAuth, hostname: host)])
            return TrustEngine.evaluate(EvaluationSnapshot(trust.snapshot)) { system }
        }
        // The same root as the caller's own anchor: the system-scoped limit does not apply.
        try assertTrustedUnderEveryProfile(leaf: leaf)
    }
}
