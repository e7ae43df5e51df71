/// What a verifier decided for one connection.
public enum TLSTrustOutcome: Sendable {
    /// The peer's certificates were accepted.
    case trusted(TrustedPeer)
    /// The peer's certificates were rejected, and why.
    case rejected(TLSTrustFailure)
}
