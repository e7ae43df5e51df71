import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 33, item 1: pins are compared with the chain the evaluation built, trusted or not, never with
/// the presented list. Alamofire reads `trust.af.certificates` (`SecTrustCopyCertificateChain`) and
/// AFNetworking `SecTrustGetCertificateCount`/`…AtIndex`; both evaluate on demand and return trustd's
/// best path even when it is untrusted. The tests named `testThat…` reproduce Alamofire's
/// `ServerTrustEvaluatorTests` on our certificates in its fixture shape: the root as the only
/// anchor, the BasicX509 policy, default and host validation off.
final class BuiltChainPinningTests: XCTestCase {
    /// A trust in Alamofire's `TestTrusts` shape: the presented files, `ecdsa/root.pem` the only
    /// anchor (`SecTrustSetAnchorCertificates` + `…Only`), `SecPolicyCreateBasicX509`.
    private func alamofireFixture(_ presented: [String]) throws -> ServerTrust {
        let trust = try TestCertificates.trust(presented)
        trust.anchorsOnly = true
        trust.policies = [.basicX509]
        return trust
    }

    private func keys(_ files: [String]) throws -> [SubjectPublicKeyInfo] {
        try files.flatMap(TestCertificates.certificates).map(\.publicKeyInfo)
    }

    private func unvalidatedKeys(_ files: [String]) throws -> PublicKeysTrustEvaluator {
        PublicKeysTrustEvaluator(keys: try keys(files), performDefaultValidation: false, validateHost: false)
    }

    private func unvalidatedCertificates(_ files: [String]) throws -> PinnedCertificatesTrustEvaluator {
        PinnedCertificatesTrustEvaluator(
            certificates: try files.flatMap(TestCertificates.certificates),
            performDefaultValidation: false, validateHost: false)
    }

    // MARK: Alamofire's own cases (ServerTrustEvaluatorTests.swift, "Do NOT Validate Certificate Chain or Host")

    /// STET `testThatPinningRootKeyWithoutCertificateChainValidationFailsEvaluationWithMissingIntermediateCertificate`:
    /// the server sends its leaf and the root but not the intermediate, so the built path is the leaf
    /// alone and the presented root lies outside it.
    func testThatPinningRootKeyWithoutCertificateChainValidationFailsEvaluationWithMissingIntermediateCertificate() throws {
        let trust = try alamofireFixture(["ecdsa/leaf.pem", "ecdsa/root.pem"])
        XCTAssertEqual(outcome(of: try unvalidatedKeys(["ecdsa/root.pem"]), trust), "publicKeyPinningFailed")
        XCTAssertEqual(trust.certificateChain(), try TestCertificates.certificates("ecdsa/leaf.pem"), "the built path is the leaf alone")
    }

    /// STET `testThatPinningLeafKeyWithoutCertificateChainValidationPassesEvaluationWithMissingIntermediateCertificate`.
    func testThatPinningLeafKeyWithoutCertificateChainValidationPassesEvaluationWithMissingIntermediateCertificate() throws {
        let trust = try alamofireFixture(["ecdsa/leaf.pem", "ecdsa/root.pem"])
        XCTAssertEqual(outcome(of: try unvalidatedKeys(["ecdsa/leaf.pem"]), trust), "pass")
    }

    /// STET `testThatPinningIntermediateKeyWithoutCertificateChainValidationFailsEvaluationWithIncorrectIntermediateCertificate`:
    /// the server sends another hierarchy's intermediate; the pinned one is not in the built path.
    func testThatPinningIntermediateKeyWithoutCertificateChainValidationFailsEvaluationWithIncorrectIntermediateCertificate() throws {
        let trust = try alamofireFixture(["ecdsa/leaf.pem", "ecdsa/intermediate2.pem"])
        XCTAssertEqual(outcome(of: try unvalidatedKeys(["ecdsa/intermediate.pem"]), trust), "publicKeyPinningFailed")
    }

