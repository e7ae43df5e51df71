import Foundation
import TrustX509

/// The anchors ``ReloadingTrustAnchors`` has in use, as one immutable value: every handshake reads
/// one snapshot, so a connection never mixes two sets.
public struct AnchorSnapshot: Sendable {
    /// The anchors, without duplicates, in file order (a directory's files in name order).
    public let anchors: [Certificate]
    /// The files they were read from (a directory's regular files, resolved through symlinks as
    /// named in the directory).
    public let files: [String]
    /// When they were loaded.
    public let loadedAt: Date
    /// 1 for the first load, one more for every reload that swapped the set.
    public let generation: Int
}
