/// Which side of the connection the certificates being verified belong to.
public enum TLSPeerRole: Hashable, Sendable {
    /// A server, verified by a client that connected to `host` (a DNS name or IP address, the SNI
    /// name when there is one): its leaf must be fit for serverAuth and valid for `host`.
    case server(host: String)
    /// A client presenting a certificate to a server (mutual TLS): its leaf must be fit for
    /// clientAuth. No host name is checked; the application reads the client's identity from the
    /// channel (`TLSPeerTrustHandler.trustedPeer`).
    case client

    /// The host a server role was connected as.
    var host: String? {
        if case let .server(host) = self { return host }
        return nil
    }
}
