import TrustX509

/// The trust anchors a domain's connections are validated against, replacing those the
/// ``ServerTrust`` was configured with: Android's `<trust-anchors>`.
public struct PinningTrustAnchors: Hashable, Sendable {
    /// Whether the system trust store is trusted (Android's `<certificates src="system"/>`).
    public var includesSystemStore: Bool
    /// Extra anchors whose chains are still pin-checked.
    public var certificates: [Certificate]
    /// Extra anchors whose chains skip the pin check (Android's `overridePins="true"`, meant for
    /// a debugging proxy's CA). Chain and host validation still apply.
    public var pinOverridingCertificates: [Certificate]

    /// Creates an anchor set.
    public init(includesSystemStore: Bool, certificates: [Certificate] = [], pinOverridingCertificates: [Certificate] = []) {
        self.includesSystemStore = includesSystemStore
        self.certificates = certificates.uniqued()
        self.pinOverridingCertificates = pinOverridingCertificates.uniqued()
    }

    /// Every custom anchor, pin-checked or not.
    public var allCertificates: [Certificate] { (certificates + pinOverridingCertificates).uniqued() }

    /// Whether `anchor` (the last certificate of a validated chain) lets its chains skip the pin check.
    public func overridesPins(for anchor: Certificate) -> Bool {
        pinOverridingCertificates.contains(anchor)
    }
}
