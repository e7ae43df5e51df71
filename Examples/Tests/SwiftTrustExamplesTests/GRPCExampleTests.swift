import GRPCCore
import GRPCNIOTransportHTTP2
import SwiftTrust
import SwiftTrustExamples
import SwiftTrustGRPC
import TrustNIO
import XCTest

/// Example (b) on loopback: a gRPC Swift 2 client pinning its server's key through TrustNIO.
final class GRPCExampleTests: XCTestCase {
    func testPinnedServerAnswersTheCall() async throws {
        let leaf = try XCTUnwrap(ExamplePKI.certificates("ecdsa/leaf.pem").first)
        let route = try pinnedRoute(pins: [SPKIPin(certificate: leaf).description, Self.unusedPin(1)])
        let answer = try await withEchoServer { port in try await GRPCPinningExample.echo("hello", port: port, route: route) }
        XCTAssertEqual(answer, "hello")
    }

    func testWrongPinFailsTheCallWithTheTypedReason() async throws {
        let route = try pinnedRoute(pins: [Self.unusedPin(1), Self.unusedPin(2)])
        let outcome: Result<String, RPCError> = try await withEchoServer { port in
            do { return .success(try await GRPCPinningExample.echo("hello", port: port, route: route)) } catch let error as RPCError {
                return .failure(error)
            }
        }
        guard case let .failure(error) = outcome else { return XCTFail("the call succeeded with a wrong pin") }
        XCTAssertEqual(error.code, .unavailable)
        let rejection = try XCTUnwrap(error.tlsTrustError, "\(error)")
        guard case let .judgeRejected(host, _) = rejection.failure else { return XCTFail("\(rejection)") }
        XCTAssertEqual(host, ExamplePKI.host)
        guard case .publicKeyPinningFailed? = rejection.failure.serverTrustFailureReason else { return XCTFail("\(rejection)") }
    }

    /// A route to the test leaf's host whose server must hold one of `pins`.
    private func pinnedRoute(pins: [String]) throws -> TLSClientTrustRoute {
        let manager = try ServerTrustManager(evaluators: [ExamplePKI.host: PinnedSPKIHashesTrustEvaluator(pins: pins)])
        return try TLSClientTrustRoute(host: ExamplePKI.host, verifier: TLSTrustVerifier(evaluator: manager, settings: ExamplePKI.settings()))
    }

    /// A well-formed pin no test key has: 32 bytes of `byte`.
    private static func unusedPin(_ byte: UInt8) -> String {
        SPKIPin.prefix + Data(repeating: byte, count: 32).base64EncodedString()
    }

    /// Runs the echo server on 127.0.0.1 for `body`, then stops it.
    private func withEchoServer<T: Sendable>(_ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        try await withDeadline {
            let transport = GRPCPinningExample.makeServerTransport(
                certificateChain: ExamplePKI.serverChain.map(ExamplePKI.path), privateKey: ExamplePKI.keyPath(of: "ecdsa/leaf.pem"))
            let server = GRPCServer(transport: transport, services: [GRPCEchoService()])
            let serving = Task { try await server.serve() }
            defer {
                server.beginGracefulShutdown()
                serving.cancel()
            }
            guard let port = try await transport.listeningAddress.ipv4?.port else { throw LoopbackTimeout() }
            return try await body(port)
        }
    }
}
