import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class PublicKeysTrustEvaluatorTests: XCTestCase {
    private func keys(_ files: [String], defaultValidation: Bool = true, validateHost: Bool = true) throws -> PublicKeysTrustEvaluator {
        PublicKeysTrustEvaluator(
            keys: try files.flatMap(TestCertificates.certificates).publicKeys,
            performDefaultValidation: defaultValidation, validateHost: validateHost)
    }

    func testMatrix() throws {
        try assertMatrix([
            EvaluatorCase(name: "pinned leaf key", presented: TestCertificates.validChain, evaluator: try keys(["ecdsa/leaf.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "pinned intermediate key", presented: TestCertificates.validChain,
                evaluator: try keys(["ecdsa/intermediate.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "pinned root key (root not sent)", presented: TestCertificates.validChain,
                evaluator: try keys(["ecdsa/root.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "wrong key", presented: TestCertificates.validChain,
                evaluator: try keys(["ecdsa/leaf-multi-dns.pem", "rsa/root.pem"]), expected: "publicKeyPinningFailed"),
            EvaluatorCase(
                name: "expired, pinned", presented: TestCertificates.expiredChain,
                evaluator: try keys(["ecdsa/leaf-expired.pem"]), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "expired, pinned, no validation", presented: TestCertificates.expiredChain,
                evaluator: try keys(["ecdsa/leaf-expired.pem"], defaultValidation: false, validateHost: false), expected: "pass"),
            EvaluatorCase(
                name: "wrong host", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: try keys(["ecdsa/leaf.pem"]), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "wrong host, host validation off", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: try keys(["ecdsa/leaf.pem"], validateHost: false), expected: "pass"),
            EvaluatorCase(
                name: "self-signed, pinned key", presented: TestCertificates.selfSigned,
                evaluator: try keys(TestCertificates.selfSigned), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "self-signed, pinned key, no validation", presented: TestCertificates.selfSigned,
                evaluator: try keys(TestCertificates.selfSigned, defaultValidation: false, validateHost: false), expected: "pass"),
            EvaluatorCase(
                name: "self-signed, other key, no validation", presented: TestCertificates.selfSigned,
                evaluator: try keys(["ecdsa/leaf.pem"], defaultValidation: false, validateHost: false),
                expected: "publicKeyPinningFailed"),
            // The cross-signed twins share one key: pinning the key of a certificate the server does
            // not use still matches, as key pinning survives re-issuance.
            EvaluatorCase(
                name: "same key, other certificate", presented: ["scenarios/cross-leaf.pem", "scenarios/cross-intermediate-by-root.pem"],
                evaluator: try keys(["scenarios/cross-intermediate-by-root2.pem"]), expected: "pass"),
            EvaluatorCase(
                name: "no keys", presented: TestCertificates.validChain,
                evaluator: PublicKeysTrustEvaluator(keys: []), expected: "noPublicKeysFound"),
        ])
    }

    func testFailureListsPins() throws {
        let pinned = try TestCertificates.certificate("rsa/root.pem")
        let reason = failureReason(
            of: PublicKeysTrustEvaluator(keys: [pinned.publicKeyInfo]), try TestCertificates.trust(TestCertificates.validChain))
        guard case let .publicKeyPinningFailed(_, pins, presented)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(pins.map(\.value), [pinned.spkiPin])
        XCTAssertEqual(presented.map(\.value).count, 3)
        XCTAssertEqual(presented.first, PinDescription.publicKey(of: try TestCertificates.certificate("ecdsa/leaf.pem")))
        XCTAssertTrue(reason?.description.contains(pinned.spkiPin) == true)
    }

    func testPublicKeysOfCertificates() throws {
        let certificates = try TestCertificates.certificates("bundle-all-valid.pem")
        XCTAssertEqual(certificates.count, 7)
        XCTAssertEqual(certificates.publicKeys, certificates.map(\.publicKeyInfo))
        XCTAssertEqual((certificates + certificates).publicKeys.count, 7, "duplicates removed")
    }
}
