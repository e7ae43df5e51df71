import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class PinnedCertificatesTrustEvaluatorTests: XCTestCase {
    private func pinning(
        _ files: [String], acceptSelfSigned: Bool = false, defaultValidation: Bool = true,
        validateHost: Bool = true
    ) throws -> PinnedCertificatesTrustEvaluator {
        PinnedCertificatesTrustEvaluator(
            certificates: try files.flatMap(TestCertificates.certificates),
            acceptSelfSignedCertificates: acceptSelfSigned,
            performDefaultValidation: defaultValidation, validateHost: validateHost)
    }

    func testMatrix() throws {
        try assertMatrix([
            EvaluatorCase(
                name: "pinned leaf", presented: TestCertificates.validChain,
                evaluator: try pinning(["ecdsa/leaf.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "pinned intermediate", presented: TestCertificates.validChain,
                evaluator: try pinning(["ecdsa/intermediate.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "pinned root, not sent by the server: found in the validated chain", presented: TestCertificates.validChain,
                evaluator: try pinning(["ecdsa/root.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "pinned root, not sent, no validation: an anchor, so in the built chain", presented: TestCertificates.validChain,
                evaluator: try pinning(["ecdsa/root.pem"], defaultValidation: false, validateHost: false),
                expected: "pass"),
            EvaluatorCase(
                name: "pinned root, sent by the server, no validation", presented: ["scenarios/chain-with-root.pem"],
                evaluator: try pinning(["ecdsa/root.pem"], defaultValidation: false, validateHost: false), expected: "pass"),
            EvaluatorCase(
                name: "wrong pin", presented: TestCertificates.validChain,
                evaluator: try pinning(["rsa/leaf.pem", "ecdsa/intermediate2.pem"]), expected: "certificatePinningFailed"),
            EvaluatorCase(
                name: "one of several pins", presented: TestCertificates.validChain,
                evaluator: try pinning(["rsa/leaf.pem", "ecdsa/leaf.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "expired, pinned", presented: TestCertificates.expiredChain,
                evaluator: try pinning(["ecdsa/leaf-expired.pem"]), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "expired, pinned, default and host validation off", presented: TestCertificates.expiredChain,
                evaluator: try pinning(["ecdsa/leaf-expired.pem"], defaultValidation: false, validateHost: false),
                expected: "pass"),
            EvaluatorCase(
                name: "wrong host", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: try pinning(["ecdsa/leaf.pem"]), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "wrong host, host validation off", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: try pinning(["ecdsa/leaf.pem"], validateHost: false), expected: "pass"),
            EvaluatorCase(
                name: "self-signed, pinned, not accepted", presented: TestCertificates.selfSigned,
                evaluator: try pinning(TestCertificates.selfSigned), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "self-signed, pinned, accepted", presented: TestCertificates.selfSigned,
                evaluator: try pinning(TestCertificates.selfSigned, acceptSelfSigned: true), expected: "pass"),
            EvaluatorCase(
                name: "self-signed, accepted, wrong host", presented: TestCertificates.selfSigned, host: TestCertificates.otherHost,
                evaluator: try pinning(TestCertificates.selfSigned, acceptSelfSigned: true), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "self-signed, other certificate accepted", presented: TestCertificates.selfSigned,
                evaluator: try pinning(["ecdsa/leaf.pem"], acceptSelfSigned: true), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "private CA: pinned intermediate accepted as the only anchor", presented: TestCertificates.validChain,
                anchors: ["scenarios/root2.pem"],
                evaluator: try pinning(["ecdsa/intermediate.pem"], acceptSelfSigned: true), expected: "pass"),
            EvaluatorCase(
                name: "untrusted root, pinned intermediate, not accepted", presented: TestCertificates.validChain,
                anchors: ["scenarios/root2.pem"],
                evaluator: try pinning(["ecdsa/intermediate.pem"]), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "self-signed, default validation off, host validation on (a full evaluation, as in Alamofire)",
                presented: TestCertificates.selfSigned,
                evaluator: try pinning(TestCertificates.selfSigned, defaultValidation: false), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "self-signed, default and host validation off", presented: TestCertificates.selfSigned,
                evaluator: try pinning(TestCertificates.selfSigned, defaultValidation: false, validateHost: false), expected: "pass"),
            EvaluatorCase(
                name: "no certificates", presented: TestCertificates.validChain,
                evaluator: PinnedCertificatesTrustEvaluator(certificates: []), expected: "noCertificatesFound"),
            // A server with a valid chain from another CA appends the (public) pinned intermediate:
            // it is not part of the validated chain, so it does not satisfy the pin.
            EvaluatorCase(
                name: "pinned certificate appended outside the validated chain",
                presented: ["rsa/chain.pem", "ecdsa/intermediate.pem"], anchors: ["rsa/root.pem", "ecdsa/root.pem"],
                evaluator: try pinning(["ecdsa/intermediate.pem"]), expected: "certificatePinningFailed"),
        ])
    }

    func testAcceptingSelfSignedReplacesTheAnchors() throws {
        let trust = try TestCertificates.trust(TestCertificates.selfSigned)
        trust.anchorsOnly = false
        let pinned = try TestCertificates.selfSigned.flatMap(TestCertificates.certificates)
        try PinnedCertificatesTrustEvaluator(certificates: pinned, acceptSelfSignedCertificates: true).evaluate(trust, forHost: TestCertificates.host)
        XCTAssertEqual(trust.anchorCertificates, pinned)
        XCTAssertTrue(trust.anchorsOnly)
    }

    func testFailureListsPinnedAndPresentedFingerprints() throws {
        let wrong = try TestCertificates.certificate("rsa/leaf.pem")
        let reason = failureReason(
            of: PinnedCertificatesTrustEvaluator(certificates: [wrong, wrong]), try TestCertificates.trust(TestCertificates.validChain))
        guard case let .certificatePinningFailed(host, pinned, presented)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(host, TestCertificates.host)
        XCTAssertEqual(pinned, [PinDescription.certificate(wrong)], "duplicates are removed")
        let chain = try TestCertificates.validChain.flatMap(TestCertificates.certificates) + [TestCertificates.certificate("ecdsa/root.pem")]
        XCTAssertEqual(presented, chain.map(PinDescription.certificate), "the validated chain, root included")
        let text = reason?.description ?? ""
        XCTAssertTrue(text.contains("none of the 1 pinned certificates [sha256:"), text)
        XCTAssertTrue(text.contains(Certificate.hex(wrong.sha256Fingerprint, separator: ":")), text)
        XCTAssertTrue(text.contains("(CN=www.swifttrust.test,O=SwiftTrust)"), text)
    }
}
