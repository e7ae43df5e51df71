#if Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL
import TrustNIO
import TrustSession

/// A Hummingbird child channel wrapped in TLS whose clients SwiftTrust verifies: each connection
/// gets the route's TLS handler and its own `TLSPeerTrustHandler` (so `channel.trustedPeer()`
/// answers, and a resumed session's client is re-verified), unlike `HummingbirdTLS.TLSChannel`,
/// which shares one callback between connections and keeps no identity.
public struct TrustedTLSChannel<BaseChannel: ServerChildChannel>: ServerChildChannel {
    /// The wrapped channel's value.
    public typealias Value = BaseChannel.Value

    private let baseChannel: BaseChannel
    private let route: TLSServerTrustRoute
    private let context: NIOSSLContext
    private let onRejection: (@Sendable (TLSTrustRejection) -> Void)?

    /// Wraps `baseChannel` in TLS verified by `route`; `onRejection` hears each refused connection's reason.
    ///
    /// - Throws: swift-nio-ssl's error for a TLS configuration it cannot load.
    public init(
        _ baseChannel: BaseChannel, route: TLSServerTrustRoute,
        onRejection: (@Sendable (TLSTrustRejection) -> Void)? = nil
    ) throws {
        self.baseChannel = baseChannel
        self.route = route
        context = try route.makeContext()
        self.onRejection = onRejection
    }

    /// Adds the TLS and trust handlers, then the wrapped channel's.
    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let record = try channel.pipeline.syncOperations.addHandlers(of: route, context: context)
            if let onRejection {
                let remote = channel.remoteAddress
                channel.closeFuture.whenComplete { _ in
                    if let rejection = TLSTrustRejection(record: record, remoteAddress: remote) { onRejection(rejection) }
                }
            }
        }.flatMap {
            baseChannel.setup(channel: channel, logger: logger)
        }
    }

    /// Hands the connection to the wrapped channel.
    public func handle(value: Value, logger: Logger) async {
        await baseChannel.handle(value: value, logger: logger)
    }
}

extension TrustedTLSChannel: HTTPChannelHandler where BaseChannel: HTTPChannelHandler {
    /// The wrapped channel's responder.
    public var responder: HTTPChannelHandler.Responder { baseChannel.responder }
}
#endif // Hummingbird
