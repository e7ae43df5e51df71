import TrustCore
import TrustPinning
import TrustSession
import XCTest

/// `TLSTrustFailure`'s synthesized `==`: equal when the case and every value are, an underlying
/// error compared by value (or by type when it cannot be compared), never by text.
final class TLSTrustFailureEqualityTests: XCTestCase {
    private struct Refusal: Error, Hashable { let code: Int }
    private struct Opaque: Error { let text: String }

    func testEqualValuesAreEqualAndHashAlike() {
        let pairs: [(TLSTrustFailure, TLSTrustFailure)] = [
            (.noPeerCertificates, .noPeerCertificates),
            (.malformedPeerCertificate(index: 1, error: ComparableError(Refusal(code: 1))),
             .malformedPeerCertificate(index: 1, error: ComparableError(Refusal(code: 1)))),
            (.evaluatorRejected(host: "a.test", error: ComparableError(Opaque(text: "x"))),
             .evaluatorRejected(host: "a.test", error: ComparableError(Opaque(text: "y")))),
            (.securityPolicyRejected(host: "a.test", failure: .noPinnedCertificates),
             .securityPolicyRejected(host: "a.test", failure: .noPinnedCertificates)),
            (.challengeCancelled(host: "a.test", error: nil), .challengeCancelled(host: "a.test", error: nil)),
            (.challengeCancelled(host: "a.test", error: ComparableError(Refusal(code: 2))),
             .challengeCancelled(host: "a.test", error: ComparableError(Refusal(code: 2)))),
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
            .evaluatorRejected(host: "a.test", error: ComparableError(Refusal(code: 1))),
            .evaluatorRejected(host: "b.test", error: ComparableError(Refusal(code: 1))),
            .evaluatorRejected(host: "a.test", error: ComparableError(Opaque(text: "x"))),
            .securityPolicyRejected(host: "a.test", failure: .noPinnedCertificates),
            .securityPolicyRejected(host: "a.test", failure: .domainValidationRequiresPinning(domain: "a.test")),
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
