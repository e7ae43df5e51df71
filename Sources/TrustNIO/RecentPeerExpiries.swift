import Synchronization
import TrustCrypto
import TrustX509

/// The window behind `swifttrust_peer_nearest_expiry_seconds` (``TLSTrustMetrics``): for each of the
/// last ``capacity`` distinct leaves trusted, the earliest notAfter of its validated chain. Keyed by
/// leaf, so a peer that connects often does not push out one that connects rarely (whose expiry is
/// the one an operator must not miss); the oldest leaf inserted is forgotten first.
final class RecentPeerExpiries: Sendable {
    /// How many distinct leaves the window holds.
    static let capacity = 1_024

    /// Always on, a BoundedStore and not a BoundedCache: the metric must not change with caches off.
    private let memory = Mutex(BoundedStore<Certificate, Int64>(capacity: RecentPeerExpiries.capacity))

    /// Records that the chain of `leaf` expires at `notAfter` (seconds since 1970) and returns the
    /// earliest expiry in the window. A linear scan of at most ``capacity`` values, once per trusted
    /// handshake.
    func record(leaf: Certificate, notAfter: Int64) -> Int64 {
        memory.withLock { memory in
            memory.remember(notAfter, forKey: leaf)
            return memory.values.min() ?? notAfter
        }
    }
}
