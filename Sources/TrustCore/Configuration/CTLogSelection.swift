import TrustTransparency

/// The Certificate Transparency logs an evaluation trusts, and whether the list's age decides
/// enforcement (``TrustConfiguration/certificateTransparencyLogs``).
///
/// SwiftTrust ships no log list: a list goes stale, and trustd stops enforcing CT when its own
/// list was not updated for 60 days. `scripts/fetch-ct-log-list` downloads Apple's current one
/// where a network exists (docs/certificate-transparency.md).
public enum CTLogSelection: Hashable, Sendable {
    /// A published list the deployment keeps current (what trustd's MobileAsset list is to it):
    /// CT is enforced only while the list was updated within 60 days of the evaluation time
    /// (`CTLogList.isFresh(at:)`).
    case published(CTLogList)
    /// Logs the caller trusts (`SecTrustSetTrustedLogs`): enforced whatever the list's age.
    case trustedByCaller(CTLogList)

    /// The logs.
    public var logs: CTLogList {
        switch self {
        case let .published(list), let .trustedByCaller(list): return list
        }
    }

    /// Whether the caller set the logs (`SecTrustSetTrustedLogs`), so the list's age does not matter.
    public var isSetByCaller: Bool {
        if case .trustedByCaller = self { return true }
        return false
    }
}
