#if GRPC
import NIOSSL

extension TLSConfiguration {
    /// gRPC's ALPN protocols (`grpc-exp`, `h2`), what its client and server transports offer.
    static let grpcApplicationProtocols = ["grpc-exp", "h2"]

    /// This configuration with gRPC's ALPN protocols, or nil when it names protocols of its own
    /// (which stay as they are).
    var addingGRPCApplicationProtocols: TLSConfiguration? {
        guard applicationProtocols.isEmpty else { return nil }
        var tls = self
        tls.applicationProtocols = Self.grpcApplicationProtocols
        return tls
    }
}
#endif // GRPC
