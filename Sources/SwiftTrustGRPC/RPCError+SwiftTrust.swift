#if GRPC
import GRPCCore
import TrustNIO

extension RPCError {
    /// The SwiftTrust rejection behind this error, if the call failed because the server's
    /// certificate was rejected on a connection made by
    /// ``GRPCNIOTransportHTTP2/HTTP2ClientTransport/Posix/swiftTrust(target:route:config:eventLoopGroup:)``:
    /// found in the chain of causes (gRPC reports the connection's failure as `unavailable` with
    /// the pipeline's error as cause).
    public var tlsTrustError: TLSTrustError? { Self.tlsTrustError(in: cause, depth: 0) }

    /// The first `TLSTrustError` in `error`'s causes, at most 8 levels deep.
    private static func tlsTrustError(in error: (any Error)?, depth: Int) -> TLSTrustError? {
        guard let error, depth < 8 else { return nil }
        if let trust = error as? TLSTrustError { return trust }
        if let rpc = error as? RPCError { return tlsTrustError(in: rpc.cause, depth: depth + 1) }
        if let runtime = error as? RuntimeError { return tlsTrustError(in: runtime.cause, depth: depth + 1) }
        return nil
    }
}
#endif // GRPC