    /// STET `testThatPinningRootKeyWithoutCertificateChainValidationPassesEvaluationWithExpiredLeafCertificate`:
    /// the path is built up to the root although the leaf is expired (untrusted, still a path).
    func testThatPinningRootKeyWithoutCertificateChainValidationPassesEvaluationWithExpiredLeafCertificate() throws {
        let trust = try alamofireFixture(["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem"])
        XCTAssertEqual(outcome(of: try unvalidatedKeys(["ecdsa/root.pem"]), trust), "pass")
        XCTAssertFalse(trust.evaluate().isTrusted)
    }

    /// STET `testThatPinnedRootCertificateWithoutCertificateChainValidationPassesEvaluation`.
    func testThatPinnedRootCertificateWithoutCertificateChainValidationPassesEvaluation() throws {
        let trust = try alamofireFixture(["ecdsa/chain.pem", "ecdsa/root.pem"])
        XCTAssertEqual(outcome(of: try unvalidatedCertificates(["ecdsa/root.pem"]), trust), "pass")
    }

    // MARK: What Apple's chain semantics imply, with no upstream test

    /// A pinned root the server did not send is in the path Apple builds when an anchor source
    /// holds it, so it matches even without validation.
    func testAPinnedRootTheServerDidNotSendMatchesWhenItIsAnAnchor() throws {
        XCTAssertEqual(outcome(of: try unvalidatedCertificates(["ecdsa/root.pem"]), try alamofireFixture(TestCertificates.validChain)), "pass")
        XCTAssertEqual(outcome(of: try unvalidatedKeys(["ecdsa/root.pem"]), try alamofireFixture(TestCertificates.validChain)), "pass")
        // Not an anchor: nothing puts it in the path.
        let elsewhere = try TestCertificates.trust(TestCertificates.validChain, anchors: ["rsa/root.pem"])
        elsewhere.anchorsOnly = true
        XCTAssertEqual(outcome(of: try unvalidatedKeys(["ecdsa/root.pem"]), elsewhere), "publicKeyPinningFailed")
    }

