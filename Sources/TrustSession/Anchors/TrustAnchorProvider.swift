import TrustCore
import TrustX509

/// Where a handshake's trust anchors come from when they are not one fixed list
/// (``TLSTrustSettings/anchorProvider``): anchors that are reloaded while the process runs
/// (``ReloadingTrustAnchors``), or chosen by the peer's leaf (SPIFFE trust bundles, selected by the
/// trust domain of the leaf's SPIFFE ID).
///
/// The decision reads the provider once per handshake, before anything is evaluated, and uses what
/// it returned for every evaluation and fetch of that handshake: a connection never mixes two sets.
/// A provider is called on the event loop when the decision runs there, so it must answer from
/// memory, without blocking.
public protocol TrustAnchorProvider: Sendable {
    /// The anchors to verify the peer whose leaf (as presented, not yet verified) is `leaf`.
    ///
    /// - Throws: ``TrustAnchorUnavailable`` when there is no set to verify this peer against; the
    ///   peer is rejected with ``TLSTrustFailure/anchorsUnavailable(_:)``.
    func anchors(forLeaf leaf: Certificate) throws(TrustAnchorUnavailable) -> [Certificate]
}

/// Why a ``TrustAnchorProvider`` had no anchors for a peer.
public enum TrustAnchorUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// The provider has never loaded a usable set (`source` names the files it reads).
    case notLoaded(source: String)
    /// The leaf names no SPIFFE trust domain a bundle is held for: no URI SAN, several, one that is
    /// not a SPIFFE ID, or a trust domain without a bundle (the error says which).
    case noBundleForLeaf(SPIFFEBundleSelectionError)

    /// One sentence naming the provider's state.
    public var description: String {
        switch self {
        case let .notLoaded(source): return "no trust anchors are loaded from \(source)"
        case let .noBundleForLeaf(error): return "no trust bundle selects the peer's anchors: \(error)"
        }
    }
}
