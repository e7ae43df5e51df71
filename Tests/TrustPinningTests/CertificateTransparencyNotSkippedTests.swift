import Foundation
import TrustCore
import TrustPinning
import TrustTestSupport
import TrustX509
import XCTest

/// An evaluator or security policy that would accept without evaluating refuses a trust configured
/// with Certificate Transparency logs (which only an evaluation enforces) instead of ignoring them;
/// once an evaluation under the logs trusted the chain, the refusal is lifted.
final class CertificateTransparencyNotSkippedTests: XCTestCase {
    private static let host = "www.swifttrust.test"

    private func trust(logs: Bool) throws -> ServerTrust {
        let trust = ServerTrust(
            certificates: try TestCertificates.certificates("ecdsa/chain.pem"),
            policies: [.ssl(server: true, hostname: Self.host)])
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = Date(timeIntervalSince1970: 1_780_272_000)
        if logs {
            let file = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures/log-list.json")
            trust.setTrustedLogs(try CTLogList.loadJSON(try Data(contentsOf: file), file: file.lastPathComponent))
        }
        return trust
    }

    func testSkippingEvaluatorsRefuseATrustWithLogs() throws {
        let keys = try TestCertificates.certificates("ecdsa/intermediate.pem").publicKeys
        let evaluators: [any ServerTrustEvaluating] = [
            DisabledTrustEvaluator(),
            PublicKeysTrustEvaluator(keys: keys, performDefaultValidation: false, validateHost: false),
        ]
        for evaluator in evaluators {
            let name = String(describing: type(of: evaluator))
            XCTAssertNoThrow(try evaluator.evaluate(try trust(logs: false), forHost: Self.host), name)
            XCTAssertThrowsError(try evaluator.evaluate(try trust(logs: true), forHost: Self.host), name) {
                XCTAssertEqual($0 as? ServerTrustFailureReason, .certificateTransparencyNotEnforceable(host: Self.host, evaluator: name))
            }
            // An evaluation under the logs that trusted the chain is what the refusal asks for.
            let evaluated = try trust(logs: true)
            XCTAssertTrue(evaluated.evaluate().isTrusted)
            XCTAssertNoThrow(try evaluator.evaluate(evaluated, forHost: Self.host), name)
        }
    }

    func testASecurityPolicyAllowingInvalidCertificatesRefusesATrustWithLogs() throws {
        var policy = SecurityPolicy()
        policy.allowInvalidCertificates = true
        policy.validatesDomainName = false
        XCTAssertNoThrow(try policy.evaluateWithError(try trust(logs: false), forDomain: nil))
        XCTAssertThrowsError(try policy.evaluateWithError(try trust(logs: true), forDomain: nil)) {
            XCTAssertEqual($0 as? SecurityPolicyFailure, .certificateTransparencyNotEnforceable)
        }
    }
}
