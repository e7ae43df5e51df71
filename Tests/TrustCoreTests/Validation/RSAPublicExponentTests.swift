import Foundation
import TrustCore
import TrustCrypto
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 13 item 11: an issuer's RSA public exponent is capped as ring and BoringSSL cap it (odd,
/// 3 ≤ e ≤ 2^33 − 1), so a hostile key cannot make each verification a huge modular exponentiation.
/// The chains are real: an RSA-2048 root whose key has the exponent under test issues an ECDSA leaf,
/// both made by the openssl CLI (which accepts any odd exponent).
final class RSAPublicExponentTests: XCTestCase {
    private var workDirectory: URL!

    override func setUpWithError() throws {
        guard OpenSSLVerifyDifferentialTests.opensslPath != nil else { throw XCTSkip("openssl is not installed") }
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("RSAPublicExponent-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
    }

    private func openssl(_ arguments: [String]) throws {
        guard let path = OpenSSLVerifyDifferentialTests.opensslPath else { throw XCTSkip("openssl is not installed") }
        let run = try OpenSSLVerifyDifferentialTests.run(path, arguments)
        guard run.status == 0 else {
            XCTFail("openssl \(arguments.joined(separator: " ")) failed: \(run.output)")
            throw CocoaError(.executableLoad)
        }
    }

    /// A root with an RSA-2048 key of public exponent `exponent` and a leaf for `TestCertificates.host` it issued.
    private func chain(exponent: UInt64) throws -> (root: Certificate, leaf: Certificate) {
        func file(_ name: String) -> String { workDirectory.appendingPathComponent("\(exponent)-\(name)").path }
        try openssl([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
            "-pkeyopt", "rsa_keygen_pubexp:\(exponent)", "-out", file("root.key"),
        ])
        try openssl([
            "req", "-x509", "-new", "-key", file("root.key"), "-sha256", "-days", "30",
            "-subj", "/O=SwiftTrust/CN=SwiftTrust Test Root e=\(exponent)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            "-addext", "subjectKeyIdentifier=hash", "-out", file("root.pem"),
        ])
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file("leaf.key")])
        try openssl(["req", "-new", "-key", file("leaf.key"), "-subj", "/O=SwiftTrust/CN=\(TestCertificates.host)", "-out", file("leaf.csr")])
        let extensions = """
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:\(TestCertificates.host)
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            """
        try Data(extensions.utf8).write(to: URL(fileURLWithPath: file("leaf.ext")))
        try openssl([
            "x509", "-req", "-in", file("leaf.csr"), "-CA", file("root.pem"), "-CAkey", file("root.key"),
            "-set_serial", "4242", "-days", "30", "-sha256", "-extfile", file("leaf.ext"), "-out", file("leaf.pem"),
        ])
        let root = try Certificate(pemEncoded: String(decoding: try Data(contentsOf: URL(fileURLWithPath: file("root.pem"))), as: UTF8.self))
        let leaf = try Certificate(pemEncoded: String(decoding: try Data(contentsOf: URL(fileURLWithPath: file("leaf.pem"))), as: UTF8.self))
        return (root, leaf)
    }

    private func evaluate(_ chain: (root: Certificate, leaf: Certificate)) -> TrustEvaluation {
        let trust = ServerTrust(certificates: [chain.leaf], policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates([chain.root])
        return trust.evaluate()
    }

    func testLargestAcceptedExponentVerifies() throws {
        let chain = try chain(exponent: PublicKeyDescription.maximumRSAPublicExponent) // 2^33 − 1
        XCTAssertEqual(chain.root.publicKeyDescription?.kind, .rsa(modulusBits: 2048))
        assertTrusted(evaluate(chain), chain: [chain.leaf, chain.root])
    }

    func testExponentAboveTheCapIsRejectedWhenTheKeyIsParsed() throws {
        let chain = try chain(exponent: (1 << 33) + 1)
        let expected = SignatureError.unsupportedRSAPublicExponent("8589934593")
        XCTAssertThrowsError(try PublicKeyDescription(spki: chain.root.publicKeyInfo.der)) { error in
            XCTAssertEqual(error as? SignatureError, expected)
        }
        XCTAssertThrowsError(try chain.root.verificationKey()) { error in
            XCTAssertEqual(error as? SignatureError, expected)
        }
        // The root is the only candidate issuer and its key cannot be used: the leaf's signature
        // cannot be checked, which is fatal.
        let evaluation = evaluate(chain)
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:signatureUnverifiable"])
        XCTAssertEqual(evaluation.failures.map(\.reason), [.signatureUnverifiable(expected)])
    }
}
