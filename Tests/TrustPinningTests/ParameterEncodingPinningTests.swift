import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// A chain whose leaf has absent inner RSA parameters (as Alamofire's test certificates) pins
/// like any other.
final class ParameterEncodingPinningTests: XCTestCase {
    func testPinningALeafWithAbsentInnerRSAParameters() throws {
        let presented = ["rsa/leaf-params-absent.pem", "rsa/intermediate.pem"]
        try assertMatrix([
            EvaluatorCase(
                name: "pinned certificate", presented: presented, anchors: ["rsa/root.pem"],
                evaluator: PinnedCertificatesTrustEvaluator(certificates: try TestCertificates.certificates("rsa/leaf-params-absent.pem")),
                expected: "pass"),
            EvaluatorCase(
                name: "pinned public key", presented: presented, anchors: ["rsa/root.pem"],
                evaluator: PublicKeysTrustEvaluator(keys: try TestCertificates.certificates("rsa/leaf-params-absent.pem").map(\.publicKeyInfo)),
                expected: "pass"),
            EvaluatorCase(
                name: "default evaluation", presented: presented, anchors: ["rsa/root.pem"],
                evaluator: DefaultTrustEvaluator(), expected: "pass"),
        ])
    }
}
