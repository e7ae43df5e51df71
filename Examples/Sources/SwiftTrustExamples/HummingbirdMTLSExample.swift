import Hummingbird
import SwiftTrustHummingbird
import TrustNIO
import TrustSession

/// Example (a): a Hummingbird 2 HTTPS server that requires client certificates verified by
/// SwiftTrust, and whose handler reads the client's identity.
public enum HummingbirdMTLSExample {
    /// The application: `GET /whoami` answers the verified client's subject and subject alternative
    /// names; a connection whose client is rejected never reaches it, and `onRejection` hears why.
    ///
    /// - Parameters:
    ///   - route: The server's TLS configuration and client verifier.
    ///   - port: The port to listen on at 127.0.0.1 (0: any free port).
    ///   - onRejection: Hears each refused connection's typed reason.
    ///   - onServerRunning: Called with the listening port once the server runs.
    public static func makeApplication(
        route: TLSServerTrustRoute, port: Int = 0,
        onRejection: @escaping @Sendable (TLSTrustRejection) -> Void,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) throws -> some ApplicationProtocol {
        let router = Router(context: TrustedPeerRequestContext.self)
        router.get("whoami") { _, context -> String in
            let peer = try await context.requireTrustedPeer()
            return Identity(peer).text
        }
        return Application(
            router: router,
            server: .swiftTrustTLS(route: route, onRejection: onRejection),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) }
        )
    }
}
