import TrustCore
import TrustPinning
import XCTest

/// `ServerTrustFailureReason`'s synthesized `==`: equal when the case and every value are; a custom
/// evaluator's error compared by value (or by type when it cannot be compared), never by text.
final class ServerTrustFailureReasonEqualityTests: XCTestCase {
    private struct Refusal: Error, Hashable { let code: Int }
    private struct Opaque: Error { let text: String }

    private let pin = PinDescription(value: "sha256/AAAA", subject: "CN=a")
    private let otherPin = PinDescription(value: "sha256/BBBB", subject: "CN=a")

    func testEqualValuesAreEqualAndHashAlike() {
        let pairs: [(ServerTrustFailureReason, ServerTrustFailureReason)] = [
            (.noRequiredEvaluator(host: "a.test"), .noRequiredEvaluator(host: "a.test")),
            (.noCertificatesFound, .noCertificatesFound),
            (
                .trustEvaluationFailed(host: "a.test", stage: .hostValidation, failures: []),
                .trustEvaluationFailed(host: "a.test", stage: .hostValidation, failures: [])
            ),
            (
                .certificatePinningFailed(host: "a.test", pinned: [pin], presented: [otherPin]),
                .certificatePinningFailed(host: "a.test", pinned: [pin], presented: [otherPin])
            ),
            (
                .customEvaluationFailed(host: "a.test", error: ComparableError(Refusal(code: 1))),
                .customEvaluationFailed(host: "a.test", error: ComparableError(Refusal(code: 1)))
            ),
            (
                .customEvaluationFailed(host: "a.test", error: ComparableError(Opaque(text: "x"))),
                .customEvaluationFailed(host: "a.test", error: ComparableError(Opaque(text: "y")))
            ),
            (
                .optionsNotEnforceable(host: "a.test", evaluator: "DisabledTrustEvaluator", options: TrustOptions()),
                .optionsNotEnforceable(host: "a.test", evaluator: "DisabledTrustEvaluator", options: TrustOptions())
            ),
        ]
        for (one, other) in pairs {
            XCTAssertEqual(one, other)
            XCTAssertEqual(one.hashValue, other.hashValue, "\(one)")
        }
    }

    func testDifferingPayloadsAndCasesAreNotEqual() {
        let distinct: [ServerTrustFailureReason] = [
            .noRequiredEvaluator(host: "a.test"),
            .noRequiredEvaluator(host: "b.test"),
            .noCertificatesFound,
            .noPublicKeysFound,
            .trustEvaluationFailed(host: "a.test", stage: .hostValidation, failures: []),
            .trustEvaluationFailed(host: "a.test", stage: .defaultValidation, failures: []),
            .certificatePinningFailed(host: "a.test", pinned: [pin], presented: [otherPin]),
            .certificatePinningFailed(host: "a.test", pinned: [otherPin], presented: [otherPin]),
            .publicKeyPinningFailed(host: "a.test", pinned: [pin], presented: [otherPin]),
            .customEvaluationFailed(host: "a.test", error: ComparableError(Refusal(code: 1))),
            .customEvaluationFailed(host: "a.test", error: ComparableError(Refusal(code: 2))),
            .customEvaluationFailed(host: "b.test", error: ComparableError(Refusal(code: 1))),
            .customEvaluationFailed(host: "a.test", error: ComparableError(Opaque(text: "x"))),
            .optionsNotEnforceable(host: "a.test", evaluator: "DisabledTrustEvaluator", options: TrustOptions()),
            .optionsNotEnforceable(host: "a.test", evaluator: "PinnedCertificatesTrustEvaluator", options: TrustOptions()),
        ]
        XCTAssertEqual(Set(distinct).count, distinct.count)
        for (index, one) in distinct.enumerated() {
            for other in distinct[(index + 1)...] { XCTAssertNotEqual(one, other) }
        }
    }
}
