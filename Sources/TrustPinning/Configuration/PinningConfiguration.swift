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
    /// What the loader noticed in the file without refusing it (a TrustKit pin in non-canonical
    /// base64); empty for a configuration built in code. Notes describe the text, not what it
    /// means: they take no part in equality or hashing, so a file loads equal to its canonical form.
    public private(set) var notes: [PinningConfigurationNote] = []

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

    /// This configuration with `notes` added (a loader's).
    func adding(notes: [PinningConfigurationNote]) -> PinningConfiguration {
        var copy = self
        copy.notes += notes
        return copy
    }

    /// Whether the two configure the same domains and policy selection (``notes`` aside).
    public static func == (lhs: PinningConfiguration, rhs: PinningConfiguration) -> Bool {
        lhs.domains == rhs.domains && lhs.policySelection == rhs.policySelection
    }

    /// Hashes the domains and policy selection, what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(domains)
        hasher.combine(policySelection)
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
