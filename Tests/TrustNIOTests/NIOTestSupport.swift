import Foundation
import NIOCore
import NIOPosix
import OpenSSLServerSupport
import NIOSSL
import Synchronization
import TrustCore
import TrustNIO
import TrustX509
import TrustTestSupport
import XCTest

extension TestCertificates {
    /// Settings trusting `anchors` at the verify date. Revocation information is never fetched from
    /// the test certificates' URLs (swifttrust.test names, not loopback): a judge that fetches, such
    /// as Alamofire's RevocationTrustEvaluator, finds nothing (tests serve their own when they fetch).
    static func settings(anchors: [String] = ["ecdsa/root.pem"]) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try anchors.flatMap(certificates))
        settings.verifyDate = verifyDate
        settings.revocationFetching = RevocationFetching(fetcher: NoRevocationFetcher(), cache: nil)
        return settings
    }

    /// A TLS identity: the certificates to present (leaf first) and the leaf's key.
    static func identity(presenting files: [String]) throws -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        let chain = try files.flatMap { try NIOSSLCertificate.fromPEMFile(path($0)) }.map(NIOSSLCertificateSource.certificate)
        let key = try NIOSSLPrivateKey(file: keyPath(of: files[0]), format: .pem)
        return (chain, .privateKey(key))
    }
}

/// Why a test connection gave up.
struct LoopbackTimeout: Error {}

extension EventLoopPromise {
    /// Fails the promise after 10 seconds unless it completed: every loopback wait is bounded.
    func failAfterTimeout(on eventLoop: any EventLoop) {
        let timeout = eventLoop.scheduleTask(in: .seconds(10)) { self.fail(LoopbackTimeout()) }
        futureResult.whenComplete { _ in timeout.cancel() }
    }
}

/// One event-loop group for a test case, shut down by `tearDown`.
class LoopbackTestCase: XCTestCase {
    var group: MultiThreadedEventLoopGroup!
    private var cleanups: [() throws -> Void] = []

    override func setUp() {
        super.setUp()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    override func tearDown() {
        for cleanup in cleanups.reversed() { try? cleanup() }
        cleanups = []
        try? group.syncShutdownGracefully()
        super.tearDown()
    }

    /// Runs `cleanup` when the test ends.
    func addCleanup(_ cleanup: @escaping () throws -> Void) { cleanups.append(cleanup) }

    /// A certificate made now by `openssl req -x509 -new` from `config` (an openssl `[req]`
    /// configuration) with the committed ECDSA leaf's key, issued by the TestCertificates file
    /// `signer` or else self-signed, in a temporary directory removed when the test ends. Skips the
    /// test when openssl is not installed.
    func issueCertificate(config: String, signedBy signer: String? = nil) throws -> (certificate: String, key: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-nio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addCleanup { try FileManager.default.removeItem(at: directory) }
        let configPath = directory.appendingPathComponent("certificate.cnf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let certificate = directory.appendingPathComponent("certificate.pem").path
        let key = TestCertificates.keyPath(of: "ecdsa/leaf.pem")
        var arguments = ["req", "-x509", "-new", "-config", configPath, "-key", key, "-days", "30"]
        if let signer { arguments += ["-CA", TestCertificates.path(signer), "-CAkey", TestCertificates.keyPath(of: signer)] }
        do {
            try OpenSSLCommand.run(arguments + ["-out", certificate])
        } catch OpenSSLCommand.Failure.opensslMissing {
            throw XCTSkip("openssl is not installed")
        }
        return (certificate, key)
    }

    /// What a client connection ended with.
    struct ClientResult {
        /// The verifier's decision.
        let record: TLSPeerTrustRecord
        /// The handshake error, nil when it completed.
        let error: (any Error)?
        /// The validated chain swift-nio-ssl exposes, as DER (nil when none).
        let validatedChainDER: [[UInt8]]?
    }

    /// Connects to 127.0.0.1:`port`, verifying the server for `host` with `verifier`, presenting
    /// `clientIdentity` if given, and waits for the handshake.
    func connect(
        port: Int, host: String = TestCertificates.host, verifier: TLSTrustVerifier, serverName: String? = nil,
        clientIdentity: [String]? = nil, taskHandler: ServerTrustChallengeHandler? = nil
    ) throws -> ClientResult {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // SwiftTrust checks the host; BoringSSL's hostname check is replaced by the callback anyway.
        configuration.certificateVerification = .noHostnameVerification
        if let clientIdentity {
            let identity = try TestCertificates.identity(presenting: clientIdentity)
            configuration.certificateChain = identity.chain
            configuration.privateKey = identity.key
        }
        let context = try NIOSSLContext(configuration: configuration)
        return try connect(port: port) { pipeline in
            try pipeline.addTrustedTLSClientHandlers(
                context: context, host: host, verifier: verifier, serverName: serverName,
                port: port, taskHandler: taskHandler)
        }
    }

    /// Connects to 127.0.0.1:`port` through the TLS handlers `addTLS` adds (returning the
    /// connection's record), and waits for the handshake.
    func connect(port: Int, addTLS: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> TLSPeerTrustRecord)
        throws -> ClientResult
    {
        let record = Mutex<TLSPeerTrustRecord?>(nil)
        let handshake = group.next().makePromise(of: Void.self)
        let channel = try ClientBootstrap(group: group)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let added = try addTLS(channel.pipeline.syncOperations)
                    record.withLock { $0 = added }
                    try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                    handshake.failAfterTimeout(on: channel.eventLoop)
                }
            }
            .connect(host: "127.0.0.1", port: port).wait()
        var handshakeError: (any Error)?
        do { try handshake.futureResult.wait() } catch { handshakeError = error }
        let chain = try? channel.nioSSL_peerValidatedCertificateChain().wait()
        try? channel.close().wait()
        let der = chain?.map { (try? $0.toDERBytes()) ?? [] }
        return ClientResult(record: try XCTUnwrap(record.withLock { $0 }), error: handshakeError, validatedChainDER: der)
    }

