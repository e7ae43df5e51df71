import TrustX509

/// What a TLS handshake shows of its peer, as a transport adapter hands it to
/// ``TLSHandshakeDecider/decision(for:role:port:taskHandler:)``.
public enum TLSHandshakePeer: Sendable {
    /// A full handshake: the certificates the peer presented, leaf first, parsed once.
    case presented([Certificate])
    /// A resumed session (a TLS 1.2 session ID or ticket, a TLS 1.3 pre-shared key): the peer sent
    /// no certificates, and the TLS stack kept only this leaf from the session's full handshake.
    case resumed(leaf: Certificate)
}
