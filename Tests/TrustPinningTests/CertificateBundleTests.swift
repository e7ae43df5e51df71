import Foundation
import OpenSSLServerSupport
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class CertificateBundleTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func copy(_ relative: String, as name: String) throws {
        try FileManager.default.copyItem(atPath: TestCertificates.path(relative), toPath: path(name))
    }

    /// Alamofire's `selfSignedAndMalformedCerts` layout (`ServerTrustEvaluatorTests`,
    /// `testOnlyValidCertificatesAreDetected`), made with the openssl CLI: three DER certificates
    /// (three different ones here, so each load is visible), two of them again as PEM, random bytes
    /// and a DER private key. Returns the three certificates in the order of their DER files' names.
    private func writeAlamofireLayout() throws -> [Certificate] {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        var certificates: [Certificate] = []
        for (index, name) in ["certDER.cer", "certDER.crt", "certDER.der"].enumerated() {
            let key = path("key\(index).pem"), pem = path("cert\(index).pem.tmp")
            try OpenSSLCommand.run([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key, "-out", pem, "-subj", "/CN=bundle \(index).swifttrust.test", "-days", "30",
            ])
            try OpenSSLCommand.run(["x509", "-in", pem, "-outform", "DER", "-out", path(name)])
            if index < 2 { try FileManager.default.moveItem(atPath: pem, toPath: path(index == 0 ? "certPEM.cer" : "certPEM.crt")) }
            if index == 0 { try OpenSSLCommand.run(["pkey", "-in", key, "-outform", "DER", "-out", path("keyDER.der")]) }
            try FileManager.default.removeItem(atPath: key)
            try? FileManager.default.removeItem(atPath: pem)
            certificates.append(try Certificate(derEncoded: Array(Data(contentsOf: URL(fileURLWithPath: path(name))))))
        }
        try OpenSSLCommand.run(["rand", "-out", path("devURandomGibberish.crt"), "512"])
        return certificates
    }

    private func skippedNames(_ bundle: CertificateBundle) -> [String] {
        bundle.skipped.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent): \(caseName($0.reason))" }
    }

    /// Alamofire's `testOnlyValidCertificatesAreDetected`: `certDER.cer/.crt/.der` load;
    /// `certPEM.cer/.crt`, the gibberish and `keyDER.der` do not ("Apple API only handles DER
    /// encoding"). Here the four are listed as skipped with their reasons instead of dropped silently.
    func testOnlyValidCertificatesAreDetectedAsAlamofiresBundleCertificates() throws {
        let expected = try writeAlamofireLayout()
        let bundle = try CertificateBundle(directory: directory.path, convention: .alamofire)
        XCTAssertEqual(bundle.certificates, expected)
        XCTAssertEqual(
            skippedNames(bundle),
            [
                "certPEM.cer: pemNotRead", "certPEM.crt: pemNotRead",
                "devURandomGibberish.crt: malformed", "keyDER.der: malformed",
            ])
        XCTAssertEqual(bundle.convention, .alamofire)
        XCTAssertTrue(bundle.skipped[0].description.contains("reads DER only"), bundle.skipped[0].description)
    }

    /// AFNetworking's `+certificatesInBundle:` takes `*.cer` only (the default); its PEM `.cer` is
    /// not a pin but a listed skip.
    func testDefaultIsAFNetworkingsCerFilesInDER() throws {
        let expected = try writeAlamofireLayout()
        try copy("ecdsa/root.pem", as: "ca.pem")
        let bundle = try CertificateBundle(directory: directory.path)
        XCTAssertEqual(bundle.convention, .afNetworking)
        XCTAssertEqual(bundle.certificates, [expected[0]])
        XCTAssertEqual(
            skippedNames(bundle),
            [
                "ca.pem: unsupportedExtension", "certDER.crt: unsupportedExtension",
                "certDER.der: unsupportedExtension", "certPEM.cer: pemNotRead",
                "certPEM.crt: unsupportedExtension", "devURandomGibberish.crt: unsupportedExtension",
                "keyDER.der: unsupportedExtension",
            ])
        XCTAssertEqual(CertificateBundle.Convention.afNetworking.fileExtensions, ["cer"])
    }

    /// A stray `ca.pem` next to the pins is not loaded by default (it is listed as skipped), and is
    /// loaded when PEM is asked for; PEM inside a scanned extension is read then too.
    func testStrayPEMIsAPinOnlyWhenPEMIsAskedFor() throws {
        try copy("ecdsa/leaf.der", as: "leaf.cer")
        try copy("ecdsa/root.pem", as: "ca.pem")
        try copy("rsa/chain.pem", as: "rsa.cer")
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem"), root = try TestCertificates.certificate("ecdsa/root.pem")

        let byDefault = try CertificateBundle(directory: directory.path)
        XCTAssertEqual(byDefault.certificates, [leaf])
        XCTAssertEqual(skippedNames(byDefault), ["ca.pem: unsupportedExtension", "rsa.cer: pemNotRead"])
        XCTAssertTrue(byDefault.skipped[0].description.contains("includingPEM"), byDefault.skipped[0].description)

        let withPEM = try CertificateBundle(directory: directory.path, convention: .afNetworking.includingPEM)
        XCTAssertEqual(withPEM.certificates, [root, leaf] + (try TestCertificates.certificates("rsa/chain.pem")))
        XCTAssertEqual(withPEM.skipped, [])
        XCTAssertEqual(
            CertificateBundle.Convention.alamofire.includingPEM.fileExtensions,
            ["cer", "CER", "crt", "CRT", "der", "DER", "pem"])
        XCTAssertEqual(CertificateBundle.Convention.alamofire.includingPEM.includingPEM, .alamofire.includingPEM)
    }

    func testDirectoryEntriesThatAreNotFiles() throws {
        try copy("ecdsa/leaf.der", as: "leaf.cer")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("nested.cer"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path("link.cer"), withDestinationPath: TestCertificates.path("ecdsa/root.pem"))
        XCTAssertEqual(mkfifo(path("pipe.cer"), 0o600), 0)
        let bundle = try CertificateBundle(directory: directory.path, convention: .afNetworking.includingPEM)
        XCTAssertEqual(bundle.certificates, [try TestCertificates.certificate("ecdsa/leaf.pem"), try TestCertificates.certificate("ecdsa/root.pem")])
        XCTAssertEqual(skippedNames(bundle), ["nested.cer: directory", "pipe.cer: notARegularFile"])
    }

    /// Files beyond the count, a file over the size limit and bytes beyond the total are skipped
    /// with the limit named, never read whole.
    func testLimitsBoundWhatIsRead() throws {
        try copy("ecdsa/leaf.der", as: "a.cer")
        try copy("ecdsa/leaf.der", as: "b.cer")
        try copy("ecdsa/leaf.der", as: "c.cer")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path("a.cer"))[.size] as? Int)
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")

        let byCount = try CertificateBundle(
            directory: directory.path, limits: .init(maximumFileCount: 2, maximumFileSize: size, maximumTotalSize: 10 * size))
        XCTAssertEqual(byCount.certificates, [leaf])
        XCTAssertEqual(byCount.skipped.map(\.reason), [.fileCountLimitReached(limit: 2)])

        let bySize = try CertificateBundle(
            directory: directory.path, limits: .init(maximumFileCount: 10, maximumFileSize: size - 1, maximumTotalSize: 10 * size))
        XCTAssertEqual(bySize.certificates, [])
        XCTAssertEqual(bySize.skipped.map(\.reason), Array(repeating: .tooLarge(limit: size - 1), count: 3))

        let byTotal = try CertificateBundle(
            directory: directory.path, limits: .init(maximumFileCount: 10, maximumFileSize: size, maximumTotalSize: 2 * size + 1))
        XCTAssertEqual(byTotal.skipped.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["c.cer"])
        XCTAssertEqual(byTotal.skipped.map(\.reason), [.totalSizeLimitReached(limit: 2 * size + 1)])
    }

    func testFilesAndErrors() throws {
        let files = [
            TestCertificates.path("ecdsa/chain.pem"), TestCertificates.path("missing.pem"), TestCertificates.path("malformed/bad-base64.pem"),
            TestCertificates.path("ecdsa/leaf.der"),
        ]
        let derOnly = CertificateBundle(files: files)
        XCTAssertEqual(derOnly.certificates, [try TestCertificates.certificate("ecdsa/leaf.pem")])
        XCTAssertEqual(derOnly.skipped.map { caseName($0.reason) }, ["pemNotRead", "unreadable", "pemNotRead"])

        let withPEM = CertificateBundle(files: files, convention: .afNetworking.includingPEM)
        XCTAssertEqual(withPEM.certificates, try TestCertificates.certificates("ecdsa/chain.pem"))
        XCTAssertEqual(withPEM.skipped.map { caseName($0.reason) }, ["unreadable", "malformed"])

        let absent = directory.appendingPathComponent("absent").path
        XCTAssertThrowsError(try CertificateBundle(directory: absent)) { error in
            XCTAssertEqual((error as? CertificateBundle.DirectoryError)?.path, absent, "\(error)")
        }
    }

    private func caseName(_ reason: CertificateBundle.SkipReason) -> String {
        switch reason {
        case .unsupportedExtension: return "unsupportedExtension"
        case .directory: return "directory"
        case .notARegularFile: return "notARegularFile"
        case .unreadable: return "unreadable"
        case .pemNotRead: return "pemNotRead"
        case .malformed: return "malformed"
        case .tooLarge: return "tooLarge"
        case .fileCountLimitReached: return "fileCountLimitReached"
        case .totalSizeLimitReached: return "totalSizeLimitReached"
        }
    }
}
