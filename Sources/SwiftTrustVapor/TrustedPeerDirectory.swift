#if Vapor
import Synchronization
import TrustSession

/// The peers SwiftTrust accepted, by the DER of the validated chain it handed swift-nio-ssl:
/// how a Vapor request, which sees only that chain (`Request.peerCertificateChain`), finds the
/// `TrustedPeer` of its connection. Bounded: the oldest entries go first; a request whose chain
/// was dropped has it verified again (``Request/trustedPeer()``).
final class TrustedPeerDirectory: Sendable {
    /// How many chains are kept.
    static let capacity = 1_024

    private struct State {
        var peers: [[[UInt8]]: TrustedPeer] = [:]
        var order: [[[UInt8]]] = []
    }

    private let state = Mutex(State())

    /// Keeps `peer` under its validated chain (nothing without one).
    func remember(_ peer: TrustedPeer) {
        guard let chain = peer.validatedChain, !chain.isEmpty else { return }
        let key = chain.map(\.derEncoded)
        state.withLock { state in
            if state.peers.updateValue(peer, forKey: key) == nil { state.order.append(key) }
            if state.order.count > Self.capacity { state.peers[state.order.removeFirst()] = nil }
        }
    }

    /// The peer accepted with the validated chain `chain` (DER, leaf first), if still kept.
    func peer(forChain chain: [[UInt8]]) -> TrustedPeer? {
        state.withLock { $0.peers[chain] }
    }
}
#endif // Vapor
