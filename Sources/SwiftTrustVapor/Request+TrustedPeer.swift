#if Vapor
import SwiftASN1
import TrustNIO
import TrustSession
import TrustX509
import Vapor
import X509

extension Request {
    /// The client SwiftTrust accepted on this request's connection (served after
    /// ``Vapor/Application/useSwiftTrust(_:onRejection:)``), from the validated chain Vapor hands
    /// the request (`peerCertificateChain`, the chain the verifier returned as swift-nio-ssl
    /// metadata). Nil when the client presented no certificate or SwiftTrust is not in use; a chain
    /// no longer remembered is verified again, so this fails closed.
    public func trustedPeer() async -> TrustedPeer? {
        guard let server = application.storage[SwiftTrustVaporServer.Key.self],
            let chain = peerCertificateChain
        else { return nil }
        var der: [[UInt8]] = []
        for certificate in chain {
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate)) != nil else { return nil }
            der.append(serializer.serializedBytes)
        }
        if let peer = server.directory.peer(forChain: der) { return peer }
        guard let parsed = try? der.map({ try TrustX509.Certificate(derEncoded: $0) }),
            case let .trusted(peer) = await server.route.verifier.verify(parsed, role: .client)
        else { return nil }
        server.directory.remember(peer)
        return peer
    }

    /// The client SwiftTrust accepted on this request's connection.
    ///
    /// - Throws: `Abort(.forbidden)` when there is none: fails closed.
    public func requireTrustedPeer() async throws -> TrustedPeer {
        guard let peer = await trustedPeer() else { throw Abort(.forbidden, reason: "no verified client certificate") }
        return peer
    }
}
#endif // Vapor
