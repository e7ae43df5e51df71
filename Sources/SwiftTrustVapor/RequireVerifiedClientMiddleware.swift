#if Vapor
import Vapor

/// Refuses (403) every request on a connection whose client SwiftTrust has not verified, when the
/// route requires client certificates. Installed by ``Vapor/Application/useSwiftTrust(_:onRejection:)``.
///
/// Why: BoringSSL resumes TLS sessions without the client sending its certificate again, and
/// Vapor's verification hook is then never called, while Vapor gives SwiftTrust no per-connection
/// handler to re-verify the session (TrustNIO's `TLSPeerTrustHandler` does that where it is in the
/// pipeline). Vapor 4.122 happens to make a new `NIOSSLContext` for every connection, so nothing
/// resumes today; this keeps it fail-closed should that change. Such a connection carries no validated chain, so its requests find no
/// ``Vapor/Request/trustedPeer()`` and are refused here: a client that was verified once cannot
/// keep making requests on resumed sessions after its certificate expired or was revoked. It
/// must connect again without resumption, and is verified then.
struct RequireVerifiedClientMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard await request.trustedPeer() != nil else {
            throw Abort(
                .forbidden,
                reason:
                    "no verified client certificate on this connection (a resumed TLS session is not verified through Vapor's hook: connect again)")
        }
        return try await next.respond(to: request)
    }
}
#endif // Vapor
