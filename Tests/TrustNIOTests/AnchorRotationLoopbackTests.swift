import Foundation
import Logging
import MetricsTestKit
import NIOCore
import NIOSSL
import OpenSSLServerSupport
import Synchronization
import TrustCore
import TrustNIO
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 41 item 3, done when: a mutual-TLS server on loopback whose client anchors are a
/// `ReloadingTrustAnchors` over one CA file; the file is rotated between two handshakes and the
/// second uses the new set; a broken file keeps the old set, and the event, the log and the metric
/// say so. Two client CAs made with the openssl CLI at test time, each issuing one client.
final class AnchorRotationLoopbackTests: LoopbackTestCase {
    private let serverChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]
    private var directory: URL!
    private var first: ClientCertificateAuthority!
    private var second: ClientCertificateAuthority!
    private var caFile: String { directory.appendingPathComponent("clients-ca.pem").path }

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-rotation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        first = try ClientCertificateAuthority(named: "First", in: directory)
        second = try ClientCertificateAuthority(named: "Second", in: directory)
        try install(first)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Replaces the CA file atomically (a temporary file in the same directory, renamed over it).
    private func install(_ authority: ClientCertificateAuthority) throws {
        try install(Data(contentsOf: URL(fileURLWithPath: authority.rootPath)))
    }

    private func install(_ bytes: Data) throws {
        try bytes.write(to: URL(fileURLWithPath: caFile), options: .atomic)
    }

    /// A mutual-TLS server (client role verifier) whose client anchors come from `anchors`.
    private func startServer(
        anchors: any TrustAnchorProvider, metrics: TLSTrustMetrics = .disabled,
        revocation: RevocationOptions? = nil
    ) throws -> (port: Int, accepted: AcceptedConnections) {
        var settings = TLSTrustSettings()
        settings.anchorProvider = anchors
        settings.revocation = revocation
        settings.revocationFetching = RevocationFetching(fetcher: NoRevocationFetcher(), cache: nil)
        let server = try startNIOServer(
            presenting: serverChain,
            clientVerifier: TLSTrustVerifier(settings: settings, metrics: metrics))
        return (server.port, AcceptedConnections(collecting: server.connections))
    }

    /// Connects presenting `authority`'s client as the server's `index`-th connection; the server's
    /// decision on it.
    private func handshake(
        _ server: (port: Int, accepted: AcceptedConnections), index: Int,
        presenting authority: ClientCertificateAuthority
    ) throws -> TLSTrustOutcome? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        configuration.certificateChain = try NIOSSLCertificate.fromPEMFile(authority.clientPath).map { .certificate($0) }
        configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: authority.clientKeyPath, format: .pem))
        let context = try NIOSSLContext(configuration: configuration)
        let serverVerifier = try TLSTrustVerifier(settings: try TestCertificates.settings(), metrics: .disabled)
        // Under TLS 1.3 the client's handshake completes before the server judges its certificate:
        // the server's side says what was decided.
        _ = try connect(port: server.port) { pipeline in
            try pipeline.addTrustedTLSClientHandlers(context: context, host: TestCertificates.host, verifier: serverVerifier)
        }
        let connection = try server.accepted.connection(index)
        _ = try? connection.handshake.wait()
        return connection.record?.outcome
    }

    private func assertTrusted(
        _ outcome: TLSTrustOutcome?, _ authority: ClientCertificateAuthority,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        guard case let .trusted(peer)? = outcome else { return XCTFail("not trusted: \(String(describing: outcome))", file: file, line: line) }
        let leaf = try XCTUnwrap(Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: authority.clientPath)))).first)
        XCTAssertEqual(peer.leaf, leaf, file: file, line: line)
        XCTAssertEqual(peer.role, .client, file: file, line: line)
    }

    /// Refused for the reason a client of a CA no longer trusted is: its issuer is not an anchor.
    private func assertRefusedForItsIssuer(_ outcome: TLSTrustOutcome?, file: StaticString = #filePath, line: UInt = #line) {
        guard case let .rejected(.evaluationFailed(evaluation))? = outcome else {
            return XCTFail("not refused by the evaluation: \(String(describing: outcome))", file: file, line: line)
        }
        XCTAssertTrue(
            contains(evaluation.failures) { if case .issuerNotFound = $0 { true } else { false } },
            "\(evaluation.failures)", file: file, line: line)
    }

    func testRotatingTheCAFileSwitchesWhichClientsAreAccepted() throws {
        let recorded = TestMetrics()
        let metrics = TLSTrustMetrics(factory: recorded)
        let anchors = try ReloadingTrustAnchors(paths: [caFile], onEvent: metrics.anchorReloadObserver())
        let server = try startServer(anchors: anchors, metrics: metrics)
        try assertTrusted(try handshake(server, index: 0, presenting: first), first)
        assertRefusedForItsIssuer(try handshake(server, index: 1, presenting: second))

        try install(second)
        XCTAssertEqual(anchors.reloadIfChanged(), .reloaded(count: 1))
        try assertTrusted(try handshake(server, index: 2, presenting: second), second)
        assertRefusedForItsIssuer(try handshake(server, index: 3, presenting: first))

        let client = [("role", "client"), ("resumed", "false")]
        XCTAssertEqual(
            recorded.counterTotal(
                label: TLSTrustMetrics.decisionsLabel,
                dimensions: [("outcome", "trusted"), client[0], ("reason", "none"), client[1]]), 2)
        XCTAssertEqual(
            recorded.counterTotal(
                label: TLSTrustMetrics.decisionsLabel,
                dimensions: [("outcome", "rejected"), client[0], ("reason", "evaluation_failed"), client[1]]), 2)
        XCTAssertEqual(recorded.counterTotal(label: TLSTrustMetrics.anchorReloadsLabel, dimensions: [("result", "reloaded")]), 1)
        XCTAssertEqual(anchors.current.generation, 2)
    }

    func testRunPicksUpTheRotatedFileWithinABoundedTime() throws {
        let anchors = try ReloadingTrustAnchors(paths: [caFile], pollInterval: .milliseconds(20))
        let server = try startServer(anchors: anchors)
        try assertTrusted(try handshake(server, index: 0, presenting: first), first)

        let polling = Task { await anchors.run() }
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await polling.value
            stopped.signal()
        }
        try install(second)
        let deadline = Date().addingTimeInterval(10)
        while anchors.current.generation < 2, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(anchors.current.generation, 2, "run() did not reload within 10 seconds")
        try assertTrusted(try handshake(server, index: 1, presenting: second), second)
        assertRefusedForItsIssuer(try handshake(server, index: 2, presenting: first))
        polling.cancel()
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "run() did not return once cancelled")
    }

    func testABrokenCAFileKeepsTheLastGoodSetAndTheEventLogAndMetricSaySo() throws {
        let recorded = TestMetrics()
        let metrics = TLSTrustMetrics(factory: recorded)
        let logs = LogRecords()
        let observe = metrics.anchorReloadObserver(logger: logs.logger(level: .info))
        let events = Mutex<[AnchorReloadEvent]>([])
        let anchors = try ReloadingTrustAnchors(paths: [caFile]) { event in
            events.withLock { $0.append(event) }
            observe(event)
        }
        let server = try startServer(anchors: anchors, metrics: metrics)
        try install(second)
        XCTAssertEqual(anchors.reloadIfChanged(), .reloaded(count: 1))

        try install(Data("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n".utf8))
        let outcome = anchors.reloadIfChanged()
        guard case let .failed(.invalidCertificate(path, _), kept) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(path, caFile)
        XCTAssertEqual(kept, 1)
        XCTAssertEqual(anchors.current.generation, 2, "the set in use was not replaced")
        try assertTrusted(try handshake(server, index: 0, presenting: second), second)
        assertRefusedForItsIssuer(try handshake(server, index: 1, presenting: first))
        XCTAssertEqual(anchors.reloadIfChanged(), .unchanged, "reported once")

        XCTAssertEqual(events.withLock { $0.count }, 3)
        XCTAssertEqual(recorded.counterTotal(label: TLSTrustMetrics.anchorReloadsLabel, dimensions: [("result", "reloaded")]), 1)
        XCTAssertEqual(recorded.counterTotal(label: TLSTrustMetrics.anchorReloadsLabel, dimensions: [("result", "failed")]), 1)
        let warning = try XCTUnwrap(logs.at(.warning).first)
        XCTAssertEqual(warning.text(TrustLogMetadataKey.anchorPath), caFile)
        XCTAssertEqual(warning.text(TrustLogMetadataKey.anchorCount), "1")
        XCTAssertTrue(warning.text(TrustLogMetadataKey.reason)?.contains(caFile) == true)
        XCTAssertEqual(logs.at(.info).first?.text(TrustLogMetadataKey.anchorCount), "1", "the reload before it")
    }

    /// The decision reads the provider once per handshake, offline or pending (revocation checking
    /// moves it off the event loop), so a connection never mixes two sets.
    func testOneHandshakeReadsTheProviderOnce() throws {
        let root = try Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: first.rootPath))))
        for revocation in [nil, RevocationOptions.useAnyAvailableMethod] {
            let provider = CountingAnchorProvider(anchors: root)
            let server = try startServer(anchors: provider, revocation: revocation)
            try assertTrusted(try handshake(server, index: 0, presenting: first), first)
            XCTAssertEqual(provider.calls, 1, "revocation: \(String(describing: revocation))")
            assertRefusedForItsIssuer(try handshake(server, index: 1, presenting: second))
            XCTAssertEqual(provider.calls, 2, "revocation: \(String(describing: revocation))")
        }
    }
}

/// Fixed anchors, counting how often they were asked for.
private final class CountingAnchorProvider: TrustAnchorProvider {
    private let anchors: [Certificate]
    private let count = Mutex(0)

    init(anchors: [Certificate]) { self.anchors = anchors }

    var calls: Int { count.withLock { $0 } }

    func anchors(forLeaf leaf: Certificate) -> [Certificate] {
        count.withLock { $0 += 1 }
        return anchors
    }
}
