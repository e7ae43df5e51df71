import Foundation
import Synchronization
import TrustX509

/// Trust anchors read from files and directories of PEM or DER certificates, and read again when
/// they change while the process runs: a CA file that an agent rewrites, a Kubernetes secret or
/// ConfigMap mounted as a volume. Set it as ``TLSTrustSettings/anchorProvider``.
///
/// ```swift
/// let anchors = try ReloadingTrustAnchors(paths: ["/etc/service/client-ca.pem"], pollInterval: .seconds(30),
///                                         onEvent: TLSTrustMetrics.standard.anchorReloadObserver(logger: logger))
/// var settings = TLSTrustSettings()
/// settings.anchorProvider = anchors
/// let reloading = Task { await anchors.run() }   // or run it as a swift-service-lifecycle service
/// ```
///
/// **What is read.** Each path is a file (any number of PEM CERTIFICATE blocks, other blocks such as
/// a key passed over, or one DER certificate) or a directory, whose regular files (after symlinks;
/// not recursive; hidden names skipped) are each such a file, in name order. Every file must hold at
/// least one certificate and nothing that fails to read as one; bounded by ``maximumFileSize``,
/// ``maximumDirectoryEntries`` and ``maximumCertificates``. Duplicates are kept once.
///
/// **When it is read again.** A check stats every path (following symlinks: device, inode, size,
/// modification and status-change times), which reads no file: when nothing changed, that is all.
/// When something did, the files are read and their SHA-256 compared with the set in use, so a
/// `touch` or a rewrite with the same bytes swaps nothing. A Kubernetes volume's atomic update (its
/// `..data` symlink swapped to a new directory) changes the inodes the visible names resolve to, so
/// it is seen. Checks run every ``pollInterval`` in ``run()`` (one task sleeping between checks, no
/// thread of its own), or when the caller asks (``reloadIfChanged()``).
///
/// **What a handshake sees.** The set in use is one immutable ``AnchorSnapshot`` behind a lock,
/// replaced whole: the decision reads it once per handshake (``anchors(forLeaf:)``, from memory,
/// without blocking, so on the event loop too), and a connection never mixes two sets. A change that
/// cannot be loaded (a file that does not parse, an empty file, one removed) keeps the last good set
/// and says so once: ``AnchorReloadEvent/failed(_:keptCount:)`` to `onEvent` (which TrustNIO's
/// `TLSTrustMetrics.anchorReloadObserver(logger:)` logs at warning level and counts).
///
/// Write a new file atomically (to a temporary file in the same directory, then rename it over the
/// old one): a check that reads a file while it is being rewritten in place may see half of it,
/// which fails to load (the last good set stays) and is read again once its stamp settles.
public final class ReloadingTrustAnchors: TrustAnchorProvider, Sendable {
    /// The largest file read, in bytes (4 MiB; a distribution's whole CA bundle is about 220 KiB).
    public static let maximumFileSize = 4 * 1024 * 1024
    /// The most entries a directory may hold (of any kind, hidden ones included).
    public static let maximumDirectoryEntries = 1_024
    /// The most certificates all files may hold together.
    public static let maximumCertificates = 10_000
    /// The shortest interval ``run()`` waits between checks; shorter ones are raised to it.
    public static let minimumPollInterval: Duration = .milliseconds(10)

    /// The files and directories read, as given.
    public let paths: [String]
    /// How long ``run()`` waits between checks.
    public let pollInterval: Duration

    private let onEvent: (@Sendable (AnchorReloadEvent) -> Void)?
    /// The set in use: the only state a handshake reads.
    private let snapshot: Mutex<AnchorSnapshot>
    /// What the last check saw; held for a whole check, so checks never overlap (handshakes do not
    /// take it).
    private let checks: Mutex<CheckState>

    private struct CheckState: Sendable {
        /// The stamps the last check saw (of a set loaded or not).
        var listing: AnchorFileListing
        /// The content of the set in use.
        var content: [LoadedAnchorSet.FileDigest]
        /// Whether the last change failed to load (the next good one is reported as a reload, even
        /// if it restores the bytes in use).
        var lastChangeFailed = false
    }

    /// Loads the anchors of `paths`, which must succeed.
    ///
    /// - Parameters:
    ///   - paths: Files and directories of certificates (see the type's documentation).
    ///   - pollInterval: How long ``run()`` waits between checks (at least ``minimumPollInterval``).
    ///     Default 10 seconds.
    ///   - onEvent: Told the outcome of every later check (not of this first load), after the swap,
    ///     on the thread that checked. Default: nil.
    /// - Throws: ``AnchorReloadError`` naming the path and the rule when the first load fails.
    public init(
        paths: [String], pollInterval: Duration = .seconds(10),
        onEvent: (@Sendable (AnchorReloadEvent) -> Void)? = nil
    ) throws(AnchorReloadError) {
        guard !paths.isEmpty else { throw .noPaths }
        let listing = AnchorFileListing(paths: paths, maximumEntries: Self.maximumDirectoryEntries)
        let loaded = try Self.load(listing)
        self.paths = paths
        self.pollInterval = max(pollInterval, Self.minimumPollInterval)
        self.onEvent = onEvent
        snapshot = Mutex(AnchorSnapshot(anchors: loaded.anchors, files: loaded.files, loadedAt: Date(), generation: 1))
        checks = Mutex(CheckState(listing: listing, content: loaded.content))
    }

    /// The anchors in use (the current snapshot's), whatever the leaf: ``TrustAnchorProvider``.
    public func anchors(forLeaf leaf: Certificate) -> [Certificate] {
        snapshot.withLock { $0.anchors }
    }

    /// The set in use, when it was loaded, and its generation: for diagnostics.
    public var current: AnchorSnapshot {
        snapshot.withLock { $0 }
    }

    /// Checks the paths once, now, on the calling thread: stats them, and when something changed,
    /// loads them and swaps the set in use (or keeps it, when they do not load). Tells `onEvent`.
    @discardableResult
    public func reloadIfChanged() -> AnchorReloadEvent {
        let event = checks.withLock { state -> AnchorReloadEvent in
            let listing = AnchorFileListing(paths: paths, maximumEntries: Self.maximumDirectoryEntries)
            guard listing != state.listing else { return .unchanged }
            state.listing = listing
            do throws(AnchorReloadError) {
                let loaded = try Self.load(listing)
                if loaded.content == state.content, !state.lastChangeFailed { return .unchanged }
                state.content = loaded.content
                state.lastChangeFailed = false
                snapshot.withLock { current in
                    current = AnchorSnapshot(
                        anchors: loaded.anchors, files: loaded.files, loadedAt: Date(),
                        generation: current.generation + 1)
                }
                return .reloaded(count: loaded.anchors.count)
            } catch {
                state.lastChangeFailed = true
                return .failed(error, keptCount: snapshot.withLock { $0.anchors.count })
            }
        }
        onEvent?(event)
        return event
    }

    /// Checks the paths every ``pollInterval`` (``reloadIfChanged()``) until the calling task is
    /// cancelled, then returns. One task, sleeping between checks: run it in a `Task`, a task group,
    /// or as a swift-service-lifecycle `Service` (`extension ReloadingTrustAnchors: Service {}`,
    /// with `cancelOnGracefulShutdown()` around it).
    public func run() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: pollInterval) } catch { return }
            reloadIfChanged()
        }
    }

    private static func load(_ listing: AnchorFileListing) throws(AnchorReloadError) -> LoadedAnchorSet {
        try LoadedAnchorSet(listing, maximumFileSize: maximumFileSize, maximumCertificates: maximumCertificates)
    }
}
