import Hummingbird
import SwiftTrustExamples
import SwiftTrustHummingbird
import TrustCore
import TrustNIO
import TrustSession
import XCTest

/// Example (a) on loopback: Hummingbird 2, client certificates required and verified by SwiftTrust.
final class HummingbirdExampleTests: XCTestCase {
    func testVerifiedClientReachesTheHandlerWhichReadsItsIdentity() async throws {
        let response = try await withHummingbirdServer { port, _ in
            try await httpsGet("/whoami", port: port, presenting: ExamplePKI.clientChain)
        }
        try assertAnsweredWithClientIdentity(response)
    }

    func testUntrustedClientIsRefusedWithTheTypedReasonForItsConnection() async throws {
        // The server's own certificate as a client certificate: serverAuth only, no clientAuth.
        let (response, rejection) = try await withHummingbirdServer { port, rejections in
            (try await httpsGet("/whoami", port: port, presenting: ExamplePKI.serverChain), try await rejections.first())
        }
        assertRefusedForExtendedKeyUsage(response, rejection.failure)
        XCTAssertEqual(rejection.remoteAddress?.ipAddress, "127.0.0.1")
    }

    /// Runs example (a) on 127.0.0.1 for `body`, then stops it.
    private func withHummingbirdServer<T: Sendable>(
        _ body: @escaping @Sendable (Int, Reports<TLSTrustRejection>) async throws -> T
    ) async throws -> T {
        let route = try ExamplePKI.serverRoute()
        return try await withDeadline {
            let rejections = Reports<TLSTrustRejection>()
            let ports = Reports<Int>()
            let app = try HummingbirdMTLSExample.makeApplication(
                route: route, onRejection: { rejections.add($0) },
                onServerRunning: { ports.add($0) })
            let server = Task { try await app.runService(gracefulShutdownSignals: []) }
            defer { server.cancel() }
            return try await body(try await ports.first(), rejections)
        }
    }
}
