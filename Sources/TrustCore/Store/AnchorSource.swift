/// How a chain's trust anchor is trusted, for the TLS server rules Apple scopes by it
/// (trustd's `SecPVCIsAnchorPerConstraints` and `is_system_root`, SecPolicyServer.c).
///
/// Decided by the certificate's bytes, not by how it reached the evaluation: as in trustd, which
/// asks its system and user anchor sources directly, a system root the caller also passed to
/// ``ServerTrust/setAnchorCertificates(_:)`` is still a system root.
package enum AnchorSource: Sendable {
    /// Only the caller trusts it (`SecTrustSetAnchorCertificates`: an app anchor, exempt from nothing).
    case caller
    /// A root of the distribution's trust store (Apple's system anchor source).
    case system
    /// A root an administrator installed into the system store (Apple's user/admin trust settings).
    case administrator
}
