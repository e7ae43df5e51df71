import Foundation
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 33, item 2: every failed evaluation is the one reason Alamofire 5 throws on current Apple
/// systems, `trustEvaluationFailed` (`SecTrust.af.evaluate()`), with the typed failures inside; a
/// pin mismatch stays `certificatePinningFailed` / `publicKeyPinningFailed`. The tests are
/// Alamofire's `TLSEvaluationTests` (run there against badssl.com), reproduced on our certificates:
/// each asserts `isTrustEvaluationFailed` where Alamofire does.
final class AlamofireErrorShapeTests: XCTestCase {
    private func isTrustEvaluationFailed(
        _ reason: ServerTrustFailureReason?, stage expected: TrustEvaluationStage,
        rule: (TrustFailureReason) -> Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case let .trustEvaluationFailed(host, stage, failures)? = reason else {
            return XCTFail("expected trustEvaluationFailed, got \(String(describing: reason))", file: file, line: line)
        }
        XCTAssertEqual(host, TestCertificates.host, file: file, line: line)
        XCTAssertEqual(stage, expected, file: file, line: line)
        XCTAssertTrue(failures.contains { rule($0.reason) }, "\(failures)", file: file, line: line)
        XCTAssertEqual(reason?.trustFailures, failures, file: file, line: line)
    }

    private let expired: (TrustFailureReason) -> Bool = { if case .expired = $0 { true } else { false } }

    /// `testThatExpiredCertificateRequestFailsWithDefaultServerTrustPolicy`.
    func testThatExpiredCertificateRequestFailsWithDefaultServerTrustPolicy() throws {
        isTrustEvaluationFailed(
            failureReason(of: DefaultTrustEvaluator(), try TestCertificates.trust(TestCertificates.expiredChain)),
            stage: .defaultValidation, rule: expired)
    }

    /// `testThatRevokedCertificateRequestFailsWithRevokedServerTrustPolicy`: the revoked leaf is
    /// reported inside the same reason, at the revocation stage.
    func testThatRevokedCertificateRequestFailsWithRevokedServerTrustPolicy() throws {
        let trust = try TestCertificates.trust(["revocation/revoked-leaf.pem", "ecdsa/intermediate.pem"])
        trust.setCRLs(
            try ["intermediate-current", "root-empty"].map { name in
                try CertificateRevocationList(
                    derEncoded: Array(Data(contentsOf: TestCertificates.directory.appendingPathComponent("revocation/\(name).crl"))))
            })
        isTrustEvaluationFailed(
            failureReason(of: RevocationTrustEvaluator(options: .crl), trust), stage: .revocation(.crl),
            rule: { if case .revoked = $0 { true } else { false } })
    }

    /// `testThatExpiredCertificateRequestFailsWhenPinningLeafCertificateWithCertificateChainValidation`.
    func testThatExpiredCertificateRequestFailsWhenPinningLeafCertificateWithCertificateChainValidation() throws {
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: try TestCertificates.certificates("ecdsa/leaf-expired.pem"))
        isTrustEvaluationFailed(
            failureReason(of: evaluator, try TestCertificates.trust(TestCertificates.expiredChain)), stage: .defaultValidation, rule: expired)
    }

    /// `testThatExpiredCertificateRequestFailsWhenPinningAllCertificatesWithCertificateChainValidation`.
    func testThatExpiredCertificateRequestFailsWhenPinningAllCertificatesWithCertificateChainValidation() throws {
        let all = try ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem"].flatMap(TestCertificates.certificates)
        isTrustEvaluationFailed(
            failureReason(of: PinnedCertificatesTrustEvaluator(certificates: all), try TestCertificates.trust(TestCertificates.expiredChain)),
            stage: .defaultValidation, rule: expired)
    }

    /// `testThatExpiredCertificateRequestFailsWhenPinningLeafPublicKeyWithCertificateChainValidation`.
    func testThatExpiredCertificateRequestFailsWhenPinningLeafPublicKeyWithCertificateChainValidation() throws {
        let evaluator = PublicKeysTrustEvaluator(keys: try TestCertificates.certificates("ecdsa/leaf-expired.pem").map(\.publicKeyInfo))
        isTrustEvaluationFailed(
            failureReason(of: evaluator, try TestCertificates.trust(TestCertificates.expiredChain)), stage: .defaultValidation, rule: expired)
    }

    /// A wrong host is the same reason, at the host stage (Alamofire's legacy `hostValidationFailed`).
    func testAWrongHostIsATrustEvaluationFailureAtTheHostStage() throws {
        let reason = failureReason(
            of: DefaultTrustEvaluator(), try TestCertificates.trust(TestCertificates.validChain), host: TestCertificates.otherHost)
        guard case let .trustEvaluationFailed(host, .hostValidation, failures)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(host, TestCertificates.otherHost)
        XCTAssertTrue(failures.contains { if case .hostnameMismatch = $0.reason { true } else { false } }, "\(failures)")
        XCTAssertEqual(TrustEvaluationStage.hostValidation.legacyAlamofireReason, "hostValidationFailed")
    }

    /// A pin mismatch on a trusted chain is not an evaluation failure, in Alamofire as here.
    func testAPinMismatchIsNotATrustEvaluationFailure() throws {
        let wrongCertificate = PinnedCertificatesTrustEvaluator(certificates: try TestCertificates.certificates("rsa/leaf.pem"))
        let wrongKey = PublicKeysTrustEvaluator(keys: try TestCertificates.certificates("rsa/leaf.pem").map(\.publicKeyInfo))
        XCTAssertEqual(outcome(of: wrongCertificate, try TestCertificates.trust(TestCertificates.validChain)), "certificatePinningFailed")
        XCTAssertEqual(outcome(of: wrongKey, try TestCertificates.trust(TestCertificates.validChain)), "publicKeyPinningFailed")
    }
}
