import TrustCore
import TrustX509

/// A TLS peer whose certificates a verifier accepted: who it is, and the chain that vouches for it.
///
/// On a mutual-TLS server this is the authenticated client's identity:
/// ```swift
/// let peer = try await channel.trustedPeer().get()
/// print(peer?.subject, peer?.subjectAlternativeNames)
/// ```
public struct TrustedPeer: Sendable {
    /// The role the peer was verified in (a server for a host, or a client).
    public let role: TLSPeerRole
    /// The certificates the peer presented, leaf first, parsed once from their DER.
    public let presentedCertificates: [Certificate]
    /// The chain the evaluation built and trusted, leaf to anchor; nil when the judge accepted
    /// without a trusted evaluation (a disabled evaluator, a security policy allowing invalid
    /// certificates, a challenge handler answering `useCredential` on its own).
    public let validatedChain: [Certificate]?
    /// The trusted evaluation behind ``validatedChain``, if any.
    public let evaluation: TrustEvaluation?

    /// The peer's leaf certificate (the first presented one).
    public let leaf: Certificate
    /// The leaf's subject.
    public var subject: DistinguishedName { leaf.subject }
    /// The leaf's subjectAltName entries (empty when it has none).
    public var subjectAlternativeNames: [GeneralName] { leaf.extensions.subjectAlternativeNames ?? [] }

    /// How many times the connection's trust built certification paths before the peer was
    /// accepted (`ServerTrust.pathBuildCount`): 1 for a handshake judged offline by
    /// `.evaluate`, `DefaultTrustEvaluator`, a pinning evaluator or a `SecurityPolicy` in
    /// `.none` / `.publicKey` mode (docs/transport.md lists the others).
    public let pathBuilds: Int

    /// A peer with at least one presented certificate; nil for none.
    init?(role: TLSPeerRole, presented: [Certificate], evaluation: TrustEvaluation?, pathBuilds: Int = 0) {
        self.pathBuilds = pathBuilds
        guard let leaf = presented.first else { return nil }
        self.role = role
        self.leaf = leaf
        presentedCertificates = presented
        let trusted = evaluation.flatMap { $0.isTrusted && !$0.chain.isEmpty ? $0 : nil }
        self.evaluation = trusted
        validatedChain = trusted?.chain
    }
}

extension TrustedPeer {
    /// The leaf's SPIFFE ID, when its one URI subjectAltName is one (an X.509-SVID, X509-SVID §2);
    /// verified only as far as the chain was (``validatedChain``).
    public var spiffeID: SPIFFEID? {
        try? SPIFFETrustBundleSet.spiffeID(of: leaf)
    }
}
