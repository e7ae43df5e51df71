import NIOCore
import NIOSSL

/// A TLS configuration and a SwiftTrust verifier set together for one end of a connection:
/// ``TLSClientTrustRoute`` (a server verified for a host) or ``TLSServerTrustRoute`` (clients
/// verified for mutual TLS). `ChannelPipeline.SynchronousOperations.addHandlers(of:context:position:)`
/// wires either into a pipeline.
public protocol TLSTrustRoute: Sendable {
    /// swift-nio-ssl's handler for this end (`NIOSSLClientHandler` or `NIOSSLServerHandler`).
    associatedtype TLSHandler: ChannelHandler

    /// The TLS configuration, `certificateVerification` set by the route.
    var tlsConfiguration: TLSConfiguration { get }

    /// A swift-nio-ssl context for ``tlsConfiguration``.
    func makeContext() throws -> NIOSSLContext

    /// The TLS handler and the ``TLSPeerTrustHandler`` to add right after it, for one connection.
    func makeHandlers(context: NIOSSLContext) throws -> (tls: TLSHandler, trust: TLSPeerTrustHandler)
}

extension TLSClientTrustRoute: TLSTrustRoute {}

extension TLSServerTrustRoute: TLSTrustRoute {}
