/// Which hosts below a configured domain its pins also cover. The source formats disagree, so
/// each loader says which one it means (docs/pinning-configuration.md).
public enum SubdomainCoverage: String, Hashable, Sendable, Codable, CaseIterable {
    /// The domain itself only.
    case none
    /// The domain and hosts one label below it (`a.example.com`, not `a.b.example.com`): ATS's
    /// `NSIncludesSubdomains` ("subdomains … that have one additional path component").
    case oneLevel
    /// The domain and every host below it, at any depth: Android's `includeSubdomains` and
    /// TrustKit's `kTSKIncludeSubdomains`.
    case anyDepth

    /// Whether the coverage extends beyond the domain itself.
    public var includesSubdomains: Bool { self != .none }

    /// The host patterns (``HostPattern``) that express this coverage of `domain`.
    func hostPatterns(for domain: String) -> [String] {
        switch self {
        case .none: return [domain]
        case .oneLevel: return [domain, "*." + domain]
        case .anyDepth: return ["**." + domain]
        }
    }
}
