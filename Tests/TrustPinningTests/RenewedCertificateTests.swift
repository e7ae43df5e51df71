import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 33, item 5: a leaf renewed with the same key, pinned by its old certificate. AFNetworking's
/// certificate mode and Alamofire's PinnedCertificatesTrustEvaluator compare whole certificates over
/// the chain Apple built, with the pins as the only anchors (AFSecurityPolicy.m
/// `evaluateServerTrust:forDomain:`; ServerTrustEvaluation.swift); public-key pinning survives the
/// renewal. Apple's anchors match by bytes (SecMemoryCertificateSourceContains), so a CA-issued
/// renewal cannot chain to its old self, while a self-signed renewal with the same subject and key
/// finds the old certificate as its issuer (`[X', X]`). Certificates issued now by the openssl CLI
/// with the committed keys, evaluated now.
final class RenewedCertificateTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-renewal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A certificate for the committed leaf key, CN and SAN the test host, with `extensions`, signed by
    /// the committed ECDSA intermediate (or self-signed), serial `serial`, valid from now for `days`.
    private func issue(serial: Int, days: Int, selfSigned: Bool, extensions: [String]) throws -> Certificate {
        let config = directory.appendingPathComponent("cert\(serial).cnf").path
        let output = directory.appendingPathComponent("cert\(serial).pem").path
        let lines =
            ["[req]", "distinguished_name = dn", "x509_extensions = ext", "prompt = no", "[dn]", "CN = \(TestCertificates.host)", "[ext]"]
            + extensions + ["subjectAltName = DNS:\(TestCertificates.host)", "subjectKeyIdentifier = hash"]
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        var arguments = [
            "req", "-x509", "-new", "-config", config, "-key", TestCertificates.path("keys/ecdsa/leaf.key.pem"),
            "-days", "\(days)", "-set_serial", "\(serial)", "-out", output,
        ]
        if !selfSigned {
            arguments += ["-CA", TestCertificates.path("ecdsa/intermediate.pem"), "-CAkey", TestCertificates.path("keys/ecdsa/intermediate.key.pem")]
        }
        try OpenSSLCommand.run(arguments)
        return try Certificate(pemEncoded: String(contentsOfFile: output, encoding: .utf8))
    }

    private let leafExtensions = [
        "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature",
        "extendedKeyUsage = serverAuth", "authorityKeyIdentifier = keyid",
    ]

    /// The presented chain (`leaf` and the committed intermediate, or `leaf` alone), anchored at the
    /// committed root (the caller's trust store), evaluated now.
    private func trust(_ leaf: Certificate, alone: Bool = false) throws -> ServerTrust {
        let trust = ServerTrust(certificates: [leaf] + (alone ? [] : try TestCertificates.certificates("ecdsa/intermediate.pem")))
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        return trust
    }

    func testCertificateModeRejectsARenewedCAIssuedLeafWithTheSameKeyAsAFNetworking() throws {
        let old = try issue(serial: 1, days: 30, selfSigned: false, extensions: leafExtensions)
        let renewed = try issue(serial: 2, days: 60, selfSigned: false, extensions: leafExtensions)
        XCTAssertEqual(old.publicKeyInfo, renewed.publicKeyInfo)
        XCTAssertNotEqual(old, renewed)
        let certificateMode = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [old])
        XCTAssertTrue(certificateMode.evaluate(try trust(old), forDomain: TestCertificates.host), "the pinned leaf itself passes")
        XCTAssertFalse(
            certificateMode.evaluate(try trust(renewed), forDomain: TestCertificates.host),
            "the old leaf as the only anchor cannot be the renewed leaf's issuer")
        // Alamofire: pinned certificates compare whole certificates too, with or without the pins as anchors.
        XCTAssertEqual(outcome(of: PinnedCertificatesTrustEvaluator(certificates: [old]), try trust(old)), "pass")
        XCTAssertNotEqual(outcome(of: PinnedCertificatesTrustEvaluator(certificates: [old]), try trust(renewed)), "pass")
        XCTAssertNotEqual(
            outcome(
                of: PinnedCertificatesTrustEvaluator(certificates: [old], acceptSelfSignedCertificates: true),
                try trust(renewed)), "pass")
    }

    func testPublicKeyModeAcceptsARenewedLeafWithTheSameKeyAsAFNetworkingAndAlamofire() throws {
        let old = try issue(serial: 1, days: 30, selfSigned: false, extensions: leafExtensions)
        let renewed = try issue(serial: 2, days: 60, selfSigned: false, extensions: leafExtensions)
        let publicKeyMode = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [old])
        XCTAssertTrue(publicKeyMode.evaluate(try trust(renewed), forDomain: TestCertificates.host))
        XCTAssertEqual(outcome(of: PublicKeysTrustEvaluator(keys: [old.publicKeyInfo]), try trust(renewed)), "pass")
    }

    func testCertificateModeAcceptsARenewedSelfSignedLeafWithTheSameSubjectAndKeyAsApplesChain() throws {
        // `openssl req -x509` style (cA TRUE): the renewal's issuer is the pinned old certificate, as in
        // trustd's path builder, which looks parents up in the anchor sources by name.
        let caStyle = ["basicConstraints = critical, CA:TRUE", "extendedKeyUsage = serverAuth"]
        let old = try issue(serial: 1, days: 30, selfSigned: true, extensions: caStyle)
        let renewed = try issue(serial: 2, days: 60, selfSigned: true, extensions: caStyle)
        let certificateMode = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [old])
        let presented = try trust(renewed, alone: true)
        presented.setAnchorCertificates([old])
        XCTAssertTrue(certificateMode.evaluate(presented, forDomain: TestCertificates.host))
        XCTAssertEqual(presented.evaluate().chain, [renewed, old])
    }
}
