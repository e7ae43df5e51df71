import Foundation

/// Why a ``TLSClientTrustRoute`` or ``TLSServerTrustRoute`` refused to wire a connection.
public enum TLSTrustRouteError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The `NIOSSLContext` given was not made from the route's configuration: its
    /// `certificateVerification` differs, so the route's guarantee would not hold.
    case contextNotFromRoute
    /// The framework's mutual TLS requires client certificates (gRPC Swift 2's transport has no
    /// optional client verification); the route asked for optional ones.
    case optionalClientCertificatesUnsupported

    /// One sentence.
    public var description: String {
        switch self {
        case .contextNotFromRoute:
            return "the NIOSSLContext's certificateVerification differs from the route's; make the context with the route's makeContext()"
        case .optionalClientCertificatesUnsupported:
            return "this framework's mutual TLS requires client certificates; make the route with clientCertificates: .required"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
