import Foundation
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// SwiftTrust's JSON pinning configuration: strict loading with key paths, anchors from files and
/// inline PEM, and lossless writing.
final class JSONConfigurationTests: XCTestCase {
    private func pin(_ file: String) throws -> String { SPKIPin(certificate: try TestCertificates.certificate(file)).description }

    private func load(_ json: String, baseDirectory: URL? = nil) throws -> PinningConfiguration {
        try PinningConfiguration.load(data: Data(json.utf8), file: "pins.json", format: .json, baseDirectory: baseDirectory)
    }

    /// The load error for `json`, failing the test when it loads.
    private func loadError(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> PinningConfigurationLoadError? {
        do {
            _ = try load(json)
            XCTFail("expected a load error", file: file, line: line)
        } catch let error as PinningConfigurationLoadError {
            XCTAssertEqual(error.file, "pins.json", file: file, line: line)
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    func testFullDocumentLoadsEveryField() throws {
        let json = """
            {"version": 1, "domains": [
              {"domain": "WWW.SwiftTrust.test.", "subdomains": "oneLevel",
               "pins": {"leaf": ["\(try pin("ecdsa/leaf.pem"))"], "ca": ["\(try pin("ecdsa/intermediate.pem"))", "\(try pin("ecdsa/root.pem"))"]},
               "expires": "2027-01-31", "enforcement": "reportOnly", "reportURIs": ["https://reports.example/pins", "http://127.0.0.1:9/r"],
               "trustAnchors": {"system": true, "certificates": ["ecdsa/root.pem"], "pinOverridingCertificates": [\(jsonString(try TestCertificates.certificate("rsa/root.pem").pemEncoded))]}},
              {"domain": "192.0.2.7", "pins": {"chain": ["\(try pin("rsa/intermediate.pem"))"]}}
            ]}
            """
        let configuration = try load(json, baseDirectory: TestCertificates.directory)
        XCTAssertEqual(configuration.domains.count, 2)
        let first = configuration.domains[0]
        XCTAssertEqual(first.domain, "www.swifttrust.test")
        XCTAssertEqual(first.subdomains, .oneLevel)
        XCTAssertEqual(first.requirements.map(\.scope), [.leaf, .certificateAuthority])
        XCTAssertEqual(first.requirements[1].pins.map(\.description), [try pin("ecdsa/intermediate.pem"), try pin("ecdsa/root.pem")])
        XCTAssertEqual(first.expirationDate, Date(timeIntervalSince1970: 1_801_353_600)) // 2027-01-31T00:00:00Z
        XCTAssertEqual(first.enforcement, .reportOnly)
        XCTAssertEqual(first.reportURIs.map(\.absoluteString), ["https://reports.example/pins", "http://127.0.0.1:9/r"])
        XCTAssertEqual(first.trustAnchors?.includesSystemStore, true)
        XCTAssertEqual(first.trustAnchors?.certificates, [try TestCertificates.certificate("ecdsa/root.pem")])
        XCTAssertEqual(first.trustAnchors?.pinOverridingCertificates, [try TestCertificates.certificate("rsa/root.pem")])
        XCTAssertEqual(configuration.domains[1].domain, "192.0.2.7")
        XCTAssertEqual(configuration.domains[1].enforcement, .enforce)
        // Written and read back: the same configuration.
        let written = try configuration.encoded(as: .json)
        XCTAssertEqual(try PinningConfiguration.load(data: written, format: .json), configuration)
        XCTAssertEqual(PinningConfiguration.detectFormat(of: written), .json)
    }

    func testUnknownKeysAreRefusedWithTheirPath() throws {
        let error = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "includeSubdomains": true, "pins": {"chain": []}}]}"#)
        XCTAssertEqual(error?.rule, .unexpectedKey("key \"includeSubdomains\""))
        XCTAssertEqual(error?.keyPath, "domains[0].includeSubdomains")
        let nested = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "pins": {"chains": ["x"]}}]}"#)
        XCTAssertEqual(nested?.keyPath, "domains[0].pins.chains")
    }

    func testVersionTypesAndSyntaxAreChecked() throws {
        let version = loadError(#"{"version": 2, "domains": []}"#)
        XCTAssertEqual(version?.rule, .unsupportedVersion("2", supported: ["1"]))
        XCTAssertEqual(version?.keyPath, "version")
        let missing = loadError(#"{"domains": []}"#)
        XCTAssertEqual(missing?.rule, .missingKey("key \"version\""))
        let type = loadError(#"{"version": 1, "domains": [{"domain": 7}]}"#)
        XCTAssertEqual(type?.keyPath, "domains[0].domain")
        guard case .wrongType = type?.rule else { return XCTFail("\(String(describing: type))") }
        let enumValue = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "enforcement": "warn"}]}"#)
        XCTAssertEqual(enumValue?.keyPath, "domains[0].enforcement")
        let syntax = loadError("{\"version\": 1,\n \"domains\": [,]}")
        guard case .malformedDocument = syntax?.rule else { return XCTFail("\(String(describing: syntax))") }
    }

    func testValuesAreCheckedWithTheirPaths() throws {
        let good = try pin("ecdsa/leaf.pem")
        let badPin = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "pins": {"chain": ["\#(good)", "sha256/AAAA"]}}]}"#)
        XCTAssertEqual(badPin?.keyPath, "domains[0].pins.chain[1]")
        guard case .invalidPin(.malformedPin) = badPin?.rule else { return XCTFail("\(String(describing: badPin))") }
        let emptyList = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "pins": {"leaf": []}}]}"#)
        XCTAssertEqual(emptyList?.keyPath, "domains[0].pins.leaf")
        XCTAssertEqual(emptyList?.rule, .invalidPin(.tooFewPins(count: 0)))
        let noLists = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "pins": {}}]}"#)
        XCTAssertEqual(noLists?.keyPath, "domains[0].pins")
        let date = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "expires": "2026-02-30"}]}"#)
        XCTAssertEqual(date?.rule, .invalidDate("2026-02-30"))
        XCTAssertEqual(date?.keyPath, "domains[0].expires")
        let uri = loadError(#"{"version": 1, "domains": [{"domain": "a.test", "reportURIs": ["ftp://x.test/"]}]}"#)
        XCTAssertEqual(uri?.rule, .invalidReportURI("ftp://x.test/"))
        XCTAssertEqual(uri?.keyPath, "domains[0].reportURIs[0]")
        let credentials = loadError(
            #"{"version": 1, "domains": [{"domain": "a.test", "reportURIs": ["https://r.test/", "https://user:secret@r.test/"]}]}"#)
        XCTAssertEqual(credentials?.rule, .invalidReportURI("https://user:secret@r.test/"))
        XCTAssertEqual(credentials?.keyPath, "domains[0].reportURIs[1]")
        // The message quotes the URI without its password (it ends up in logs).
        let message = try XCTUnwrap(credentials?.rule.description)
        XCTAssertFalse(message.contains("secret"), message)
        XCTAssertTrue(message.contains("https://user:***@r.test/"), message)
        XCTAssertEqual(
            loadError(#"{"version": 1, "domains": [{"domain": "a.test", "reportURIs": ["https://user@r.test/"]}]}"#)?.rule,
            .invalidReportURI("https://user@r.test/"))
        let domain = loadError(#"{"version": 1, "domains": [{"domain": "a..test"}]}"#)
        XCTAssertEqual(domain?.keyPath, "domains[0].domain")
        let duplicate = loadError(#"{"version": 1, "domains": [{"domain": "A.test"}, {"domain": "a.test."}]}"#)
        XCTAssertEqual(duplicate?.keyPath, "domains[1].domain")
        guard case .duplicateDomain = duplicate?.rule else { return XCTFail("\(String(describing: duplicate))") }
    }

    func testAnchorFilesResolveAgainstTheConfigurationsDirectory() throws {
        let json = #"{"version": 1, "domains": [{"domain": "a.test", "trustAnchors": {"certificates": ["ecdsa/root.pem"]}}]}"#
        let error = loadError(json)
        XCTAssertEqual(error?.keyPath, "domains[0].trustAnchors.certificates[0]")
        guard case .unreadableReference = error?.rule else { return XCTFail("\(String(describing: error))") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("ecdsa"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(contentsOf: TestCertificates.directory.appendingPathComponent("ecdsa/root.pem")).write(
            to: directory.appendingPathComponent("ecdsa/root.pem"))
        try Data(json.utf8).write(to: directory.appendingPathComponent("pins.json"))
        let loaded = try PinningConfiguration.load(contentsOf: directory.appendingPathComponent("pins.json"))
        XCTAssertEqual(loaded.domains.first?.trustAnchors?.certificates, [try TestCertificates.certificate("ecdsa/root.pem")])
        XCTAssertEqual(loaded.domains.first?.trustAnchors?.includesSystemStore, false)
        // A file that is not a certificate is refused, naming it.
        try Data("not a certificate".utf8).write(to: directory.appendingPathComponent("ecdsa/root.pem"))
        XCTAssertThrowsError(try PinningConfiguration.load(contentsOf: directory.appendingPathComponent("pins.json")))
    }

    /// An anchor file is read up to a cap, like every loader: a device or a huge file named as an
    /// anchor (by an absolute path, which needs no base directory) is refused without being read whole.
    func testAnchorFilesAreReadUpToACap() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try Data(contentsOf: TestCertificates.directory.appendingPathComponent("ecdsa/root.pem"))
        // A bundle: the root, then text up to just past the cap (PEM readers skip text between blocks).
        let large = directory.appendingPathComponent("large.pem")
        try (root + Data(repeating: 0x0A, count: 4 * PinningConfiguration.maximumFileSize + 1 - root.count)).write(to: large)
        for path in [large.path, "/dev/zero"] {
            let json = #"{"version": 1, "domains": [{"domain": "a.test", "trustAnchors": {"certificates": ["\#(path)"]}}]}"#
            let start = Date()
            let error = loadError(json)
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, path)
            XCTAssertEqual(error?.keyPath, "domains[0].trustAnchors.certificates[0]", path)
            guard case .unreadableReference = error?.rule else { return XCTFail("\(path): \(String(describing: error))") }
            XCTAssertTrue(
                error?.description.contains("larger than \(4 * PinningConfiguration.maximumFileSize) bytes") == true,
                "\(path): \(String(describing: error))")
        }
    }

    func testUnrecognisableInputIsRefused() throws {
        XCTAssertThrowsError(try PinningConfiguration.load(data: Data("hello".utf8))) { error in
            guard case .unrecognisedFormat = (error as? PinningConfigurationLoadError)?.rule else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try PinningConfiguration.load(data: Data(repeating: 0x20, count: PinningConfiguration.maximumFileSize + 1)))
    }

    private func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
    }
}
