import TrustCore
import TrustPinning
import TrustSession
import XCTest

/// `TLSTrustFailure`'s synthesized `==`: equal when the case and every value are, an underlying
/// error compared by value (or by type when it cannot be compared), never by text.
final class TLSTrustFailureEqualityTests: XCTestCase {
    private struct Refusal: Error, Hashable { let code: Int }
    private struct Opaque: Error { let text: String }
    private struct Refused: TLSTrustJudgeFailure { let code: Int; var description: String { "refused \(code)" } }

    private func rejected(_ host: String, _ failure: any TLSTrustJudgeFailure) -> TLSTrustFailure {
        .judgeRejected(host: host, failure: AnyTLSTrustJudgeFailure(failure))
    }

    func testEqualValuesAreEqualAndHashAlike() {
        let pairs: [(TLSTrustFailure, TLSTrustFailure)] = [
            (.noPeerCertificates, .noPeerCertificates),
            (
                .malformedPeerCertificate(index: 1, error: ComparableError(Refusal(code: 1))),
                .malformedPeerCertificate(index: 1, error: ComparableError(Refusal(code: 1)))
            ),
            (
                rejected("a.test", ServerTrustFailureReason.customEvaluationFailed(host: "a.test", error: ComparableError(Opaque(text: "x")))),
                rejected("a.test", ServerTrustFailureReason.customEvaluationFailed(host: "a.test", error: ComparableError(Opaque(text: "y"))))
            ),
            (rejected("a.test", SecurityPolicyFailure.noPinnedCertificates), rejected("a.test", SecurityPolicyFailure.noPinnedCertificates)),
            (rejected("a.test", Refused(code: 1)), rejected("a.test", Refused(code: 1))),
            (.challengeCancelled(host: "a.test", error: nil), .challengeCancelled(host: "a.test", error: nil)),
            (
                .challengeCancelled(host: "a.test", error: ComparableError(Refusal(code: 2))),
                .challengeCancelled(host: "a.test", error: ComparableError(Refusal(code: 2)))
            ),
            (.protectionSpaceRejected(host: "a.test"), .protectionSpaceRejected(host: "a.test")),
            (.verifierMisconfigured(.clientAnchorsNotExplicit), .verifierMisconfigured(.clientAnchorsNotExplicit)),
            (.anchorsUnavailable(.notLoaded(source: "/etc/anchors")), .anchorsUnavailable(.notLoaded(source: "/etc/anchors"))),
        ]
        for (one, other) in pairs {
            XCTAssertEqual(one, other)
            XCTAssertEqual(one.hashValue, other.hashValue, "\(one)")
        }
    }

    func testDifferingPayloadsAndCasesAreNotEqual() {
        let distinct: [TLSTrustFailure] = [
            .noPeerCertificates,
            .malformedPeerCertificate(index: 0, error: ComparableError(Refusal(code: 1))),
            .malformedPeerCertificate(index: 1, error: ComparableError(Refusal(code: 1))),
            .malformedPeerCertificate(index: 1, error: ComparableError(Refusal(code: 2))),
            rejected("a.test", ServerTrustFailureReason.customEvaluationFailed(host: "a.test", error: ComparableError(Refusal(code: 1)))),
            rejected("b.test", ServerTrustFailureReason.customEvaluationFailed(host: "a.test", error: ComparableError(Refusal(code: 1)))),
            rejected("a.test", ServerTrustFailureReason.customEvaluationFailed(host: "a.test", error: ComparableError(Opaque(text: "x")))),
            rejected("a.test", ServerTrustFailureReason.noRequiredEvaluator(host: "a.test")),
            rejected("a.test", SecurityPolicyFailure.noPinnedCertificates),
            rejected("a.test", SecurityPolicyFailure.domainValidationRequiresPinning(domain: "a.test")),
            rejected("a.test", Refused(code: 1)),
            rejected("a.test", Refused(code: 2)),
            .challengeCancelled(host: "a.test", error: nil),
            .challengeCancelled(host: "a.test", error: ComparableError(Refusal(code: 1))),
            .protectionSpaceRejected(host: "a.test"),
            .protectionSpaceRejected(host: "b.test"),
            .verifierMisconfigured(.clientAnchorsNotExplicit),
            .verifierMisconfigured(.anchorsAndAnchorProvider),
            .anchorsUnavailable(.notLoaded(source: "/etc/anchors")),
            .anchorsUnavailable(.notLoaded(source: "/etc/other")),
        ]
        XCTAssertEqual(Set(distinct).count, distinct.count)
        for (index, one) in distinct.enumerated() {
            for other in distinct[(index + 1)...] { XCTAssertNotEqual(one, other) }
        }
    }
}
