import Logging
import TrustCore
import TrustSession

extension TLSTrustMetrics {
    /// An `onEvent` callback for `ReloadingTrustAnchors` (TrustSession, which depends on neither
    /// swift-log nor swift-metrics): counts each reload in `swifttrust_anchor_reloads_total`
    /// (`result`: `reloaded` or `failed`) and logs it to `logger`, a swapped set at `info` level and
    /// a change that could not be loaded at `warning` level, naming the file and the rule it broke
    /// (``TrustLogMetadataKey/anchorPath``, ``TrustLogMetadataKey/reason``,
    /// ``TrustLogMetadataKey/anchorCount``). Checks that found nothing changed are neither counted nor logged.
    ///
    /// ```swift
    /// let anchors = try ReloadingTrustAnchors(paths: [caFile],
    ///                                         onEvent: TLSTrustMetrics.standard.anchorReloadObserver(logger: logger))
    /// ```
    public func anchorReloadObserver(logger: Logger? = nil) -> @Sendable (AnchorReloadEvent) -> Void {
        { event in
            switch event {
            case .unchanged:
                return
            case let .reloaded(count):
                recordAnchorReload(succeeded: true)
                logger?.info("trust anchors reloaded", metadata: [TrustLogMetadataKey.anchorCount: .stringConvertible(count)])
            case let .failed(error, kept):
                recordAnchorReload(succeeded: false)
                // The description may quote bytes of the file (capped): escaped, so it cannot forge lines.
                var metadata: Logger.Metadata = [
                    TrustLogMetadataKey.reason: .string(TerminalText.escaped(error.description)),
                    TrustLogMetadataKey.anchorCount: .stringConvertible(kept),
                ]
                if let path = error.path { metadata[TrustLogMetadataKey.anchorPath] = .string(TerminalText.escaped(path)) }
                logger?.warning("trust anchors not reloaded, keeping the last good set", metadata: metadata)
            }
        }
    }
}
