import Synchronization
import TrustCrypto
import TrustX509

/// The chains peers presented in full handshakes that were trusted and completed, by leaf: what a
/// resumed session is re-verified with (``TLSHandshakeDecider``).
///
/// A resumed TLS session (a TLS 1.2 session ID or ticket, a TLS 1.3 PSK) carries no certificates,
/// and a TLS stack exposes only the leaf it kept in the session. To re-check the peer on every
/// handshake, the decider keeps the rest of the chain the peer presented when it was trusted.
///
/// A chain is remembered only once its handshake completed (the peer proved it holds the leaf's
/// key in CertificateVerify / Finished), never at verification time, when anyone can present any
/// public certificate: so a peer cannot churn this memory, and evict others' chains, with
/// certificates it does not hold the keys of. This holds no verdict: each resumed handshake is decided anew,
/// under the settings, date and revocation information of that moment. A leaf not remembered (the
/// session came from another listener, or its entry was evicted) is re-verified alone with the
/// settings' `additionalIntermediates`, which fails closed when they do not complete its chain.
package final class ResumedSessionChains: Sendable {
    /// How many leaves are remembered; the oldest is forgotten first.
    package static let capacity = 4_096

    /// Always on, a BoundedStore and not a BoundedCache: with caches off a resumed session must still
    /// be re-verified with its chain, or its verdict would change.
    private let state = Mutex(BoundedStore<Certificate, [Certificate]>(capacity: ResumedSessionChains.capacity))

    /// An empty memory.
    package init() {}

    /// Remembers `presented` (leaf first) as the chain of its leaf.
    package func remember(_ presented: [Certificate]) {
        guard let leaf = presented.first else { return }
        state.withLock { $0.remember(presented, forKey: leaf) }
    }

    /// The chain `leaf` was presented with when it was trusted, or `[leaf]` when it is not remembered.
    package func chain(forLeaf leaf: Certificate) -> [Certificate] {
        state.withLock { $0[leaf] } ?? [leaf]
    }
}
