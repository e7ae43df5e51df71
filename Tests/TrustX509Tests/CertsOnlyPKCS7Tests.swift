import Foundation
import OpenSSLServerSupport
import TrustX509
import TrustTestSupport
import XCTest

/// Certs-only PKCS #7 bundles, the `.p7c` form a caIssuers URL may serve (RFC 5280 §4.2.2.1), made
/// by the openssl CLI.
final class CertsOnlyPKCS7Tests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-p7c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func p7(_ name: String, _ arguments: [String]) throws -> [UInt8] {
        let output = directory.appendingPathComponent(name).path
        try OpenSSLCommand.run(arguments + ["-outform", "DER", "-out", output])
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    func testTheCertificatesOfACertsOnlyBundleAreReadInOrder() throws {
        let chain = try TestCertificates.certificates("ecdsa/chain.pem")
        let bundle = try p7("chain.p7c", ["crl2pkcs7", "-nocrl", "-certfile", TestCertificates.path("ecdsa/chain.pem")])
        XCTAssertEqual(try CertsOnlyPKCS7.certificates(derEncoded: bundle), chain)
        // A bundle that also carries a CRL: the CRL is ignored.
        let withCRL = try p7(
            "crl.p7c",
            [
                "crl2pkcs7", "-in", TestCertificates.path("revocation/intermediate-current.crl"), "-inform", "DER",
                "-certfile", TestCertificates.path("ecdsa/intermediate.pem"),
            ])
        XCTAssertEqual(try CertsOnlyPKCS7.certificates(derEncoded: withCRL), try TestCertificates.certificates("ecdsa/intermediate.pem"))
    }

    func testASignedMessageOrOtherInputIsNotABundle() throws {
        let message = directory.appendingPathComponent("message.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: message))
        let signed = try p7(
            "signed.p7m",
            [
                "cms", "-sign", "-in", message, "-signer", TestCertificates.path("ecdsa/leaf.pem"),
                "-inkey", TestCertificates.path("keys/ecdsa/leaf.key.pem"),
            ])
        XCTAssertThrowsError(try CertsOnlyPKCS7.certificates(derEncoded: signed)) { error in
            guard case .invalidStructure? = (error as? X509Error)?.reason else { return XCTFail("\(error)") }
        }
        let certificate = try TestCertificates.certificate("ecdsa/leaf.pem").derEncoded
        XCTAssertThrowsError(try CertsOnlyPKCS7.certificates(derEncoded: Array(certificate)))
        XCTAssertThrowsError(try CertsOnlyPKCS7.certificates(derEncoded: []))
        XCTAssertThrowsError(try CertsOnlyPKCS7.certificates(derEncoded: Array(repeating: 0x30, count: 64)))
    }
}
