import Foundation
import TrustCore
import TrustX509
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
        let path = Fixtures.path("bundle-all-valid.pem")
        let expected = try Fixtures.certificates("bundle-all-valid.pem")
        XCTAssertEqual(expected.count, 7)
        let store = SystemTrustStore.load(environment: ["SSL_CERT_FILE": path])
        XCTAssertEqual(store.source, path)
        XCTAssertEqual(store.skippedCount, 0)
        XCTAssertEqual(store.store.count, 7)
        XCTAssertEqual(store.store.certificates, expected)
        XCTAssertTrue(store.store.contains(try Fixtures.certificate("ecdsa/root.pem")))
        XCTAssertFalse(store.store.contains(try Fixtures.certificate("ed25519/root.pem")))
    }

    func testSSLCertFileWinsOverSSLCertDir() throws {
        let directory = temporaryDirectory.appendingPathComponent("dir", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = try write(pem(try Fixtures.certificate("rsa/root.pem")), to: "a.pem", in: directory)
        let file = Fixtures.path("ecdsa/root.pem")
        let store = SystemTrustStore.load(environment: ["SSL_CERT_FILE": file, "SSL_CERT_DIR": directory.path])
        XCTAssertEqual(store.source, file)
        XCTAssertEqual(store.store.certificates, [try Fixtures.certificate("ecdsa/root.pem")])
    }

    func testSSLCertFileMayBeDER() throws {
        let store = SystemTrustStore.load(environment: ["SSL_CERT_FILE": Fixtures.path("ecdsa/leaf.der")])
        XCTAssertEqual(store.store.certificates, [try Fixtures.certificate("ecdsa/leaf.pem")])
    }

    func testUnreadableBlocksInABundleAreSkippedAndCounted() throws {
        let bundle = String(decoding: try Fixtures.bytes("bundle-all-valid.pem"), as: UTF8.self)
        let junk = "-----BEGIN CERTIFICATE-----\nAAECAwQFBgcICQ==\n-----END CERTIFICATE-----\n"
        let key = "-----BEGIN PRIVATE KEY-----\nAAECAwQFBgcICQ==\n-----END PRIVATE KEY-----\n"
        let url = try write(junk + bundle + key, to: "bundle.pem")
        let store = SystemTrustStore.load(environment: ["SSL_CERT_FILE": url.path])
        XCTAssertEqual(store.store.count, 7)
        XCTAssertEqual(store.skippedCount, 1, "the broken CERTIFICATE block is counted; other PEM labels are ignored")
    }

    func testSSLCertDirLoadsThePEMFilesOfTheDirectory() throws {
        let ecdsa = try Fixtures.certificate("ecdsa/root.pem"), rsa = try Fixtures.certificate("rsa/root.pem")
        _ = try write(pem(rsa), to: "b-rsa.pem")
        _ = try write(pem(ecdsa), to: "a-ecdsa.crt")
        // Not a certificate file name: ignored even though it holds a certificate.
        _ = try write(pem(try Fixtures.certificate("ed25519/root.pem")), to: "notes.txt")
        let store = SystemTrustStore.load(environment: ["SSL_CERT_DIR": temporaryDirectory.path])
        XCTAssertEqual(store.source, temporaryDirectory.path)
        XCTAssertEqual(store.store.count, 2)
        XCTAssertEqual(store.store.certificates, [ecdsa, rsa], "files are read in name order")
    }

    func testSSLCertDirIsAColonSeparatedListAndEmptyOrMissingDirectoriesAreSkipped() throws {
        let empty = temporaryDirectory.appendingPathComponent("empty", isDirectory: true)
        let full = temporaryDirectory.appendingPathComponent("full", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        _ = try write(pem(try Fixtures.certificate("ecdsa/root.pem")), to: "1.pem", in: full)
        _ = try write(pem(try Fixtures.certificate("rsa/root.pem")), to: "2.pem", in: full)
        let missing = temporaryDirectory.appendingPathComponent("missing").path
        let store = SystemTrustStore.load(environment: ["SSL_CERT_DIR": "\(missing):\(empty.path):\(full.path)"])
        XCTAssertEqual(store.source, full.path)
        XCTAssertEqual(store.store.count, 2)
    }

    func testAMissingSSLCertFileFallsBackToSSLCertDir() throws {
        _ = try write(pem(try Fixtures.certificate("ecdsa/root.pem")), to: "root.pem")
        let store = SystemTrustStore.load(environment: [
            "SSL_CERT_FILE": temporaryDirectory.appendingPathComponent("does-not-exist.pem").path,
            "SSL_CERT_DIR": temporaryDirectory.path,
        ])
        XCTAssertEqual(store.source, temporaryDirectory.path)
        XCTAssertEqual(store.store.certificates, [try Fixtures.certificate("ecdsa/root.pem")])
    }

    func testDefaultLoadFindsTheDebianBundle() throws {
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        guard FileManager.default.fileExists(atPath: bundle) else {
            throw XCTSkip("\(bundle) is not present on this machine (not a Debian/Ubuntu-style CA layout)")
        }
        let store = SystemTrustStore.load(environment: [:])
        XCTAssertEqual(store.source, bundle)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: bundle)), as: UTF8.self)
        let blocks = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        XCTAssertGreaterThan(blocks, 0)
        XCTAssertGreaterThan(store.store.count, 0)
        // Every block is either loaded or counted as skipped (duplicates, if any, collapse in the store).
        // Parse each block on its own: a bundle is not ours to reject, so unreadable blocks are skipped.
        // (Some distributed roots are not strict DER, e.g. a keyUsage BIT STRING with trailing zero bits.)
        var parsed: [Certificate] = [], unreadable = 0
        for block in text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst() {
            let pemText = "-----BEGIN CERTIFICATE-----" + block
            if let certificate = try? Certificate(pemEncoded: pemText) { parsed.append(certificate) } else { unreadable += 1 }
        }
        XCTAssertEqual(parsed.count + unreadable, blocks)
        XCTAssertEqual(store.skippedCount, unreadable)
        XCTAssertEqual(store.store.count, Set(parsed).count)
        XCTAssertEqual(Set(store.store.certificates), Set(parsed))
    }

    func testSharedStoreIsTheEnvironmentStore() {
        let shared = SystemTrustStore.shared
        let loaded = SystemTrustStore.load(environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(shared.source, loaded.source)
        XCTAssertEqual(shared.store.certificates, loaded.store.certificates)
    }
}
