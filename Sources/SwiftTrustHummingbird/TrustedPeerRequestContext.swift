#if Hummingbird
import Hummingbird
import NIOCore
import TrustNIO
import TrustSession

/// A Hummingbird request context that can say who the client is: the `TrustedPeer` SwiftTrust
/// accepted on the request's connection (served by ``HTTPServerBuilder/swiftTrustTLS(http1:route:onRejection:)``).
///
/// ```swift
/// router.get("whoami") { _, context in
///     let peer = try await context.requireTrustedPeer()
///     return "\(peer.subject)"
/// }
/// ```
public struct TrustedPeerRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    public let channel: any Channel

    /// A context for a request from `source`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The client SwiftTrust accepted on this connection; nil when none presented a certificate
    /// (optional client certificates) or the server was not built with
    /// ``HTTPServerBuilder/swiftTrustTLS(http1:route:onRejection:)``. Looks at the connection, and at
    /// its parent for an HTTP/2 stream.
    public func trustedPeer() async throws -> TrustedPeer? {
        if let peer = try await channel.trustedPeer().get() { return peer }
        return try await channel.parent?.trustedPeer().get()
    }

    /// The client SwiftTrust accepted on this connection.
    ///
    /// - Throws: `HTTPError(.forbidden)` when there is none: fails closed.
    public func requireTrustedPeer() async throws -> TrustedPeer {
        guard let peer = try await trustedPeer() else { throw HTTPError(.forbidden, message: "no verified client certificate") }
        return peer
    }
}
#endif // Hummingbird
