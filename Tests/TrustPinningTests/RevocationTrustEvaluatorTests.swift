import TrustCore
import TrustPinning
import TrustX509
import XCTest

/// Without CRLs or OCSP responses, requiring a positive response must fail: today because
/// revocation checking is unavailable (ServerTrust fails closed), later because no status is known.
final class RevocationTrustEvaluatorTests: XCTestCase {
    static let strict: RevocationOptions = [.useAnyAvailableMethod, .requirePositiveResponse, .networkAccessDisabled]

    func testMatrix() throws {
        try assertMatrix([
            EvaluatorCase(name: "valid chain, no revocation information", presented: TestPKI.validChain,
                          evaluator: RevocationTrustEvaluator(options: Self.strict), expected: "revocationCheckFailed"),
            EvaluatorCase(name: "expired: default validation fails first", presented: TestPKI.expiredChain,
                          evaluator: RevocationTrustEvaluator(options: Self.strict), expected: "defaultEvaluationFailed"),
            EvaluatorCase(name: "wrong host", presented: TestPKI.validChain, host: TestPKI.otherHost,
                          evaluator: RevocationTrustEvaluator(options: Self.strict), expected: "hostValidationFailed"),
            EvaluatorCase(name: "wrong host, host validation off", presented: TestPKI.validChain, host: TestPKI.otherHost,
                          evaluator: RevocationTrustEvaluator(validateHost: false, options: Self.strict), expected: "revocationCheckFailed"),
            EvaluatorCase(name: "self-signed, no validation: the revocation step still fails", presented: TestPKI.selfSigned,
                          evaluator: RevocationTrustEvaluator(performDefaultValidation: false, validateHost: false, options: Self.strict),
                          expected: "revocationCheckFailed"),
        ])
    }

    func testUnavailableRevocationIsNamed() throws {
        let trust = try TestPKI.trust(TestPKI.validChain)
        let reason = failureReason(of: RevocationTrustEvaluator(options: Self.strict), trust)
        guard case let .revocationCheckFailed(host, options, failures)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(host, TestPKI.host)
        XCTAssertEqual(options, Self.strict)
        XCTAssertFalse(failures.isEmpty)
        XCTAssertEqual(reason?.isRevocationUnavailable, true)
        XCTAssertTrue(reason?.description.hasPrefix("revocation checking unavailable for www.swifttrust.test") == true,
                      reason?.description ?? "")
        XCTAssertEqual(trust.policies, [.revocation(Self.strict)], "the check runs on the revocation policy")
    }

    func testOtherReasonsAreNotRevocation() {
        XCTAssertFalse(ServerTrustFailureReason.noCertificatesFound.isRevocationUnavailable)
        XCTAssertFalse(ServerTrustFailureReason.revocationCheckFailed(host: "h", options: .crl, failures: []).isRevocationUnavailable)
    }
}
