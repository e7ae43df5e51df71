#if AsyncHTTPClient
/// Whether BoringSSL's own certificate verification stays on beside SwiftTrust's on an
/// AsyncHTTPClient connection.
///
/// AsyncHTTPClient's hook sees a connection after its handshake, with only the server's leaf:
/// BoringSSL is then the only one that saw the whole chain the server sent. Kept on, it verifies
/// that chain and the host name against the settings' anchors (or the system store) first, and
/// SwiftTrust then decides on the leaf (pins, revocation, profile, Apple's SSL policy).
public enum BoringSSLVerification: Hashable, Sendable {
    /// On unless the judge may accept without evaluating the chain (a disabled evaluator, pins of
    /// a self-signed certificate, a `SecurityPolicy` allowing invalid certificates), or the
    /// settings set a `verifyDate` (BoringSSL checks validity now), an `anchorProvider` (BoringSSL's
    /// roots are fixed) or the `spiffe` profile (BoringSSL checks the host name): BoringSSL would
    /// contradict any of them.
    case automatic
    /// On: BoringSSL verifies chain and host name against the settings' anchors (`.fullVerification`).
    case on
    /// Off (`certificateVerification = .none`): SwiftTrust alone decides, on the leaf, with the
    /// settings' intermediates and the intermediates it fetches from caIssuers URLs.
    case off
}
#endif // AsyncHTTPClient
