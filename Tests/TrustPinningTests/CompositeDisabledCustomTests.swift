import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class CompositeDisabledCustomTests: XCTestCase {
    struct Rejected: Error, Equatable {}

    func testDisabledAcceptsAnything() throws {
        try assertMatrix([
            EvaluatorCase(name: "expired", presented: TestCertificates.expiredChain, evaluator: DisabledTrustEvaluator(), expected: "pass"),
            EvaluatorCase(name: "self-signed", presented: TestCertificates.selfSigned, evaluator: DisabledTrustEvaluator(), expected: "pass"),
            EvaluatorCase(
                name: "wrong host", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: DisabledTrustEvaluator(), expected: "pass"),
        ])
    }

    func testCompositeRequiresEveryEvaluatorAndThrowsTheFirstFailure() throws {
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        let wrong = try TestCertificates.certificate("rsa/leaf.pem")
        try assertMatrix([
            EvaluatorCase(
                name: "all pass", presented: TestCertificates.validChain,
                evaluator: CompositeTrustEvaluator(evaluators: [
                    DefaultTrustEvaluator(),
                    PinnedCertificatesTrustEvaluator(certificates: [leaf]),
                ]),
                expected: "pass"),
            EvaluatorCase(
                name: "pin fails", presented: TestCertificates.validChain,
                evaluator: CompositeTrustEvaluator(evaluators: [
                    DefaultTrustEvaluator(),
                    PinnedCertificatesTrustEvaluator(certificates: [wrong]),
                ]),
                expected: "certificatePinningFailed"),
            EvaluatorCase(
                name: "first failure wins", presented: TestCertificates.expiredChain,
                evaluator: CompositeTrustEvaluator(evaluators: [
                    DefaultTrustEvaluator(),
                    PinnedCertificatesTrustEvaluator(certificates: [wrong]),
                ]),
                expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "empty composite accepts, as in Alamofire", presented: TestCertificates.expiredChain,
                evaluator: CompositeTrustEvaluator(evaluators: []), expected: "pass"),
        ])
    }

    func testCompositeRunsInOrder() throws {
        struct Marker: Error, Equatable { let name: String }
        let composite = CompositeTrustEvaluator(evaluators: [
            CustomTrustEvaluator { _, _ in },
            CustomTrustEvaluator { _, _ in throw Marker(name: "second") },
            CustomTrustEvaluator { _, _ in throw Marker(name: "third") },
        ])
        let reason = failureReason(of: composite, try TestCertificates.trust(TestCertificates.validChain))
        guard case let .customEvaluationFailed(_, error)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(error.error as? Marker, Marker(name: "second"))
        XCTAssertEqual(composite.evaluators.count, 3)
    }

    func testCustomEvaluator() throws {
        let shortChains = CustomTrustEvaluator { trust, _ in
            guard trust.certificates.count == 1 else { throw Rejected() }
        }
        XCTAssertEqual(outcome(of: shortChains, try TestCertificates.trust(TestCertificates.selfSigned)), "pass")
        let reason = failureReason(of: shortChains, try TestCertificates.trust(TestCertificates.validChain))
        guard case let .customEvaluationFailed(host, error)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(host, TestCertificates.host)
        XCTAssertEqual(error.error as? Rejected, Rejected())
        XCTAssertTrue(reason?.description.hasPrefix("custom evaluation failed for www.swifttrust.test") == true)

        let delegating = CustomTrustEvaluator { trust, host in try DefaultTrustEvaluator().evaluate(trust, forHost: host) }
        XCTAssertEqual(
            outcome(of: delegating, try TestCertificates.trust(TestCertificates.expiredChain)), "trustEvaluationFailed/default",
            "a ServerTrustFailureReason passes through unwrapped")
        XCTAssertEqual(outcome(of: delegating, try TestCertificates.trust(TestCertificates.validChain)), "pass")
    }
}
