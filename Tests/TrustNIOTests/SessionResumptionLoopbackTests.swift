import Foundation
import MetricsTestKit
import NIOCore
import NIOPosix
import NIOSSL
import OpenSSLServerSupport
import Synchronization
import TrustCore
import TrustNIO
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 34 item 1: a resumed TLS session carries no client certificate and never reaches the
/// verification callback; the trust handler re-verifies the session's peer on every handshake.
/// Driven by `openssl s_client -sess_out` / `-sess_in` (a client we did not write), TLS 1.2 and 1.3,
/// against one listener and against two listeners sharing one `NIOSSLContext`.
final class SessionResumptionLoopbackTests: LoopbackTestCase {
    private let clientFiles = ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"]
    private var directory: URL!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-resumption-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A server context requiring client certificates, as `startNIOServer` makes it.
    private func serverContext() throws -> NIOSSLContext {
        let identity = try TestCertificates.identity(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: identity.chain, privateKey: identity.key)
        configuration.certificateVerification = .noHostnameVerification
        return try NIOSSLContext(configuration: configuration)
    }

    /// A listener on 127.0.0.1 using `context` and `verifier`; each connection's record, and its
    /// handshake outcome (after which the server writes a line and closes).
    private func listen(context: NIOSSLContext, verifier: TLSTrustVerifier) throws -> (port: Int, connections: AcceptedConnections) {
        let accepted = AcceptedConnections()
        let server = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handshake = channel.eventLoop.makePromise(of: Void.self)
                    let record = try channel.pipeline.syncOperations.addTrustedTLSServerHandlers(context: context, verifier: verifier)
                    try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                    handshake.failAfterTimeout(on: channel.eventLoop)
                    handshake.futureResult.whenSuccess {
                        channel.writeAndFlush(ByteBuffer(string: "verified\n")).whenComplete { _ in channel.close(promise: nil) }
                    }
                    accepted.append(
                        ServerConnection(
                            channel: channel, record: record, handshake: handshake.futureResult,
                            peerAtHandshake: handshake.futureResult.flatMap { channel.trustedPeer() }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        addCleanup { try server.close().wait() }
        return (try XCTUnwrap(server.localAddress?.port), accepted)
    }

    /// Runs `openssl s_client` against 127.0.0.1:`port` at `version`, presenting the client chain
    /// when `presentCertificate`, saving the session to (or resuming it from) `session`; returns what it printed.
    private func sClient(port: Int, version: String, presentCertificate: Bool, session: String, resume: Bool) throws -> String {
        var arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", TestCertificates.host, version, "-ign_eof"]
        if presentCertificate {
            arguments += [
                "-cert", TestCertificates.path(clientFiles[0]), "-cert_chain", TestCertificates.path(clientFiles[1]),
                "-key", TestCertificates.keyPath(of: clientFiles[0]),
            ]
        }
        arguments += [resume ? "-sess_in" : "-sess_out", directory.appendingPathComponent(session).path]
        return try OpenSSLCommand.output(of: arguments)
    }

    private func clientLeaf() throws -> Certificate { try XCTUnwrap(try TestCertificates.certificates(clientFiles[0]).first) }

    func testAResumedSessionIsReverifiedAndCarriesTheClientsIdentity() throws {
        for version in ["-tls1_2", "-tls1_3"] {
            let (port, connections) = try listen(
                context: try serverContext(), verifier: try TLSTrustVerifier(settings: try TestCertificates.settings()))
            let session = "session\(version).pem"
            _ = try sClient(port: port, version: version, presentCertificate: true, session: session, resume: false)
            let first = try connections.connection(0)
            XCTAssertEqual(try first.peerAtHandshake.wait()?.leaf, try clientLeaf(), version)
            XCTAssertEqual(first.record?.sessionResumed, false, version)

            let output = try sClient(port: port, version: version, presentCertificate: false, session: session, resume: true)
            XCTAssertTrue(output.contains("Reused,"), "\(version): the session was not resumed:\n\(output)")
            let resumed = try connections.connection(1)
            XCTAssertEqual(try resumed.peerAtHandshake.wait()?.leaf, try clientLeaf(), "\(version): the re-verified identity")
            XCTAssertEqual(resumed.record?.sessionResumed, true, version)
            XCTAssertEqual(resumed.record?.trustedPeer?.validatedChain?.count, 3, "\(version): the chain the client presented first")
            XCTAssertTrue(output.contains("verified"), "\(version): the application's data reached the client:\n\(output)")
        }
    }

    /// Two listeners share the context (so BoringSSL's session cache and ticket keys): one trusts
    /// the client's CA, the other does not. A session from the first resumed on the second is
    /// re-verified under the second's anchors and refused; before, it got in with no identity.
    func testASessionFromAnotherListenerIsReverifiedUnderThisListenersAnchors() throws {
        let context = try serverContext()
        for version in ["-tls1_2", "-tls1_3"] {
            let trusting = try listen(context: context, verifier: try TLSTrustVerifier(settings: try TestCertificates.settings()))
            let other = try listen(
                context: context, verifier: try TLSTrustVerifier(settings: try TestCertificates.settings(anchors: ["rsa/root.pem"])))
            let session = "shared\(version).pem"
            _ = try sClient(port: trusting.port, version: version, presentCertificate: true, session: session, resume: false)
            XCTAssertNotNil(try trusting.connections.connection(0).peerAtHandshake.wait(), version)

            let output = try sClient(port: other.port, version: version, presentCertificate: false, session: session, resume: true)
            XCTAssertTrue(output.contains("Reused,"), "\(version): the session was not resumed:\n\(output)")
            let resumed = try other.connections.connection(0)
            XCTAssertThrowsError(try resumed.handshake.wait(), version) { error in
                guard let rejection = error as? TLSTrustError else { return XCTFail("\(version): \(error)") }
                XCTAssertEqual(rejection.tlsError as? TLSSessionResumptionError, .resumedPeerRejected, version)
                XCTAssertTrue(
                    contains(rejection.failure.trustFailures) { if case .issuerNotFound = $0 { true } else { false } },
                    "\(version): \(rejection)")
            }
            XCTAssertEqual(resumed.record?.sessionResumed, true, version)
            XCTAssertNil(resumed.record?.trustedPeer, version)
            XCTAssertFalse(output.contains("verified"), "\(version): no application data after the rejection:\n\(output)")
        }
    }

    /// The session's client certificate is judged at the time of the resumed handshake: a client
    /// that expired meanwhile (here: a listener whose verify date is after the leaf's notAfter)
    /// no longer gets in on its old session.
    func testAResumedSessionIsJudgedAtTheTimeOfItsHandshake() throws {
        let context = try serverContext()
        let now = try listen(context: context, verifier: try TLSTrustVerifier(settings: try TestCertificates.settings()))
        var later = try TestCertificates.settings()
        later.verifyDate = Date(timeIntervalSince1970: 4_200_000_000) // 2103, after every test leaf's notAfter
        later.additionalIntermediates = try TestCertificates.certificates("ecdsa/intermediate.pem")
        let expired = try listen(context: context, verifier: try TLSTrustVerifier(settings: later))
        _ = try sClient(port: now.port, version: "-tls1_3", presentCertificate: true, session: "dated.pem", resume: false)
        XCTAssertNotNil(try now.connections.connection(0).peerAtHandshake.wait())
        _ = try sClient(port: expired.port, version: "-tls1_3", presentCertificate: false, session: "dated.pem", resume: true)
        let resumed = try expired.connections.connection(0)
        XCTAssertThrowsError(try resumed.handshake.wait()) { error in
            guard let rejection = error as? TLSTrustError else { return XCTFail("\(error)") }
            XCTAssertTrue(contains(rejection.failure.trustFailures, index: 0) { if case .expired = $0 { true } else { false } }, "\(rejection)")
        }
    }

    /// Issue 41 item 4: the re-verification of a resumed session is counted with `resumed="true"`,
    /// the full handshake before it with `resumed="false"`.
    func testAResumedSessionsDecisionIsCountedAsResumed() throws {
        let recorded = TestMetrics()
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings(), metrics: TLSTrustMetrics(factory: recorded))
        let (port, connections) = try listen(context: try serverContext(), verifier: verifier)
        _ = try sClient(port: port, version: "-tls1_3", presentCertificate: true, session: "counted.pem", resume: false)
        XCTAssertNotNil(try connections.connection(0).peerAtHandshake.wait())
        let output = try sClient(port: port, version: "-tls1_3", presentCertificate: false, session: "counted.pem", resume: true)
        XCTAssertTrue(output.contains("Reused,"), "the session was not resumed:\n\(output)")
        XCTAssertNotNil(try connections.connection(1).peerAtHandshake.wait())
        for resumed in ["false", "true"] {
            XCTAssertEqual(
                recorded.counterTotal(
                    label: TLSTrustMetrics.decisionsLabel,
                    dimensions: [
                        ("outcome", "trusted"), ("role", "client"), ("reason", "none"), ("resumed", resumed),
                    ]), 1, "resumed=\(resumed)")
        }
    }
}
