/// The file formats a ``PinningConfiguration`` is read from and written to.
public enum PinningConfigurationFormat: String, Hashable, Sendable, CaseIterable {
    /// SwiftTrust's own versioned JSON format (docs/pinning-configuration.md).
    case json
    /// An ATS property list: a whole `Info.plist` (XML or binary) with
    /// `NSAppTransportSecurity` → `NSPinnedDomains`, or an `NSAppTransportSecurity` dictionary.
    case ats
    /// Android's `network_security_config.xml`, with TrustKit-Android's `<trustkit-config>`.
    case android
    /// A TrustKit configuration: a property list (an `Info.plist` with `TSKConfiguration`, or the
    /// configuration dictionary itself) or the same dictionary as JSON.
    case trustkit

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .json: return "SwiftTrust JSON"
        case .ats: return "ATS (NSPinnedDomains)"
        case .android: return "Android network security config"
        case .trustkit: return "TrustKit"
        }
    }
}
