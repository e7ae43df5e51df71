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

    /// Runs example (c) on 127.0.0.1 for `body`, then stops it.
    private func withVaporServer<T: Sendable>(
        _ body: @escaping @Sendable (Int, Reports<TLSTrustFailure>) async throws -> T
    ) async throws -> T {
        let route = try ExamplePKI.serverRoute()
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
