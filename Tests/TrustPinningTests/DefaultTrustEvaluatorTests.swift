import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class DefaultTrustEvaluatorTests: XCTestCase {
    func testMatrix() throws {
        try assertMatrix([
            EvaluatorCase(name: "valid leaf", presented: TestCertificates.validChain, evaluator: DefaultTrustEvaluator(), expected: "pass"),
            EvaluatorCase(
                name: "host is case-insensitive", presented: TestCertificates.validChain, host: "WWW.SwiftTrust.Test",
                evaluator: DefaultTrustEvaluator(), expected: "pass"),
            EvaluatorCase(
                name: "wrong host", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: DefaultTrustEvaluator(), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "wrong host, host validation off", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: DefaultTrustEvaluator(validateHost: false), expected: "pass"),
            EvaluatorCase(
                name: "expired", presented: TestCertificates.expiredChain,
                evaluator: DefaultTrustEvaluator(), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "expired, host validation off", presented: TestCertificates.expiredChain,
                evaluator: DefaultTrustEvaluator(validateHost: false), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "self-signed", presented: TestCertificates.selfSigned,
                evaluator: DefaultTrustEvaluator(), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "self-signed, trusted as the anchor", presented: TestCertificates.selfSigned, anchors: TestCertificates.selfSigned,
                evaluator: DefaultTrustEvaluator(), expected: "pass"),
            EvaluatorCase(
                name: "missing intermediate", presented: ["ecdsa/leaf.pem"],
                evaluator: DefaultTrustEvaluator(), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "client certificate is not a server certificate", presented: ["ecdsa/leaf-no-serverauth.pem", "ecdsa/intermediate.pem"],
                evaluator: DefaultTrustEvaluator(validateHost: false), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "IP address host", presented: ["ecdsa/leaf-ip.pem", "ecdsa/intermediate.pem"], host: "192.0.2.10",
                evaluator: DefaultTrustEvaluator(), expected: "pass"),
            EvaluatorCase(
                name: "other IP address", presented: ["ecdsa/leaf-ip.pem", "ecdsa/intermediate.pem"], host: "192.0.2.11",
                evaluator: DefaultTrustEvaluator(), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "RSA chain", presented: ["rsa/chain.pem"], anchors: ["rsa/root.pem"],
                evaluator: DefaultTrustEvaluator(), expected: "pass"),
        ])
    }

    func testFailuresCarryTheEvaluationReasons() throws {
        let expired = failureReason(of: DefaultTrustEvaluator(), try TestCertificates.trust(TestCertificates.expiredChain))
        XCTAssertEqual(expired?.trustFailures.map(\.certificateIndex), [0])
        guard case .expired? = expired?.trustFailures.first?.reason else { return XCTFail("\(String(describing: expired))") }
        XCTAssertTrue(
            expired?.description.hasPrefix("trust evaluation failed for www.swifttrust.test: default validation failed: certificate 0") == true)

        let wrongHost = failureReason(
            of: DefaultTrustEvaluator(), try TestCertificates.trust(TestCertificates.validChain), host: TestCertificates.otherHost)
        guard case .hostnameMismatch(expected: "api.swifttrust.test", _)? = wrongHost?.trustFailures.first?.reason else {
            return XCTFail("\(String(describing: wrongHost))")
        }
    }

    func testEvaluatorSetsTheTrustPolicies() throws {
        let trust = try TestCertificates.trust(TestCertificates.validChain)
        trust.policies = [.basicX509]
        try DefaultTrustEvaluator().evaluate(trust, forHost: TestCertificates.host)
        XCTAssertEqual(trust.policies, [.ssl(server: true, hostname: TestCertificates.host)])
        try DefaultTrustEvaluator(validateHost: false).evaluate(trust, forHost: TestCertificates.host)
        XCTAssertEqual(trust.policies, [.ssl(server: true, hostname: nil)])
    }
}
