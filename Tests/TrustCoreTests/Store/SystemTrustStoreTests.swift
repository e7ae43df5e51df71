import Foundation
import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// Where ``SystemTrustStore`` finds anchors: SSL_CERT_FILE, then SSL_CERT_DIR, then the usual
/// bundle files and directories.
final class SystemTrustStoreTests: XCTestCase {
    private var temporaryDirectory: URL!

    override func setUpWithError() throws {
        temporaryDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SystemTrustStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    private func write(_ text: String, to name: String, in directory: URL? = nil) throws -> URL {
        let url = (directory ?? temporaryDirectory).appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    func testSSLCertFileLoadsExactlyTheCertificatesOfThatFile() throws {
        let path = TestCertificates.path("bundle-all-valid.pem")
        let expected = try TestCertificates.certificates("bundle-all-valid.pem")
        XCTAssertEqual(expected.count, 7)
        let store = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": path])
        XCTAssertEqual(store.source, "SSL_CERT_FILE=\(path)")
        XCTAssertEqual(store.skipped, [])
        XCTAssertEqual(store.store.count, 7)
        XCTAssertEqual(store.store.certificates, expected)
        XCTAssertTrue(store.store.contains(try TestCertificates.certificate("ecdsa/root.pem")))
        XCTAssertFalse(store.store.contains(try TestCertificates.certificate("ed25519/root.pem")))
    }

    /// OpenSSL's default verify paths use both variables: the anchors are the file's and the directories'.
    func testSSLCertFileAndSSLCertDirAreUsedTogether() throws {
        let directory = temporaryDirectory.appendingPathComponent("dir", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = try write(pem(try TestCertificates.certificate("rsa/root.pem")), to: "a.pem", in: directory)
        let file = TestCertificates.path("ecdsa/root.pem")
        let store = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": file, "SSL_CERT_DIR": directory.path])
        XCTAssertEqual(store.source, "SSL_CERT_FILE=\(file), SSL_CERT_DIR=\(directory.path)")
        XCTAssertEqual(
            store.store.certificates, [try TestCertificates.certificate("ecdsa/root.pem"), try TestCertificates.certificate("rsa/root.pem")])
    }

    func testSSLCertFileMayBeDER() throws {
        let store = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": TestCertificates.path("ecdsa/leaf.der")])
        XCTAssertEqual(store.store.certificates, [try TestCertificates.certificate("ecdsa/leaf.pem")])
    }

    /// A block that does not parse as a certificate, and one that is not even valid PEM, are each left
    /// out with the reason; the rest of the bundle is loaded. (A PEM error used to make the whole file
    /// unreadable, and the distribution bundle was trusted in its place.)
    func testBadBlocksInABundleAreSkippedWithTheirReasons() throws {
        let bundle = String(decoding: try TestCertificates.bytes("bundle-all-valid.pem"), as: UTF8.self)
        let notACertificate = "-----BEGIN CERTIFICATE-----\nAAECAwQFBgcICQ==\n-----END CERTIFICATE-----\n"
        let badBase64 = "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n"
        let key = "-----BEGIN PRIVATE KEY-----\nAAECAwQFBgcICQ==\n-----END PRIVATE KEY-----\n"
        let url = try write(notACertificate + badBase64 + bundle + key, to: "bundle.pem")
        let store = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": url.path])
        XCTAssertEqual(store.store.certificates, try TestCertificates.certificates("bundle-all-valid.pem"))
        XCTAssertEqual(store.skipped.count, 2, "other PEM labels are ignored, not skipped: \(store.skipped)")
        XCTAssertEqual(store.skipped.first?.path, url.path)
        XCTAssertEqual(store.skipped.first?.line, 1)
        guard case .invalidCertificate = store.skipped.first?.reason else { return XCTFail("\(store.skipped)") }
        XCTAssertEqual(store.skipped.last?.reason, .invalidPEM(.invalidBase64(label: "CERTIFICATE", line: 5)))
        XCTAssertEqual(store.skipped.last?.description, "\(url.path): PEM block CERTIFICATE: invalid base64 at line 5")
    }

    func testSSLCertDirLoadsThePEMFilesOfTheDirectory() throws {
        let ecdsa = try TestCertificates.certificate("ecdsa/root.pem"), rsa = try TestCertificates.certificate("rsa/root.pem")
        _ = try write(pem(rsa), to: "b-rsa.pem")
        _ = try write(pem(ecdsa), to: "a-ecdsa.crt")
        // Not a certificate file name: ignored even though it holds a certificate.
        _ = try write(pem(try TestCertificates.certificate("ed25519/root.pem")), to: "notes.txt")
        let store = try SystemTrustStore.load(environment: ["SSL_CERT_DIR": temporaryDirectory.path])
        XCTAssertEqual(store.source, "SSL_CERT_DIR=\(temporaryDirectory.path)")
        XCTAssertEqual(store.store.count, 2)
        XCTAssertEqual(store.store.certificates, [ecdsa, rsa], "files are read in name order")
    }

    func testSSLCertDirIsAColonSeparatedListOfDirectoriesUsedTogether() throws {
        let empty = temporaryDirectory.appendingPathComponent("empty", isDirectory: true)
        let first = temporaryDirectory.appendingPathComponent("first", isDirectory: true)
        let second = temporaryDirectory.appendingPathComponent("second", isDirectory: true)
        for directory in [empty, first, second] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        _ = try write(pem(try TestCertificates.certificate("ecdsa/root.pem")), to: "1.pem", in: first)
        _ = try write(pem(try TestCertificates.certificate("rsa/root.pem")), to: "2.pem", in: second)
        // Empty entries (a doubled or trailing colon) name nothing; an empty directory adds nothing.
        let store = try SystemTrustStore.load(environment: ["SSL_CERT_DIR": "\(empty.path):\(first.path)::\(second.path):"])
        XCTAssertEqual(
            store.store.certificates, [try TestCertificates.certificate("ecdsa/root.pem"), try TestCertificates.certificate("rsa/root.pem")])
    }

    // MARK: - Unusable explicit configuration: an error, never the distribution bundle

    /// Loads `environment`, expecting `expected`, and checks the description names `variable` and `path`.
    private func assertLoadFails(
        _ environment: [String: String], with expected: SystemTrustStoreError,
        naming words: [String], file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let store = try SystemTrustStore.load(environment: environment)
            XCTFail("loaded \(store.store.count) anchors from \(store.source ?? "nothing")", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, file: file, line: line)
            for word in words {
                XCTAssertTrue(error.description.contains(word), "\(error.description) should name \(word)", file: file, line: line)
            }
        }
    }

    func testAMissingSSLCertFileIsAnErrorEvenWithAUsableSSLCertDir() throws {
        _ = try write(pem(try TestCertificates.certificate("ecdsa/root.pem")), to: "root.pem")
        let missing = temporaryDirectory.appendingPathComponent("does-not-exist.pem").path
        assertLoadFails(
            ["SSL_CERT_FILE": missing, "SSL_CERT_DIR": temporaryDirectory.path],
            with: .unreadable(variable: "SSL_CERT_FILE", path: missing, problem: .doesNotExist),
            naming: ["SSL_CERT_FILE", missing, "does not exist"])
    }

    func testASSLCertFileThatIsADirectoryIsAnError() {
        assertLoadFails(
            ["SSL_CERT_FILE": temporaryDirectory.path],
            with: .unreadable(variable: "SSL_CERT_FILE", path: temporaryDirectory.path, problem: .isADirectory),
            naming: ["SSL_CERT_FILE", temporaryDirectory.path])
    }

    func testAMissingOrNonDirectorySSLCertDirEntryIsAnError() throws {
        _ = try write(pem(try TestCertificates.certificate("ecdsa/root.pem")), to: "root.pem")
        let missing = temporaryDirectory.appendingPathComponent("missing").path
        assertLoadFails(
            ["SSL_CERT_DIR": "\(temporaryDirectory.path):\(missing)"],
            with: .unreadable(variable: "SSL_CERT_DIR", path: missing, problem: .doesNotExist),
            naming: ["SSL_CERT_DIR", missing])
        let file = TestCertificates.path("ecdsa/root.pem")
        assertLoadFails(
            ["SSL_CERT_DIR": file], with: .unreadable(variable: "SSL_CERT_DIR", path: file, problem: .isNotADirectory),
            naming: ["SSL_CERT_DIR", file])
    }

    func testAnExplicitConfigurationWithoutAReadableCertificateIsAnError() throws {
        let junk = try write("-----BEGIN CERTIFICATE-----\nAAECAwQFBgcICQ==\n-----END CERTIFICATE-----\n", to: "junk.pem")
        do {
            let store = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": junk.path])
            XCTFail("loaded \(store.store.count) anchors from \(store.source ?? "nothing")")
        } catch {
            guard case let .noCertificates(configuration, skipped) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(configuration, "SSL_CERT_FILE=\(junk.path)")
            XCTAssertEqual(skipped.map(\.line), [1])
            XCTAssertTrue(error.description.contains("SSL_CERT_FILE=\(junk.path) holds no readable certificate"), error.description)
        }
        let empty = temporaryDirectory.appendingPathComponent("empty", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        assertLoadFails(
            ["SSL_CERT_DIR": empty.path], with: .noCertificates(configuration: "SSL_CERT_DIR=\(empty.path)", skipped: []),
            naming: ["SSL_CERT_DIR", empty.path])
    }

    func testEmptyVariablesAreUnset() throws {
        let explicit = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": "", "SSL_CERT_DIR": ":"])
        let defaults = try SystemTrustStore.load(environment: [:])
        XCTAssertEqual(explicit.source, defaults.source)
        XCTAssertEqual(explicit.store.certificates, defaults.store.certificates)
    }

    func testDefaultLoadFindsTheDebianBundle() throws {
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        guard FileManager.default.fileExists(atPath: bundle) else {
            throw XCTSkip("\(bundle) is not present on this machine (not a Debian/Ubuntu-style CA layout)")
        }
        let store = try SystemTrustStore.load(environment: [:])
        XCTAssertEqual(store.source, bundle)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: bundle)), as: UTF8.self)
        let blocks = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        XCTAssertGreaterThan(blocks, 0)
        XCTAssertGreaterThan(store.store.count, 0)
        // Every block is either loaded or listed as skipped (duplicates, if any, collapse in the store).
        // Parse each block on its own: a bundle is not ours to reject, so unreadable blocks are skipped.
        // (Some distributed roots are not strict DER, e.g. a keyUsage BIT STRING with trailing zero bits.)
        var parsed: [Certificate] = [], unreadable = 0
        for block in text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst() {
            let pemText = "-----BEGIN CERTIFICATE-----" + block
            if let certificate = try? Certificate(pemEncoded: pemText) { parsed.append(certificate) } else { unreadable += 1 }
        }
        XCTAssertEqual(parsed.count + unreadable, blocks)
        XCTAssertEqual(store.skipped.count, unreadable)
        XCTAssertTrue(store.skipped.allSatisfy { $0.path == bundle && $0.line != nil }, "\(store.skipped)")
        XCTAssertEqual(store.store.count, Set(parsed).count)
        XCTAssertEqual(Set(store.store.certificates), Set(parsed))
    }

    func testSharedStoreIsTheEnvironmentStore() {
        let shared = Result { () throws(SystemTrustStoreError) in try SystemTrustStore.shared }
        let loaded = Result { () throws(SystemTrustStoreError) in try SystemTrustStore.load(environment: ProcessInfo.processInfo.environment) }
        switch (shared, loaded) {
        case let (.success(shared), .success(loaded)):
            XCTAssertEqual(shared.source, loaded.source)
            XCTAssertEqual(shared.store.certificates, loaded.store.certificates)
        case let (.failure(shared), .failure(loaded)):
            XCTAssertEqual(shared, loaded)
        default:
            XCTFail("shared \(shared), loaded \(loaded)")
        }
    }
}
