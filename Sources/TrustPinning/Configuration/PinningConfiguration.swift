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
    /// Which of them apply to a host: the most specific alone, or (ATS) merged with the parent's.
    public let policySelection: PolicySelection

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - domains: The domain policies.
    ///   - policySelection: Which policies apply to a host; default
    ///     ``PolicySelection/mostSpecificDomain``. The ATS loader gives
    ///     ``PolicySelection/mergingExactAndParentEntries``.
    /// - Throws: ``PinningConfigurationError/duplicateHostPattern(_:normalized:)`` when two
    ///   policies configure the same domain: which one applies would be a guess.
    public init(domains: [DomainPinningPolicy], policySelection: PolicySelection = .mostSpecificDomain) throws(PinningConfigurationError) {
        var seen = Set<String>()
        for policy in domains where !seen.insert(policy.domain).inserted {
            throw .duplicateHostPattern(policy.domain, normalized: policy.domain)
        }
        self.domains = domains
        self.policySelection = policySelection
    }

    /// The policy that applies to `host`: the most specific covering domain (an exact domain
    /// before any covering parent, a longer parent before a shorter one), or nil. Under
    /// ``PolicySelection/mergingExactAndParentEntries`` a host with its own domain gets that
    /// policy merged with its parent's `NSIncludesSubdomains` entry, as Apple's `parseNSPinnedDomains`.
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
        guard let best else { return nil }
        return best.policy.domain == normalized ? policyForOwnDomain(of: best.policy) : best.policy
    }
}