    /// AFNetworking's public-key mode with `allowInvalidCertificates` reads the path built under the
    /// policy it just set (`AFPublicKeyTrustChainForServerTrust` starts with
    /// `SecTrustGetCertificateCount`): an expired chain's intermediate key matches, an appended
    /// certificate's key does not.
    func testAFNetworkingPublicKeyModeWithInvalidCertificatesAllowedReadsTheBuiltChain() throws {
        var policy = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: try TestCertificates.certificates("ecdsa/intermediate.pem"))
        policy.allowInvalidCertificates = true
        XCTAssertTrue(policy.evaluate(try TestCertificates.trust(TestCertificates.expiredChain), forDomain: TestCertificates.host))
        let appended = try TestCertificates.trust(["rsa/chain.pem", "ecdsa/intermediate.pem"])
        XCTAssertThrowsError(try policy.evaluateWithError(appended, forDomain: TestCertificates.host)) { error in
            guard case let SecurityPolicyFailure.publicKeyNotPinned(_, presented) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(presented.count, 2, "the RSA leaf and its intermediate, not the appended certificate")
        }
    }

    // MARK: The man in the middle of issue 33 (validation off, the public pinned CA appended)

    /// A man in the middle with his own chain appends the (public) pinned intermediate, or the real
    /// server's leaf: with default and host validation off, no pinning evaluator accepts it,
    /// because neither certificate is linked by a signature to his leaf.
    func testAManInTheMiddleAppendingThePinnedCertificateIsRejectedWithoutValidation() throws {
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        let spki = try PinnedSPKIHashesTrustEvaluator(
            pins: [intermediate.spkiPin, leaf.spkiPin],
            performDefaultValidation: false, validateHost: false)
        let evaluators: [(String, any ServerTrustEvaluating, String)] = [
            ("certificates", try unvalidatedCertificates(["ecdsa/intermediate.pem", "ecdsa/leaf.pem"]), "certificatePinningFailed"),
            ("keys", try unvalidatedKeys(["ecdsa/intermediate.pem", "ecdsa/leaf.pem"]), "publicKeyPinningFailed"),
            ("SPKI hashes", spki, "publicKeyPinningFailed"),
        ]
        for presented in [["rsa/chain.pem", "ecdsa/intermediate.pem"], ["rsa/chain.pem", "ecdsa/leaf.pem"]] {
            for (name, evaluator, failure) in evaluators {
                XCTAssertEqual(outcome(of: evaluator, try TestCertificates.trust(presented)), failure, "\(name), \(presented)")
            }
        }
    }

    /// The stronger man in the middle: his CA copies the pinned intermediate's subject (so the
    /// pinned certificate is a candidate issuer of his leaf) but not its key. Only a verified
    /// signature links a certificate into the built chain, so the pinned intermediate never enters it.
    func testAManInTheMiddleWhoseCAImitatesThePinnedIntermediateIsRejectedWithoutValidation() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-mitm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (impostorCA, impostorLeaf) = try makeImpostor(in: directory)
        let pinned = try TestCertificates.certificate("ecdsa/intermediate.pem")
        XCTAssertEqual(impostorCA.subject, pinned.subject)
        XCTAssertEqual(impostorLeaf.issuer, pinned.subject)

        for presented in [[impostorLeaf, pinned], [impostorLeaf, impostorCA, pinned]] {
            for (name, evaluator, failure) in [
                ("certificates", try unvalidatedCertificates(["ecdsa/intermediate.pem"]) as any ServerTrustEvaluating, "certificatePinningFailed"),
                ("keys", try unvalidatedKeys(["ecdsa/intermediate.pem"]), "publicKeyPinningFailed"),
            ] {
                let trust = ServerTrust(certificates: presented)
                trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
                XCTAssertEqual(outcome(of: evaluator, trust), failure, "\(name), \(presented.count) presented")
                XCTAssertFalse(trust.certificateChain().contains(pinned), "the pinned intermediate never signed the impostor's leaf")
            }
        }
    }

    /// A self-signed CA named like the pinned intermediate (new key), and a TLS leaf for the test
    /// host issued by it, made now by the openssl CLI.
    private func makeImpostor(in directory: URL) throws -> (ca: Certificate, leaf: Certificate) {
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let caConfig = [
            "[req]", "distinguished_name = dn", "x509_extensions = ext", "prompt = no",
            "[dn]", "O = SwiftTrust", "CN = SwiftTrust Test Intermediate ECDSA",
            "[ext]", "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
            "subjectKeyIdentifier = hash",
        ]
        try (caConfig.joined(separator: "\n") + "\n").write(toFile: path("ca.cnf"), atomically: true, encoding: .utf8)
        try OpenSSLCommand.run([
            "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", path("ca.key"), "-config", path("ca.cnf"), "-days", "30", "-out", path("ca.pem"),
        ])
        let leafConfig = [
            "[req]", "distinguished_name = dn", "prompt = no", "[dn]", "CN = \(TestCertificates.host)",
            "[ext]", "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature",
            "extendedKeyUsage = serverAuth", "subjectAltName = DNS:\(TestCertificates.host)",
        ]
        try (leafConfig.joined(separator: "\n") + "\n").write(toFile: path("leaf.cnf"), atomically: true, encoding: .utf8)
        try OpenSSLCommand.run([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", path("leaf.key"), "-config", path("leaf.cnf"), "-out", path("leaf.csr"),
        ])
        try OpenSSLCommand.run([
            "x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-set_serial", "7", "-days", "30", "-extfile", path("leaf.cnf"), "-extensions", "ext",
            "-out", path("leaf.pem"),
        ])
        return (
            try Certificate(pemEncoded: String(contentsOfFile: path("ca.pem"), encoding: .utf8)),
            try Certificate(pemEncoded: String(contentsOfFile: path("leaf.pem"), encoding: .utf8))
        )
    }
}
