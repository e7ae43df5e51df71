/// What one check of ``ReloadingTrustAnchors`` found: the answer of
/// ``ReloadingTrustAnchors/reloadIfChanged()``, and what its `onEvent` callback hears after every
/// check (TrustNIO's `TLSTrustMetrics.anchorReloadObserver(logger:)` logs and counts them).
public enum AnchorReloadEvent: Hashable, Sendable, CustomStringConvertible {
    /// The files changed and were loaded: `count` distinct anchors are now in use (a new
    /// ``AnchorSnapshot/generation``).
    case reloaded(count: Int)
    /// Nothing changed since the last check: no file's identity, size or times, or the changed files
    /// hold the same bytes as the set in use (nothing was swapped).
    case unchanged
    /// The files changed but cannot be loaded: the last good set (`keptCount` anchors) stays in use.
    /// Reported once per change: the next check that sees the same files says ``unchanged``.
    case failed(AnchorReloadError, keptCount: Int)

    /// One line.
    public var description: String {
        switch self {
        case let .reloaded(count): return "trust anchors reloaded: \(count) in use"
        case .unchanged: return "trust anchors unchanged"
        case let .failed(error, kept): return "trust anchors not reloaded, keeping the last good set of \(kept): \(error)"
        }
    }
}
