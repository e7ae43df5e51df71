import Foundation
import TrustPinning
import TrustX509
import XCTest

final class CertificateBundleTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func copy(_ relative: String, as name: String) throws {
        try FileManager.default.copyItem(atPath: TestPKI.path(relative), toPath: directory.appendingPathComponent(name).path)
    }

    func testDirectoryScan() throws {
        try copy("ecdsa/leaf.der", as: "leaf.cer")              // DER
        try copy("ecdsa/root.pem", as: "root.CRT")              // PEM inside a .CRT
        try copy("rsa/chain.pem", as: "rsa-chain.pem")          // two certificates
        try copy("ecdsa/intermediate.pem", as: "duplicate.crt") // twice, kept once
        try copy("ecdsa/intermediate.pem", as: "intermediate.der")
        try copy("malformed/truncated.der", as: "broken.der")
        try copy("malformed/not-a-certificate.pem", as: "key.pem")
        try copy("ed25519/leaf.pem", as: "notes.txt")
        try copy("ed25519/leaf.pem", as: "upper.PEM")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("nested.pem"), withIntermediateDirectories: false)

        let bundle = try CertificateBundle(directory: directory.path)
        let expected = try ["ecdsa/intermediate.pem", "ecdsa/leaf.pem", "ecdsa/root.pem", "rsa/chain.pem"].flatMap(TestPKI.certificates)
        XCTAssertEqual(bundle.certificates, expected)
        XCTAssertEqual(bundle.publicKeys, expected.map(\.publicKeyInfo))

        let skipped = bundle.skipped.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent): \(caseName($0.reason))" }
        XCTAssertEqual(skipped, ["broken.der: malformed", "key.pem: malformed", "nested.pem: directory",
                                 "notes.txt: unsupportedExtension", "upper.PEM: unsupportedExtension"])
        XCTAssertTrue(bundle.skipped.allSatisfy { $0.path.hasPrefix(directory.path) })
        XCTAssertTrue(bundle.skipped.first?.description.contains("broken.der: malformed") == true)
    }

    func testFilesAndErrors() throws {
        let bundle = CertificateBundle(files: [TestPKI.path("ecdsa/chain.pem"), TestPKI.path("missing.pem"),
                                               TestPKI.path("malformed/bad-base64.pem")])
        XCTAssertEqual(bundle.certificates.count, 2)
        XCTAssertEqual(bundle.skipped.map { caseName($0.reason) }, ["unreadable", "malformed"])
        let absent = directory.appendingPathComponent("absent").path
        XCTAssertThrowsError(try CertificateBundle(directory: absent)) { error in
            XCTAssertEqual((error as? CertificateBundle.DirectoryError)?.path, absent, "\(error)")
        }
        XCTAssertEqual(CertificateBundle.fileExtensions, ["cer", "CER", "crt", "CRT", "der", "DER", "pem"])
    }

    private func caseName(_ reason: CertificateBundle.SkipReason) -> String {
        switch reason {
        case .unsupportedExtension: return "unsupportedExtension"
        case .directory: return "directory"
        case .unreadable: return "unreadable"
        case .malformed: return "malformed"
        }
    }
}
