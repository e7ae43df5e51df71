import Foundation
import OpenSSLServerSupport
import TrustCore
@testable import TrustDiagnostics
import TrustCrypto
import TrustTestSupport
import TrustX509
import XCTest

/// The `weak-rsa-key` finding is an error only when the evaluation refused the key for its size
/// (``ProfileViolationDetail/rsaKeyTooSmall(bits:minimumBits:)``, ``ProfileViolationDetail/weakRSAKey(bits:)``),
/// not when a key-algorithm rule refused another property of the same key: the finding reads the
/// violation's typed detail, not which rule it came from.
final class ChainFindingsKeySizeTests: XCTestCase {
    private let host = "www.swifttrust.test"

    func testAKeyRefusedForItsModulusAloneIsAWarningAndAKeyRefusedForItsSizeAnError() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let extensions = OpenSSLIssuer.leafExtensions(subjectAltNames: ["DNS:\(host)"])

        // Legacy signatures lower the RSA floor to 1024 bits, so 1028 bits is large enough; the web
        // PKI still refuses the key because 1028 is not a multiple of 8 (CABF 6.1.5).
        let odd = try issuer.issue(commonName: host, extensions: extensions, key: issuer.generateRSAKey(bits: 1028)).certificate
        let (oddEvaluation, oddFindings) = try diagnose(odd, signaturePolicy: .legacy)
        XCTAssertEqual(violations(oddEvaluation), [ProfileViolation(.keyAlgorithm, .rsaModulusNotMultipleOf8(bits: 1028))])
        XCTAssertEqual(weakKeySeverities(oddFindings), ["warning"])

        // Under the default floor, a 2040-bit key is refused for its size.
        let small = try issuer.issue(commonName: host, extensions: extensions, key: issuer.generateRSAKey(bits: 2040)).certificate
        let (smallEvaluation, smallFindings) = try diagnose(small, signaturePolicy: .default)
        XCTAssertTrue(
            violations(smallEvaluation).contains(ProfileViolation(.strongKeySize, .rsaKeyTooSmall(bits: 2040, minimumBits: 2048))),
            "\(smallEvaluation)")
        XCTAssertEqual(weakKeySeverities(smallFindings), ["error"])
    }

    // MARK: - Helpers

    /// `leaf` under the committed ECDSA intermediate and root, evaluated now under the web-PKI profile.
    private func diagnose(_ leaf: Certificate, signaturePolicy: SignaturePolicy) throws
        -> (evaluation: TrustEvaluation, findings: [ChainDiagnostics.Finding])
    {
        let trust = ServerTrust(
            certificates: [leaf, try TestCertificates.certificate("ecdsa/intermediate.pem")],
            policies: [.profile(.webPKI, purpose: .serverAuth, hostname: host)])
        trust.setAnchorCertificates([try TestCertificates.certificate("ecdsa/root.pem")])
        trust.options.signaturePolicy = signaturePolicy
        let now = Date()
        trust.verifyDate = now
        return (trust.evaluate(), ChainDiagnostics(trust: trust, host: host, verifyDate: now).findings)
    }

    private func violations(_ evaluation: TrustEvaluation) -> [ProfileViolation] {
        evaluation.failures.compactMap { failure in
            if case let .profileViolation(violation) = failure.reason { violation } else { nil }
        }
    }

    private func weakKeySeverities(_ findings: [ChainDiagnostics.Finding]) -> [String] {
        findings.filter { $0.code == "weak-rsa-key" }.map(\.severity)
    }
}
