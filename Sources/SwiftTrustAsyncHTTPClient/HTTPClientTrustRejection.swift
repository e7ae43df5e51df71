#if AsyncHTTPClient
/// What TLS reports for an AsyncHTTPClient connection that SwiftTrust refused: its handshake had
/// succeeded, and the connection was closed before any request was written on it
/// (`TLSTrustError.tlsError` of the error `execute` throws).
public enum HTTPClientTrustRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server's leaf was rejected after the handshake; the connection was closed unused.
    case connectionClosedBeforeRequest
    /// The connection had no TLS handler or no peer certificate to judge (fails closed).
    case noPeerCertificate

    /// One sentence.
    public var description: String {
        switch self {
        case .connectionClosedBeforeRequest:
            return "SwiftTrust rejected the server after the TLS handshake; the connection was closed before any request was written"
        case .noPeerCertificate:
            return "the connection had no TLS peer certificate for SwiftTrust to judge; it was closed before any request was written"
        }
    }
}
#endif // AsyncHTTPClient
