import Foundation
import Synchronization
import TrustCore
@testable import TrustDiagnostics
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 34 item 5: a fetching evaluation takes the intermediate a peer left out from the caIssuers
/// URL of the certificate whose issuer is missing, as Apple's trustd does (`kSecCAIssuerSource`).
/// The committed ECDSA leaf names `http://ca.swifttrust.test/ecdsa-intermediate.crt`; a fetcher in
/// this process serves it (the HTTP side is RevocationNetworkTests').
final class IssuerFetchingTests: XCTestCase {
    static let url = "http://ca.swifttrust.test/ecdsa-intermediate.crt"

    /// Serves fixed bytes by URL, counting requests.
    final class IssuerServer: RevocationFetcher, Sendable {
        private let documents: [String: [UInt8]]
        private let asked = Mutex<[String]>([])
        init(_ documents: [String: [UInt8]]) { self.documents = documents }
        var requests: [String] { asked.withLock { $0 } }
        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { throw URLError(.fileDoesNotExist) }
        func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
            asked.withLock { $0.append(url) }
            guard let bytes = documents[url] else { throw URLError(.fileDoesNotExist) }
            return bytes
        }
    }

    /// The ECDSA leaf sent alone (its intermediate left out), anchored at the ECDSA root.
    static func leafAlone() throws -> ServerTrust {
        let trust = ServerTrust(
            certificates: try TestCertificates.certificates("ecdsa/leaf.pem"),
            policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = TestCertificates.verifyDate
        return trust
    }

    private func intermediateDER() throws -> [UInt8] { Array(try TestCertificates.certificate("ecdsa/intermediate.pem").derEncoded) }

    private func missingIssuer(_ evaluation: TrustEvaluation) -> Bool {
        evaluation.failures.contains { if case .issuerNotFound = $0.reason { true } else { false } }
    }

    func testTheMissingIntermediateIsFetchedFromTheLeafsCAIssuersURLAndKept() async throws {
        let trust = try Self.leafAlone()
        XCTAssertTrue(missingIssuer(trust.evaluate()), "the server sent only its leaf")
        let server = IssuerServer([Self.url: try intermediateDER()])
        let evaluation = await trust.evaluate(fetchingWith: server, cache: nil)
        XCTAssertTrue(evaluation.isTrusted, "\(evaluation.failures)")
        XCTAssertEqual(evaluation.chain.count, 3)
        XCTAssertEqual(server.requests, [Self.url])
        XCTAssertEqual(trust.fetchedIssuers, [FetchedIssuer(certificate: try TestCertificates.certificate("ecdsa/intermediate.pem"), url: Self.url)])
        XCTAssertTrue(trust.evaluate().isTrusted, "kept on the trust for later evaluations, without the network")
        // Diagnostics say where it came from.
        let diagnostics = ChainDiagnostics(trust: trust, host: TestCertificates.host, verifyDate: TestCertificates.verifyDate)
        XCTAssertTrue(diagnostics.text(style: .plain).contains("fetched from \(Self.url)"), diagnostics.text(style: .plain))
    }

    func testACertsOnlyPKCS7DownloadIsReadToo() async throws {
        // The intermediate and the root in one bundle, as some CAs publish (.p7c).
        let bundle = try pkcs7(["ecdsa/intermediate.pem", "ecdsa/root.pem"])
        let trust = try Self.leafAlone()
        let evaluation = await trust.evaluate(fetchingWith: IssuerServer([Self.url: bundle]), cache: nil)
        XCTAssertTrue(evaluation.isTrusted)
        XCTAssertEqual(trust.fetchedIssuers.count, 2)
    }

    func testWhatCannotBeAnIssuerIsNotOne() async throws {
        for (name, bytes) in [
            ("garbage", Array("not a certificate".utf8)),
            ("another CA", Array(try TestCertificates.certificate("rsa/intermediate.pem").derEncoded)),
            ("the leaf itself", Array(try TestCertificates.certificate("ecdsa/leaf.pem").derEncoded)),
        ] {
            let trust = try Self.leafAlone()
            let evaluation = await trust.evaluate(fetchingWith: IssuerServer([Self.url: bytes]), cache: nil)
            XCTAssertFalse(evaluation.isTrusted, name)
            XCTAssertTrue(missingIssuer(evaluation), "\(name): \(evaluation.failures)")
        }
    }

    func testNothingIsFetchedWhenNotAllowedOrNotNeeded() async throws {
        let document = [Self.url: try intermediateDER()]
        // Switched off.
        let off = try Self.leafAlone()
        off.options.fetchesMissingIssuers = false
        let offServer = IssuerServer(document)
        let offEvaluation = await off.evaluate(fetchingWith: offServer, cache: nil)
        XCTAssertFalse(offEvaluation.isTrusted)
        // Network access disabled by the revocation flags.
        let disabled = try Self.leafAlone()
        disabled.options.revocation = [.crl, .networkAccessDisabled]
        let disabledServer = IssuerServer(document)
        _ = await disabled.evaluate(fetchingWith: disabledServer, cache: nil)
        // No allowance in the budget.
        let noBudget = try Self.leafAlone()
        noBudget.options.budget.issuerFetches = 0
        let noBudgetServer = IssuerServer(document)
        let noBudgetEvaluation = await noBudget.evaluate(fetchingWith: noBudgetServer, cache: nil)
        XCTAssertFalse(noBudgetEvaluation.isTrusted)
        // A complete chain, and a chain that fails for another reason (wrong host): nothing is missing.
        let complete = ServerTrust(
            certificates: try TestCertificates.certificates("ecdsa/chain.pem"), policies: [.ssl(server: true, hostname: TestCertificates.host)])
        complete.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        complete.verifyDate = TestCertificates.verifyDate
        let completeServer = IssuerServer(document)
        let completeEvaluation = await complete.evaluate(fetchingWith: completeServer, cache: nil)
        XCTAssertTrue(completeEvaluation.isTrusted)
        for server in [offServer, disabledServer, noBudgetServer, completeServer] { XCTAssertEqual(server.requests, []) }
        // A fetcher that does not fetch issuers (the protocol's default): the chain stays incomplete.
        let unsupported = await (try Self.leafAlone()).evaluate(fetchingWith: RevocationOnlyFetcher(), cache: nil)
        XCTAssertFalse(unsupported.isTrusted)
    }

    /// A fetcher written before caIssuers fetching existed.
    struct RevocationOnlyFetcher: RevocationFetcher {
        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { throw URLError(.fileDoesNotExist) }
    }

    private func pkcs7(_ files: [String]) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-aia-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("bundle.p7c").path
        var arguments = ["crl2pkcs7", "-nocrl", "-outform", "DER", "-out", output]
        for file in files { arguments += ["-certfile", TestCertificates.path(file)] }
        guard let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("openssl is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}
