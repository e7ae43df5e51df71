import Foundation
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class PinnedSPKIHashesTrustEvaluatorTests: XCTestCase {
    /// A well-formed pin of no test key: the backup.
    static let backup = "sha256/" + String(repeating: "A", count: 43) + "="

    private func pin(_ file: String) throws -> String { try TestCertificates.certificate(file).spkiPin }

    private func spki(
        _ pins: [String], expiration: Date? = nil, defaultValidation: Bool = true,
        validateHost: Bool = true
    ) throws -> PinnedSPKIHashesTrustEvaluator {
        try PinnedSPKIHashesTrustEvaluator(
            pins: pins, expirationDate: expiration,
            performDefaultValidation: defaultValidation, validateHost: validateHost)
    }

    func testMatrix() throws {
        let before = TestCertificates.verifyDate.addingTimeInterval(-86_400)
        let after = TestCertificates.verifyDate.addingTimeInterval(86_400)
        try assertMatrix([
            EvaluatorCase(
                name: "pinned leaf", presented: TestCertificates.validChain,
                evaluator: try spki([pin("ecdsa/leaf.pem"), Self.backup]), expected: "pass"),
            EvaluatorCase(
                name: "pinned intermediate", presented: TestCertificates.validChain,
                evaluator: try spki([pin("ecdsa/intermediate.pem"), Self.backup]), expected: "pass"),
            EvaluatorCase(
                name: "pinned root", presented: TestCertificates.validChain,
                evaluator: try spki([pin("ecdsa/root.pem"), Self.backup]), expected: "pass"),
            EvaluatorCase(
                name: "wrong pins", presented: TestCertificates.validChain,
                evaluator: try spki([pin("rsa/leaf.pem"), Self.backup]), expected: "publicKeyPinningFailed"),
            EvaluatorCase(
                name: "wrong pins, expired pin set", presented: TestCertificates.validChain,
                evaluator: try spki([pin("rsa/leaf.pem"), Self.backup], expiration: before), expected: "pass"),
            EvaluatorCase(
                name: "wrong pins, pin set not yet expired", presented: TestCertificates.validChain,
                evaluator: try spki([pin("rsa/leaf.pem"), Self.backup], expiration: after), expected: "publicKeyPinningFailed"),
            EvaluatorCase(
                name: "expired pin set still validates the chain", presented: TestCertificates.expiredChain,
                evaluator: try spki([pin("rsa/leaf.pem"), Self.backup], expiration: before), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "expired leaf", presented: TestCertificates.expiredChain,
                evaluator: try spki([pin("ecdsa/leaf-expired.pem"), Self.backup]), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "wrong host", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: try spki([pin("ecdsa/leaf.pem"), Self.backup]), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "self-signed", presented: TestCertificates.selfSigned,
                evaluator: try spki([pin("ecdsa/self-signed-leaf.pem"), Self.backup]), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "self-signed, no validation", presented: TestCertificates.selfSigned,
                evaluator: try spki(
                    [pin("ecdsa/self-signed-leaf.pem"), Self.backup], defaultValidation: false,
                    validateHost: false), expected: "pass"),
        ])
    }

    func testConfigurationErrors() throws {
        let leafPin = try pin("ecdsa/leaf.pem")
        XCTAssertThrowsError(try spki([leafPin])) { XCTAssertEqual($0 as? PinningConfigurationError, .tooFewPins(count: 1)) }
        XCTAssertThrowsError(try spki([leafPin, leafPin])) { XCTAssertEqual($0 as? PinningConfigurationError, .tooFewPins(count: 1)) }
        XCTAssertThrowsError(try spki([])) { XCTAssertEqual($0 as? PinningConfigurationError, .tooFewPins(count: 0)) }
        for bad in [
            String(leafPin.dropFirst(7)), "sha1/" + leafPin.dropFirst(7), "sha256/AAAA", "sha256/" + leafPin.dropFirst(8),
            "sha256/" + String(repeating: "A", count: 43) + "B", "sha256/!" + leafPin.dropFirst(8),
        ] {
            XCTAssertThrowsError(try SPKIPin(bad), bad) { error in
                guard case .malformedPin(bad, _)? = error as? PinningConfigurationError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertTrue(PinningConfigurationError.tooFewPins(count: 1).description.contains("backup"))
    }

    func testPinRoundTrip() throws {
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        let pin = try SPKIPin(leaf.spkiPin)
        XCTAssertEqual(pin, SPKIPin(certificate: leaf))
        XCTAssertEqual(pin, SPKIPin(publicKey: leaf.publicKeyInfo))
        XCTAssertEqual(pin.description, leaf.spkiPin)
        XCTAssertEqual(pin.digest.count, 32)
        XCTAssertTrue(pin.matches(leaf))
        XCTAssertFalse(pin.matches(try TestCertificates.certificate("ecdsa/intermediate.pem")))
    }

    func testEnforcementWindow() throws {
        let evaluator = try spki([pin("ecdsa/leaf.pem"), Self.backup], expiration: TestCertificates.verifyDate)
        XCTAssertTrue(evaluator.enforcesPins(at: TestCertificates.verifyDate))
        XCTAssertFalse(evaluator.enforcesPins(at: TestCertificates.verifyDate.addingTimeInterval(1)))
        XCTAssertTrue(try spki([pin("ecdsa/leaf.pem"), Self.backup]).enforcesPins(at: .distantFuture))
    }

    func testFailureNamesThePins() throws {
        let wrong = try pin("rsa/leaf.pem")
        let reason = failureReason(of: try spki([wrong, Self.backup]), try TestCertificates.trust(TestCertificates.validChain))
        let text = reason?.description ?? ""
        XCTAssertTrue(text.contains("none of the 2 pinned keys [\(wrong), \(Self.backup)]"), text)
        XCTAssertTrue(text.contains(try pin("ecdsa/leaf.pem") + " (CN=www.swifttrust.test,O=SwiftTrust)"), text)
    }
}
