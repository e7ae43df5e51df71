import SwiftTrustExamples
import SwiftTrustVapor
import TrustCore
import TrustNIO
import TrustSession
import Vapor
import XCTest

/// Example (c) on loopback: Vapor 4, client certificates verified through
/// `customCertificateVerifyCallbackWithMetadata`, the identity read by the handler.
final class VaporExampleTests: XCTestCase {
    func testVerifiedClientReachesTheHandlerWhichReadsItsIdentity() async throws {
        let response = try await withVaporServer { port, _ in
            try await httpsGet("/whoami", port: port, presenting: ExamplePKI.clientChain)
        }
        try assertAnsweredWithClientIdentity(response)
    }

    func testUntrustedClientIsRefusedWithTheTypedReason() async throws {
        let (response, failure) = try await withVaporServer { port, rejections in
            (try await httpsGet("/whoami", port: port, presenting: ExamplePKI.serverChain), try await rejections.first())
        }
        assertRefusedForExtendedKeyUsage(response, failure)
    }

    /// Issue 41: the committed client (`email:user@swifttrust.test`) is served under a rule it
    /// matches and refused in the handshake, with the rule named, under one it does not.
    func testOnlyClientsWithTheRequiredIdentityAreServed() async throws {
        let allowed = try await withVaporServer(requiredIdentity: try .email("user@swifttrust.test")) { port, _ in
            try await httpsGet("/whoami", port: port, presenting: ExamplePKI.clientChain)
        }
        try assertAnsweredWithClientIdentity(allowed)
        let rule = try IdentityRule.spiffeID(trustDomain: "swifttrust.test")
        let (response, failure) = try await withVaporServer(requiredIdentity: rule) { port, rejections in
            (try await httpsGet("/whoami", port: port, presenting: ExamplePKI.clientChain), try await rejections.first())
        }
        if case let .success(text) = response { XCTAssertFalse(text.contains("200"), "a client without the required identity was served: \(text)") }
        XCTAssertEqual(failure, .identityNotAllowed(rule))
    }

    /// A client verified once cannot go on without its certificate on a resumed session: Vapor
    /// calls no hook on a resumed TLS session and gives no per-connection handler to re-verify it,
    /// so its requests would be refused (403); today Vapor does not resume at all. Driven by
    /// `openssl s_client -sess_out` / `-sess_in`, TLS 1.2.
    func testAResumedSessionGetsNothing() async throws {
        guard let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("openssl is not installed")
        }
        let session = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-vapor-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: session) }
        let (first, resumed) = try await withVaporServer { port, _ in
            let request = "GET /whoami HTTP/1.1\r\nHost: \(ExamplePKI.host)\r\nConnection: close\r\n\r\n"
            let client = ["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-ign_eof"]
            let first = try Self.sClient(
                openssl,
                client + [
                    "-cert", ExamplePKI.path("ecdsa/leaf-client.pem"),
                    "-cert_chain", ExamplePKI.path("ecdsa/intermediate.pem"),
                    "-key", ExamplePKI.keyPath(of: "ecdsa/leaf-client.pem"), "-sess_out", session,
                ], input: request)
            let resumed = try Self.sClient(openssl, client + ["-sess_in", session], input: request)
            return (first, resumed)
        }
        XCTAssertTrue(first.contains("HTTP/1.1 200"), first)
        XCTAssertTrue(first.contains("SwiftTrust Test Client"), first)
        // Vapor 4.122 makes a new NIOSSLContext for every connection (HTTPServer's child channel
        // initializer), so no session resumes and a client without a certificate is refused in the
        // handshake; should a later Vapor resume sessions, the middleware refuses their requests.
        XCTAssertFalse(resumed.contains("HTTP/1.1 200"), resumed)
        XCTAssertFalse(resumed.contains("SwiftTrust Test Client,"), resumed)
        if resumed.contains("Reused,") { XCTAssertTrue(resumed.contains("HTTP/1.1 403"), resumed) }
    }

    /// Runs `openssl arguments`, writing `input` to it, for at most 10 seconds; what it printed.
    private static func sClient(_ openssl: String, _ arguments: [String], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Runs example (c) on 127.0.0.1 for `body`, then stops it.
    private func withVaporServer<T: Sendable>(
        requiredIdentity: IdentityRule? = nil,
        _ body: @escaping @Sendable (Int, Reports<TLSTrustFailure>) async throws -> T
    ) async throws -> T {
        let route = try ExamplePKI.serverRoute(requiredIdentity: requiredIdentity)
        return try await withDeadline {
            let rejections = Reports<TLSTrustFailure>()
            let app = try await Application.make(.testing)
            VaporMTLSExample.configure(app, route: route, onRejection: { rejections.add($0) })
            do {
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                guard let port = app.http.server.shared.localAddress?.port else { throw LoopbackTimeout() }
                let result = try await body(port, rejections)
                await app.server.shutdown()
                try await app.asyncShutdown()
                return result
            } catch {
                await app.server.shutdown()
                try? await app.asyncShutdown()
                throw error
            }
        }
    }
}
