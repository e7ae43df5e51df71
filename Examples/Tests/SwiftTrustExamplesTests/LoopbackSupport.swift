import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import TrustNIO
import TrustSession
import XCTest

/// Why a loopback test gave up.
struct LoopbackTimeout: Error {}

/// `body`'s result, or `LoopbackTimeout` after `seconds`: every loopback test is bounded.
func withDeadline<T: Sendable>(seconds: Int = 60, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw LoopbackTimeout()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw LoopbackTimeout() }
        return first
    }
}

/// Values a server reports from its event loops, awaited by the test.
final class Reports<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func add(_ value: Value) { values.withLock { $0.append(value) } }

    /// The first value, waiting up to 10 s for it.
    func first() async throws -> Value {
        for _ in 0..<200 {
            if let value = values.withLock({ $0.first }) { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LoopbackTimeout()
    }

    var all: [Value] { values.withLock { $0 } }
}

/// A minimal HTTPS client for the server examples: `GET path` over HTTP/1.1 to 127.0.0.1:`port`,
/// the server verified by SwiftTrust (a `TLSClientTrustRoute` for the test leaf's host, at the
/// verify date), presenting `files` as its client certificate. Returns what the server sent
/// (status line, headers, body) up to its close, or the connection's error.
func httpsGet(_ path: String, port: Int, presenting files: [String]) async throws -> Result<String, any Error> {
    var configuration = TLSConfiguration.makeClientConfiguration()
    let identity = try ExamplePKI.identity(files)
    configuration.certificateChain = identity.chain
    configuration.privateKey = identity.key
    configuration.applicationProtocols = ["http/1.1"]
    let route = try TLSClientTrustRoute(
        host: ExamplePKI.host, verifier: TLSTrustVerifier(settings: ExamplePKI.settings()),
        port: port, configuration: configuration)
    let context = try route.makeContext()
    let group = MultiThreadedEventLoopGroup.singleton
    let response = group.next().makePromise(of: String.self)
    let channel = try await ClientBootstrap(group: group)
        .connectTimeout(.seconds(5))
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(of: route, context: context)
                try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: response))
            }
        }
        .connect(host: "127.0.0.1", port: port).get()
    let timeout = channel.eventLoop.scheduleTask(in: .seconds(10)) { response.fail(LoopbackTimeout()) }
    // swift-nio-ssl holds the request until the handshake completes.
    channel.writeAndFlush(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: \(ExamplePKI.host)\r\nConnection: close\r\n\r\n"), promise: nil)
    let result: Result<String, any Error>
    do { result = .success(try await response.futureResult.get()) } catch { result = .failure(error) }
    timeout.cancel()
    try? await channel.close()
    return result
}

/// Collects what the server sends until it closes; fails on the first error.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let promise: EventLoopPromise<String>
    private var text = ""
    private var done = false

    init(promise: EventLoopPromise<String>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        text += String(buffer: unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done { promise.succeed(text) }
        done = true
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !done { promise.fail(error) }
        done = true
        context.close(promise: nil)
    }
}

/// Asserts that the server answered `GET /whoami` with the test client's identity (subject and email SAN).
func assertAnsweredWithClientIdentity(_ response: Result<String, any Error>, file: StaticString = #filePath, line: UInt = #line) throws {
    let text = try response.get()
    XCTAssertTrue(text.hasPrefix("HTTP/1.1 200"), text, file: file, line: line)
    XCTAssertTrue(text.contains("SwiftTrust Test Client"), text, file: file, line: line)
    XCTAssertTrue(text.contains("user@swifttrust.test"), text, file: file, line: line)
}

/// Asserts that no handler answered, and that the server's typed reason is the leaf's extended key
/// usage (the server's serverAuth-only certificate presented as a client certificate).
func assertRefusedForExtendedKeyUsage(
    _ response: Result<String, any Error>, _ failure: TLSTrustFailure,
    file: StaticString = #filePath, line: UInt = #line
) {
    if case let .success(text) = response { XCTAssertFalse(text.contains("200"), "the handler answered: \(text)", file: file, line: line) }
    XCTAssertTrue(
        failure.trustFailures.contains { failure in
            if case .extendedKeyUsageIncompatible = failure.reason { true } else { false }
        }, "\(failure)", file: file, line: line)
}
