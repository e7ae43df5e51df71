import TrustCore

extension PinningConfiguration {
    /// Which configured entries apply to a host. The formats disagree, so each loader says which
    /// one its upstream means (docs/pinning-configuration.md).
    public enum PolicySelection: Hashable, Sendable {
        /// The most specific covering domain alone: the exact domain, else the longest covering
        /// parent. Android's `ApplicationConfig.getConfigForHostname` (exact, else the longest
        /// `includeSubdomains` match); TrustKit's `getPinningConfigurationKeyForDomain` (exact, else
        /// the first `includeSubdomains` parent in dictionary order: one entry, never a merge);
        /// SwiftTrust JSON.
        case mostSpecificDomain
        /// ATS: Apple's `parseNSPinnedDomains` visits every entry whose key is the host, or the
        /// host's immediate parent (one label removed) with `NSIncludesSubdomains` true, and appends
        /// all their digests. So for a host with its own entry and such a parent entry, the pins
        /// are merged per scope: each scope's requirement holds the union of both entries' pins of
        /// that scope, and exists when either entry has it; requirements of different scopes must
        /// all hold (Apple's leaf and CA checks are independent). Other settings are the host's
        /// entry's. A host without its own entry gets its covering parent's policy, and a
        /// grandparent never applies (`NSIncludesSubdomains` reaches one label).
        case mergingExactAndParentEntries
    }

    /// The policy for the host `policy.domain` itself under ``policySelection``: `policy`, or under
    /// ``PolicySelection/mergingExactAndParentEntries`` its merge with its parent's entry.
    func policyForOwnDomain(of policy: DomainPinningPolicy) -> DomainPinningPolicy {
        guard policySelection == .mergingExactAndParentEntries else { return policy }
        return mergedWithParentEntry(policy)
    }

    /// `policy` merged with the entry of its immediate parent domain when that entry includes
    /// subdomains (Apple `parseNSPinnedDomains`, `CopyParentDomainNameFromHostName`); `policy`
    /// itself otherwise. IP addresses have no parent entry here.
    func mergedWithParentEntry(_ policy: DomainPinningPolicy) -> DomainPinningPolicy {
        guard IPAddress(policy.domain) == nil, let dot = policy.domain.firstIndex(of: ".") else { return policy }
        let parentDomain = policy.domain[policy.domain.index(after: dot)...]
        guard let parent = domains.first(where: { $0.domain == parentDomain && $0.subdomains.includesSubdomains }) else { return policy }
        return policy.mergingPins(of: parent)
    }

    /// The first domain whose own policy differs between the two selections, with the parent whose
    /// pins ATS would merge into it: what a file of the other selection cannot express.
    func firstDomainMergedWithParent() -> (domain: String, parent: String)? {
        for policy in domains where mergedWithParentEntry(policy) != policy {
            let parent = policy.domain.drop { $0 != "." }.dropFirst()
            return (policy.domain, String(parent))
        }
        return nil
    }
}

extension DomainPinningPolicy {
    /// This policy with, per scope, the union of its pins and `other`'s (this policy's first): the
    /// digests `parseNSPinnedDomains` appends for each identity type.
    func mergingPins(of other: DomainPinningPolicy) -> DomainPinningPolicy {
        var merged = self
        var result: [PinRequirement] = []
        for requirement in requirements + other.requirements {
            if let index = result.firstIndex(where: { $0.scope == requirement.scope }) {
                result[index] = result[index].adding(requirement.pins)
            } else {
                result.append(requirement)
            }
        }
        merged.requirements = result
        return merged
    }
}
