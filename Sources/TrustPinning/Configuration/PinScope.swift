/// Which certificates of the validated chain a pin may match.
public enum PinScope: String, Hashable, Sendable, Codable, CaseIterable {
    /// The leaf only: ATS's `NSPinnedLeafIdentities`.
    case leaf
    /// A CA certificate of the chain (an intermediate or the anchor), not the leaf: ATS's
    /// `NSPinnedCAIdentities` ("at least one Certificate Authority (CA) or sub-CA certificate").
    case certificateAuthority = "ca"
    /// Any certificate of the chain, leaf to anchor: Android's `pin-set` and TrustKit's
    /// `kTSKPublicKeyHashes`.
    case anyCertificate = "chain"

    /// Whether a certificate at `index` of a chain of `count` certificates (leaf first) is in scope.
    func covers(index: Int, count: Int) -> Bool {
        switch self {
        case .leaf: return index == 0
        case .certificateAuthority: return index > 0 && index < count
        case .anyCertificate: return index >= 0 && index < count
        }
    }

    /// `leaf certificate`, `CA certificate` or `certificate`, for messages.
    var phrase: String {
        switch self {
        case .leaf: return "leaf certificate"
        case .certificateAuthority: return "CA certificate"
        case .anyCertificate: return "certificate"
        }
    }
}
