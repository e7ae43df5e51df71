import TrustSession

/// How the examples' handlers answer who the client is: its subject and subject alternative names.
public struct Identity: Sendable {
    /// One line: `subject | SAN, SAN`.
    public let text: String

    /// The identity of `peer`.
    public init(_ peer: TrustedPeer) {
        text = "\(peer.subject) | " + peer.subjectAlternativeNames.map { "\($0)" }.joined(separator: ", ")
    }
}
