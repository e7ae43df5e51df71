import NIOCore
import NIOSSL
import TrustSession

extension ChannelPipeline.SynchronousOperations {
    /// Adds `route`'s TLS handler and its ``TLSPeerTrustHandler`` at `position` (in that order),
    /// returning the connection's `TLSPeerTrustRecord`: on a client the server's verdict, on a
    /// mutual-TLS server the client's identity once verified.
    ///
    /// `.first` puts TLS in front of handlers a framework already added (gRPC Swift 2's
    /// `onCreateTCPConnection` hook runs after its HTTP/2 handlers are in place).
    @discardableResult
    public func addHandlers<Route: TLSTrustRoute>(
        of route: Route, context: NIOSSLContext,
        position: Position = .last
    ) throws -> TLSPeerTrustRecord {
        let (tls, trust) = try route.makeHandlers(context: context)
        switch position {
        case .first:
            try addHandler(trust, position: .first)
            try addHandler(tls, position: .first)
        default:
            try addHandler(tls, position: position)
            try addHandler(trust, position: .after(tls))
        }
        return trust.record
    }
}
