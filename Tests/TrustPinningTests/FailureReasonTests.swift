import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class FailureReasonTests: XCTestCase {
    func testSummariesNameTheHostAndRule() throws {
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        let untrusted = TrustFailure(.untrustedRoot, certificate: leaf, index: 0)
        let cases: [(ServerTrustFailureReason, String)] = [
            (.noRequiredEvaluator(host: "h.test"), "no server trust evaluator is configured for host h.test, and all hosts must be evaluated"),
            (.noCertificatesFound, "certificate pinning is configured with no certificates"),
            (.noPublicKeysFound, "public-key pinning is configured with no keys"),
            (
                .trustEvaluationFailed(host: "h.test", stage: .defaultValidation, failures: [untrusted]),
                "trust evaluation failed for h.test: default validation failed"
            ),
            (
                .trustEvaluationFailed(host: "h.test", stage: .hostValidation, failures: []),
                "trust evaluation failed for h.test: host validation failed"
            ),
            (
                .trustEvaluationFailed(host: "h.test", stage: .revocation([.crl, .requirePositiveResponse]), failures: []),
                "trust evaluation failed for h.test: revocation check failed (options: crl, requirePositiveResponse)"
            ),
            (
                .certificatePinningFailed(host: "h.test", pinned: [], presented: [.certificate(leaf)]),
                "certificate pinning failed for h.test: none of the 0 pinned certificates [] is among the server's certificates ["
                    + PinDescription.certificate(leaf).description + "]"
            ),
        ]
        for (reason, summary) in cases {
            XCTAssertEqual(reason.summary, summary)
        }
        let withFailures = ServerTrustFailureReason.trustEvaluationFailed(host: "h.test", stage: .defaultValidation, failures: [untrusted])
        XCTAssertEqual(withFailures.trustFailures, [untrusted])
        XCTAssertEqual(
            withFailures.description,
            "trust evaluation failed for h.test: default validation failed: certificate 0 (CN=www.swifttrust.test,O=SwiftTrust): chain does not end at a trusted anchor"
        )
        XCTAssertEqual(ServerTrustFailureReason.noCertificatesFound.description, ServerTrustFailureReason.noCertificatesFound.summary)
    }

    func testPinDescriptions() throws {
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        XCTAssertEqual(PinDescription.certificate(leaf).value, "sha256:" + Certificate.hex(leaf.sha256Fingerprint, separator: ":"))
        XCTAssertEqual(PinDescription.publicKey(of: leaf).description, leaf.spkiPin + " (CN=www.swifttrust.test,O=SwiftTrust)")
        XCTAssertEqual(PinDescription(value: "sha256/x", subject: nil).description, "sha256/x")
        XCTAssertEqual(PinDescription(value: "v", subject: "").description, "v (empty subject)")
    }
}
