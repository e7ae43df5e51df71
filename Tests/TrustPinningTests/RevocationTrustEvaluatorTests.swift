import Foundation
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// `RevocationTrustEvaluator`: revocation checked on the chain default validation accepts, with
/// the soft- or hard-fail behaviour its options ask for (docs/revocation.md).
final class RevocationTrustEvaluatorTests: XCTestCase {
    static let strict: RevocationOptions = [.useAnyAvailableMethod, .requirePositiveResponse, .networkAccessDisabled]

    func testMatrix() throws {
        try assertMatrix([
            EvaluatorCase(
                name: "valid chain, no revocation information", presented: TestCertificates.validChain,
                evaluator: RevocationTrustEvaluator(options: Self.strict), expected: "trustEvaluationFailed/revocation"),
            EvaluatorCase(
                name: "valid chain, no revocation information, default options (soft fail)", presented: TestCertificates.validChain,
                evaluator: RevocationTrustEvaluator(), expected: "pass"),
            EvaluatorCase(
                name: "expired: default validation fails first", presented: TestCertificates.expiredChain,
                evaluator: RevocationTrustEvaluator(options: Self.strict), expected: "trustEvaluationFailed/default"),
            EvaluatorCase(
                name: "wrong host", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: RevocationTrustEvaluator(options: Self.strict), expected: "trustEvaluationFailed/host"),
            EvaluatorCase(
                name: "wrong host, host validation off", presented: TestCertificates.validChain, host: TestCertificates.otherHost,
                evaluator: RevocationTrustEvaluator(validateHost: false, options: Self.strict), expected: "trustEvaluationFailed/revocation"),
            EvaluatorCase(
                name: "self-signed, no validation: the revocation step still fails", presented: TestCertificates.selfSigned,
                evaluator: RevocationTrustEvaluator(performDefaultValidation: false, validateHost: false, options: Self.strict),
                expected: "trustEvaluationFailed/revocation"),
        ])
    }

    func testUnavailableRevocationIsNamed() throws {
        let trust = try TestCertificates.trust(TestCertificates.validChain)
        let reason = failureReason(of: RevocationTrustEvaluator(options: Self.strict), trust)
        guard case let .trustEvaluationFailed(host, .revocation(options), failures)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(host, TestCertificates.host)
        XCTAssertEqual(options, Self.strict)
        XCTAssertFalse(failures.isEmpty)
        XCTAssertEqual(reason?.isRevocationUnavailable, true)
        XCTAssertTrue(
            reason?.description.hasPrefix("trust evaluation failed for www.swifttrust.test: revocation checking unavailable") == true,
            reason?.description ?? "")
        XCTAssertEqual(
            trust.policies, [.ssl(server: true, hostname: TestCertificates.host), .revocation(Self.strict)],
            "the check runs under the validation's policies plus the revocation policy")
    }

    func testOtherReasonsAreNotRevocation() {
        XCTAssertFalse(ServerTrustFailureReason.noCertificatesFound.isRevocationUnavailable)
        XCTAssertFalse(ServerTrustFailureReason.trustEvaluationFailed(host: "h", stage: .revocation(.crl), failures: []).isRevocationUnavailable)
    }

    // MARK: Good and revoked certificates

    private static func crls(_ names: [String]) throws -> [CertificateRevocationList] {
        try names.map {
            try CertificateRevocationList(
                derEncoded: Array(Data(contentsOf: TestCertificates.directory.appendingPathComponent("revocation/\($0).crl"))))
        }
    }

    func testGoodCertificatePasses() throws {
        for options: RevocationOptions in [.crl, [.crl, .requirePositiveResponse], .useAnyAvailableMethod] {
            let trust = try TestCertificates.trust(["revocation/good-leaf.pem", "ecdsa/intermediate.pem"])
            trust.setCRLs(try Self.crls(["intermediate-current", "root-empty"]))
            XCTAssertEqual(outcome(of: RevocationTrustEvaluator(options: options), trust), "pass", "\(options)")
        }
    }

    func testRevokedCertificateFails() throws {
        for options: RevocationOptions in [.crl, [.crl, .requirePositiveResponse], .useAnyAvailableMethod] {
            let trust = try TestCertificates.trust(["revocation/revoked-leaf.pem", "ecdsa/intermediate.pem"])
            trust.setCRLs(try Self.crls(["intermediate-current", "root-empty"]))
            let reason = failureReason(of: RevocationTrustEvaluator(options: options), trust)
            guard case let .trustEvaluationFailed(_, .revocation, failures)? = reason else {
                return XCTFail("\(options): \(String(describing: reason))")
            }
            XCTAssertTrue(failures.contains { if case .revoked = $0.reason { $0.certificateIndex == 0 } else { false } }, "\(failures)")
            XCTAssertEqual(reason?.isRevocationUnavailable, false, "revoked, not unavailable")
        }
    }

    func testRevokedIntermediateCannotBeAvoidedThroughAPathValidationRejects() throws {
        // The intermediate is revoked by the root's CRL. A second certificate for the same name and key,
        // also issued by the root but for clientAuth only, gives a path that TLS server validation
        // rejects. Checking revocation on a path rebuilt without the TLS policy would take that path
        // and find nothing revoked; checked on the validated chain, the revocation stands.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("revocation-evaluator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let extensions = directory.appendingPathComponent("ext.cnf")
        try """
        [v3]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        extendedKeyUsage = clientAuth
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        """.write(to: extensions, atomically: true, encoding: .utf8)
        let request = directory.appendingPathComponent("cross.csr").path
        let cross = directory.appendingPathComponent("cross.pem").path
        try openssl([
            "x509", "-x509toreq", "-in", TestCertificates.path("revocation/revoked-intermediate.pem"),
            "-signkey", TestCertificates.path("revocation/keys/revoked-intermediate.key.pem"), "-out", request,
        ])
        try openssl([
            "x509", "-req", "-in", request, "-CA", TestCertificates.path("ecdsa/root.pem"), "-CAkey",
            TestCertificates.path("keys/ecdsa/root.key.pem"),
            "-set_serial", "0x7E57", "-extfile", extensions.path, "-extensions", "v3", "-days", "30", "-out", cross,
        ])

        let trust = ServerTrust(
            certificates: try TestCertificates.certificates("revocation/leaf-under-revoked-intermediate.pem")
                + TestCertificates.certificates("revocation/revoked-intermediate.pem")
                + Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: cross)))))
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = Date() // the re-issued certificate is valid from now; the fixtures until 2099
        trust.setCRLs(try Self.crls(["root-current", "revoked-intermediate-empty"]))
        let reason = failureReason(of: RevocationTrustEvaluator(options: .crl), trust)
        guard case let .trustEvaluationFailed(_, .revocation, failures)? = reason else { return XCTFail(String(describing: reason)) }
        // Both paths fail at the intermediate: one revoked, the other not for serverAuth (reported: the best attempt).
        XCTAssertTrue(failures.contains { $0.certificateIndex == 1 }, "\(failures)")
        // Control: without the revoked intermediate's CRL entry the same trust passes.
        trust.setCRLs(try Self.crls(["root-empty", "revoked-intermediate-empty"]))
        XCTAssertEqual(outcome(of: RevocationTrustEvaluator(options: .crl), trust), "pass")
    }

    private func openssl(_ arguments: [String]) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let directory = path.split(separator: ":").first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/openssl") }) else {
            throw XCTSkip("openssl is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(directory)/openssl")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "openssl \(arguments.joined(separator: " "))")
    }
}