    /// One connection a test server accepted.
    struct ServerConnection: Sendable {
        let channel: any Channel
        /// The verifier's decision on the client's certificate (nil without a client verifier).
        let record: TLSPeerTrustRecord?
        /// Succeeds when the handshake completes.
        let handshake: EventLoopFuture<Void>
        /// `channel.trustedPeer()` read when the handshake completed (the client may close right after).
        let peerAtHandshake: EventLoopFuture<TrustedPeer?>
    }

    /// The first connection `connections` yields, within 10 seconds.
    func firstConnection(_ connections: AsyncStream<ServerConnection>) throws -> ServerConnection {
        let box = Mutex<ServerConnection?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            var iterator = connections.makeAsyncIterator()
            let first = await iterator.next()
            box.withLock { $0 = first }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { throw LoopbackTimeout() }
        return try XCTUnwrap(box.withLock { $0 })
    }

    /// A TLS server on 127.0.0.1 (ephemeral port) presenting `files`; with `clientVerifier`, client
    /// certificates are required and verified by it. Returns the port and the stream of each
    /// connection's (record, handshake outcome).
    func startNIOServer(presenting files: [String], clientVerifier: TLSTrustVerifier? = nil) throws
        -> (port: Int, connections: AsyncStream<ServerConnection>)
    {
        let identity = try TestCertificates.identity(presenting: files)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: identity.chain, privateKey: identity.key)
        if clientVerifier != nil { configuration.certificateVerification = .noHostnameVerification }
        let context = try NIOSSLContext(configuration: configuration)
        let (stream, continuation) = AsyncStream<ServerConnection>.makeStream()
        let server = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handshake = channel.eventLoop.makePromise(of: Void.self)
                    var record: TLSPeerTrustRecord?
                    if let clientVerifier {
                        record = try channel.pipeline.syncOperations.addTrustedTLSServerHandlers(context: context, verifier: clientVerifier)
                    } else {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
                    handshake.failAfterTimeout(on: channel.eventLoop)
                    let peer = handshake.futureResult.flatMap { channel.trustedPeer() }
                    continuation.yield(
                        ServerConnection(
                            channel: channel, record: record, handshake: handshake.futureResult,
                            peerAtHandshake: peer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        addCleanup {
            continuation.finish()
            try server.close().wait()
        }
        return (try XCTUnwrap(server.localAddress?.port), stream)
    }
}

extension OpenSSLServer {
    /// Starts `openssl s_server` presenting TestCertificates `files` (leaf first, the rest as its chain).
    convenience init(presenting files: [String]) throws {
        do {
            try self.init(
                certificate: TestCertificates.path(files[0]), key: TestCertificates.keyPath(of: files[0]),
                chain: files.dropFirst().map(TestCertificates.path))
        } catch OpenSSLServer.StartError.opensslMissing {
            throw XCTSkip("openssl is not installed")
        }
    }
}

/// The connections a listener accepted, in order.
final class AcceptedConnections: Sendable {
    private let connections = Mutex<[LoopbackTestCase.ServerConnection]>([])

    /// An empty list.
    init() {}

    /// The connections `stream` yields, collected as they come (for a test that makes several).
    init(collecting stream: AsyncStream<LoopbackTestCase.ServerConnection>) {
        Task { [self] in
            for await connection in stream { append(connection) }
        }
    }

    func append(_ connection: LoopbackTestCase.ServerConnection) { connections.withLock { $0.append(connection) } }

    /// The `index`-th connection (0 first), waiting up to 10 seconds for it.
    func connection(_ index: Int) throws -> LoopbackTestCase.ServerConnection {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let connection = connections.withLock({ index < $0.count ? $0[index] : nil }) { return connection }
            usleep(10_000)
        }
        throw LoopbackTimeout()
    }
}

/// The failure inside a rejected client result, failing the test when it was accepted.
func rejection(_ result: LoopbackTestCase.ClientResult, file: StaticString = #filePath, line: UInt = #line) -> TLSTrustFailure? {
    guard let error = result.error else {
        XCTFail("the handshake completed", file: file, line: line)
        return nil
    }
    guard let trustError = error as? TLSTrustError else {
        XCTFail("the pipeline error is not a TLSTrustError: \(error)", file: file, line: line)
        return nil
    }
    XCTAssertNotNil(result.record.failure, "the record holds the rejection too", file: file, line: line)
    return trustError.failure
}

/// Whether some failure's reason matches `reason` (pattern matching, never the text).
func contains(_ failures: [TrustFailure], index: Int? = nil, _ reason: (TrustFailureReason) -> Bool) -> Bool {
    failures.contains { reason($0.reason) && (index == nil || $0.certificateIndex == index) }
}

/// A revocation fetcher with nothing to serve: every fetch fails at once, without the network.
struct NoRevocationFetcher: RevocationFetcher {
    struct NothingServed: Error {}

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { throw NothingServed() }
}
