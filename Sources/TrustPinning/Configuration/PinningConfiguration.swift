import Foundation

/// Pinning written down as data: per-domain SPKI pins, expirations, enforce or report-only, report
/// URIs and extra trust anchors, loaded from our JSON format, an ATS `Info.plist`
/// (`NSPinnedDomains`), Android's `network_security_config.xml` or a TrustKit configuration.
///
/// Build a ``ServerTrustManager`` from it (``ServerTrustManager/init(configuration:reporter:allHostsMustBeEvaluated:)``)
/// to use it with the evaluators and with `TrustNIO`. docs/pinning-configuration.md sets the
/// formats' semantics side by side.
///
/// ```swift
/// let configuration = try PinningConfiguration.load(contentsOf: URL(fileURLWithPath: "pins.json"))
/// let manager = try ServerTrustManager(configuration: configuration, allHostsMustBeEvaluated: false)
/// ```
public struct PinningConfiguration: Hashable, Sendable {
    /// The domain policies, in the order given.
    public let domains: [DomainPinningPolicy]

    /// Creates a configuration.
    ///
    /// - Throws: ``PinningConfigurationError/duplicateHostPattern(_:normalized:)`` when two
    ///   policies configure the same domain: which one applies would be a guess.
    public init(domains: [DomainPinningPolicy]) throws(PinningConfigurationError) {
        var seen = Set<String>()
        for policy in domains where !seen.insert(policy.domain).inserted {
            throw .duplicateHostPattern(policy.domain, normalized: policy.domain)
        }
        self.domains = domains
    }

    /// The policy that applies to `host`: the most specific covering domain (an exact domain
    /// before any covering parent, a longer parent before a shorter one), or nil.
    public func policy(forHost host: String) -> DomainPinningPolicy? {
        guard let normalized = HostPattern.normalize(host) else { return nil }
        var best: (policy: DomainPinningPolicy, specificity: [Int])?
        for policy in domains {
            for text in policy.hostPatterns {
                guard let pattern = try? HostPattern(text), pattern.matches(normalized: normalized) else { continue }
                if best.map({ $0.specificity.lexicographicallyPrecedes(pattern.specificity) }) ?? true {
                    best = (policy, pattern.specificity)
                }
            }
        }
        return best?.policy
    }
}
