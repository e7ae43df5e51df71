import Foundation
import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// The record ``SystemTrustStore/discover(environment:locations:)`` keeps of the discovery (what
/// `trustctl store` reports), its injected locations, and the cap on the bytes read from one file.
final class SystemTrustStoreDiscoveryTests: XCTestCase {
    private var temporaryDirectory: URL!

    override func setUpWithError() throws {
        temporaryDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SystemTrustStoreDiscoveryTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    private func write(_ text: String, to relative: String) throws -> String {
        let url = temporaryDirectory.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func path(_ relative: String) -> String { temporaryDirectory.appendingPathComponent(relative).path }

    /// Bundles probed in order under injected locations: the missing one is unreadable, the first with a
    /// certificate is used, the rest are not consulted; each certificate keeps its file and line, a
    /// duplicate included, while the store holds it once.
    func testProbedLocationsAreRecordedInOrderWithEachCertificatesOrigin() throws {
        let ecdsa = try TestCertificates.certificate("ecdsa/root.pem"), rsa = try TestCertificates.certificate("rsa/root.pem")
        let empty = try write("no certificate here\n", to: "b-empty.pem")
        let bundle = try write(pem(ecdsa) + pem(rsa) + pem(ecdsa), to: "c-bundle.pem")
        let later = try write(pem(rsa), to: "d-later.pem")
        let locations = SystemTrustStoreLocations(
            bundleFiles: [path("a-missing.pem"), empty, bundle, later],
            certificateDirectories: [path("certs")], administratorDirectories: [],
            distributionDirectories: [])
        let discovery = SystemTrustStore.discover(environment: [:], locations: locations)
        XCTAssertEqual(discovery.locations.map(\.path), [path("a-missing.pem"), empty, bundle, later, path("certs")])
        XCTAssertEqual(discovery.locations.map(\.status), [.unreadable(.doesNotExist), .empty, .used, .notConsulted, .notConsulted])
        let used = discovery.locations[2]
        XCTAssertEqual(used.entries.map(\.certificate), [ecdsa, rsa, ecdsa])
        XCTAssertEqual(used.entries.map(\.path), [bundle, bundle, bundle])
        let lines = pem(ecdsa).split(separator: "\n").count
        XCTAssertEqual(used.entries.map(\.line), [1, 1 + lines, 1 + lines + pem(rsa).split(separator: "\n").count])
        let store = try discovery.result.get()
        XCTAssertEqual(store.source, bundle)
        XCTAssertEqual(store.store.certificates, [ecdsa, rsa])
    }

    /// `load(environment:)` is the discovery's result: the same anchors, source and skipped blocks.
    func testLoadIsTheDiscoverysResult() throws {
        let bundle = try write(
            pem(try TestCertificates.certificate("ecdsa/root.pem")) + "-----BEGIN CERTIFICATE-----\nAAECAwQFBgcICQ==\n-----END CERTIFICATE-----\n",
            to: "bundle.pem")
        let environment = ["SSL_CERT_FILE": bundle]
        let loaded = try SystemTrustStore.load(environment: environment)
        let discovery = SystemTrustStore.discover(environment: environment)
        let discovered = try discovery.result.get()
        XCTAssertEqual(discovered.store.certificates, loaded.store.certificates)
        XCTAssertEqual(discovered.source, loaded.source)
        XCTAssertEqual(discovered.skipped, loaded.skipped)
        XCTAssertEqual(discovery.locations.first?.kind, .sslCertFile)
        XCTAssertEqual(discovery.locations.first?.skipped, loaded.skipped)
        XCTAssertEqual(
            discovery.locations.dropFirst().prefix(SystemTrustStore.bundlePaths.count).map(\.status),
            Array(repeating: .notConsulted, count: SystemTrustStore.bundlePaths.count),
            "SSL_CERT_FILE is set: the distribution's bundles are not read")
    }

    /// The administrators' directories are recorded with every certificate in them, anchors or not; the
    /// distribution's directory is read only when an administrator's root was found.
    func testClassifyingDirectoriesAreRecorded() throws {
        let ecdsa = try TestCertificates.certificate("ecdsa/root.pem"), rsa = try TestCertificates.certificate("rsa/root.pem")
        let ed25519 = try TestCertificates.certificate("ed25519/root.pem")
        let bundle = try write(pem(ecdsa) + pem(rsa), to: "bundle.pem")
        _ = try write(pem(rsa) + pem(ed25519), to: "local/corp/roots.crt")
        var locations = SystemTrustStoreLocations(
            bundleFiles: [], certificateDirectories: [],
            administratorDirectories: [path("local"), path("missing")],
            distributionDirectories: [path("share")])
        var discovery = SystemTrustStore.discover(environment: ["SSL_CERT_FILE": bundle], locations: locations)
        let local = try XCTUnwrap(discovery.locations.first { $0.path == path("local") })
        XCTAssertEqual(local.kind, .administratorDirectory)
        XCTAssertEqual(local.status, .used)
        XCTAssertEqual(local.entries.map(\.certificate), [rsa, ed25519], "the ed25519 root is there but not an anchor")
        XCTAssertEqual(local.entries.map(\.path), [path("local/corp/roots.crt"), path("local/corp/roots.crt")])
        XCTAssertEqual(discovery.locations.first { $0.path == path("missing") }?.status, .unreadable(.doesNotExist))
        XCTAssertEqual(discovery.locations.last?.kind, .distributionDirectory)
        XCTAssertEqual(discovery.locations.last?.status, .unreadable(.doesNotExist))
        let store = try discovery.result.get()
        XCTAssertEqual(store.source(of: rsa), .administrator)
        XCTAssertEqual(store.source(of: ecdsa), .system)

        // No administrator's root: the distribution's directory is not read.
        locations.administratorDirectories = [path("missing")]
        discovery = SystemTrustStore.discover(environment: ["SSL_CERT_FILE": bundle], locations: locations)
        XCTAssertEqual(discovery.locations.last?.status, .notConsulted)
    }

    /// `under(root:)` puts the prefix in front of every location, and `/` changes nothing.
    func testLocationsUnderARoot() {
        let rooted = SystemTrustStoreLocations.standard.under(root: "/mnt/image/")
        XCTAssertEqual(rooted.bundleFiles.first, "/mnt/image/etc/ssl/certs/ca-certificates.crt")
        XCTAssertEqual(rooted.administratorDirectories, SystemTrustStore.administratorDirectoryPaths.map { "/mnt/image" + $0 })
        XCTAssertEqual(rooted.distributionDirectories, ["/mnt/image/usr/share/ca-certificates"])
        XCTAssertEqual(rooted.certificateDirectories.count, SystemTrustStore.directoryPaths.count)
        XCTAssertEqual(SystemTrustStoreLocations.standard.under(root: "/"), .standard)
    }

    // MARK: - Bounded reading

    /// A file one byte over the cap is not read: an error as SSL_CERT_FILE, a skipped file in SSL_CERT_DIR
    /// (the rest of the directory loads).
    func testAFileLargerThanTheCapIsNotRead() throws {
        let limit = SystemTrustStore.maximumFileSize
        let huge = pem(try TestCertificates.certificate("ecdsa/root.pem")) + String(repeating: "#", count: limit)
        let big = try write(huge, to: "certs/big.pem")
        _ = try write(pem(try TestCertificates.certificate("rsa/root.pem")), to: "certs/small.pem")

        XCTAssertThrowsError(try SystemTrustStore.load(environment: ["SSL_CERT_FILE": big])) { error in
            XCTAssertEqual(error as? SystemTrustStoreError, .unreadable(variable: "SSL_CERT_FILE", path: big, problem: .tooLarge(limit: limit)))
            XCTAssertTrue("\(error)".contains("is larger than \(limit) bytes"), "\(error)")
        }
        let store = try SystemTrustStore.load(environment: ["SSL_CERT_DIR": path("certs")])
        XCTAssertEqual(store.store.certificates, [try TestCertificates.certificate("rsa/root.pem")])
        XCTAssertEqual(store.skipped, [SkippedCertificate(path: big, line: nil, reason: .tooLarge(limit: limit))])
    }
}
