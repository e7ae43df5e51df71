import SwiftTrustVapor
import TrustNIO
import TrustSession
import Vapor

/// Example (c): a Vapor 4 HTTPS server whose clients' certificates SwiftTrust verifies through
/// Vapor's `customCertificateVerifyCallbackWithMetadata`, and whose handler reads the identity.
public enum VaporMTLSExample {
    /// Configures `app`: mutual TLS through `route` on 127.0.0.1:`port` (HTTP/1.1), and
    /// `GET /whoami` answering the verified client's subject and subject alternative names.
    /// `onRejection` hears each refused handshake's typed reason.
    public static func configure(
        _ app: Application, route: TLSServerTrustRoute, port: Int = 0,
        onRejection: @escaping @Sendable (TLSTrustFailure) -> Void
    ) {
        app.useSwiftTrust(route, onRejection: onRejection)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = port
        app.http.server.configuration.supportVersions = [.one]
        app.get("whoami") { request async throws -> String in
            let peer = try await request.requireTrustedPeer()
            return Identity(peer).text
        }
    }
}
