/// Gathers the domain policies of a dictionary-keyed format (ATS `NSPinnedDomains`, TrustKit
/// `TSKPinnedDomains`) and refuses two keys that name the same domain after normalisation
/// (`Example.com` and `example.com.`): which of the two policies would apply is a guess.
struct PinnedDomainCollector {
    private var policies: [String: DomainPinningPolicy] = [:]

    /// Adds the policy read at `reader` (the domain's entry).
    ///
    /// - Throws: ``PinningConfigurationRule/duplicateDomain(_:)`` at `reader`'s key path.
    mutating func add(_ policy: DomainPinningPolicy, at reader: PropertyListReader) throws(PinningConfigurationLoadError) {
        guard policies[policy.domain] == nil else { throw reader.error(.duplicateDomain(policy.domain)) }
        policies[policy.domain] = policy
    }

    /// The policies collected so far, by normalised domain.
    var byDomain: [String: DomainPinningPolicy] { policies }

    /// The configuration, its domains sorted by normalised name (dictionaries have no order).
    func configuration(at reader: PropertyListReader, policySelection: PinningConfiguration.PolicySelection) throws(PinningConfigurationLoadError)
        -> PinningConfiguration
    {
        let sorted = policies.values.sorted { $0.domain < $1.domain }
        return try reader.validating { () throws(PinningConfigurationError) in
            try PinningConfiguration(domains: sorted, policySelection: policySelection)
        }
    }
}
