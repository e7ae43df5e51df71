import TrustCore
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// Semantic defects parse but fail validation; absent-vs-NULL RSA parameters are no defect.
final class CertificateDefectValidationTests: XCTestCase {
    /// `rsa/leaf-params-absent.pem`: inner sha256WithRSAEncryption without parameters, outer with
    /// NULL, correctly signed by the RSA intermediate (as Alamofire's test certificates).
    func testAbsentInnerRSAParametersVerifyLikeAnyOtherChain() throws {
        let leaf = try TestCertificates.certificate("rsa/leaf-params-absent.pem")
        XCTAssertNil(leaf.tbsSignatureAlgorithmIdentifier.parameters)
        XCTAssertEqual(leaf.signatureAlgorithmIdentifier.parameters.map(Array.init), [0x05, 0x00])
        XCTAssertEqual(leaf.semanticDefects, [])
        let trust = try TestCertificates.trust(["rsa/leaf-params-absent.pem", "rsa/intermediate.pem"], anchors: ["rsa/root.pem"])
        assertTrusted(
            trust.evaluate(),
            chain: try ["rsa/leaf-params-absent.pem", "rsa/intermediate.pem", "rsa/root.pem"]
                .map(TestCertificates.certificate))
    }

    /// The same leaf with a different outer algorithm parses, and validation names the defect
    /// on the leaf (fatal, never overridable).
    func testAlgorithmMismatchIsAFatalValidationFailure() throws {
        let leaf = try TestCertificates.certificate("rsa/leaf.pem")
        let defective = try Certificate(
            derEncoded: try replacingOuterAlgorithm(
                of: leaf.derEncoded,
                with: [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0C, 0x05, 0x00]))
        let defect = try XCTUnwrap(defective.semanticDefects.first)
        let trust = ServerTrust(
            certificates: [defective, try TestCertificates.certificate("rsa/intermediate.pem")],
            policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates([try TestCertificates.certificate("rsa/root.pem")])
        trust.verifyDate = TestCertificates.verifyDate
        let evaluation = trust.evaluate()
        XCTAssertFalse(evaluation.isTrusted)
        let failure = try XCTUnwrap(evaluation.failures.first { $0.reason == .certificateDefect(defect) })
        XCTAssertEqual(failure.certificateIndex, 0)
        XCTAssertEqual(failure.reason.severity, .fatal)
        XCTAssertTrue(failure.description.contains("differs from tbsCertificate.signature"), failure.description)
    }

    /// `der` with its outer signatureAlgorithm replaced by `algorithm` (same length).
    private func replacingOuterAlgorithm(of der: [UInt8], with algorithm: [UInt8]) throws -> [UInt8] {
        var top = try DERReader.parseSingle(der).children()
        _ = try top.read(.sequence)
        let outer = try top.read(.sequence)
        XCTAssertEqual(outer.encoded.count, algorithm.count)
        var copy = der
        copy.replaceSubrange(outer.encoded.indices, with: algorithm)
        return copy
    }
}
