import ArgumentParser
import SwiftTrust

/// The RFC 5280 §6.1.1 certificate policy inputs of `verify`: the acceptable policies and the
/// three initial flags.
struct PolicyInputOptions: ParsableArguments {
    @Option(name: .customLong("policy-oid"),
            help: "An acceptable certificate policy (dotted OID or anyPolicy; repeatable). Default: anyPolicy.")
    var policyOIDs: [String] = []

    @Flag(help: "Require the chain to be valid for an acceptable policy (RFC 5280 initial-explicit-policy).")
    var requireExplicitPolicy = false

    @Flag(help: "Do not honour policy mappings (RFC 5280 initial-policy-mapping-inhibit).")
    var inhibitPolicyMapping = false

    @Flag(help: "Let anyPolicy in certificates match nothing (RFC 5280 initial-any-policy-inhibit).")
    var inhibitAnyPolicy = false

    func validate() throws {
        for text in policyOIDs where PolicyInputOptions.policy(named: text) == nil {
            throw ValidationError("--policy-oid: \(text) is not a dotted OID or anyPolicy")
        }
    }

    /// `anyPolicy` or a dotted OID, or nil when the text is neither.
    static func policy(named text: String) -> ASN1ObjectIdentifier? {
        text == "anyPolicy" ? OID.anyPolicy : ASN1ObjectIdentifier(dotted: text)
    }

    /// Sets the policy inputs of `trust` (leaving its defaults when no --policy-oid is given).
    func apply(to trust: ServerTrust) { configurator()(trust) }

    /// ``apply(to:)`` as a closure that may configure trusts on any thread.
    func configurator() -> @Sendable (ServerTrust) -> Void {
        let policies = Set(policyOIDs.compactMap(PolicyInputOptions.policy(named:)))
        let (explicit, mappingInhibit, anyInhibit) = (requireExplicitPolicy, inhibitPolicyMapping, inhibitAnyPolicy)
        return { trust in
            if !policies.isEmpty { trust.options.initialPolicySet = policies }
            trust.options.initialExplicitPolicy = explicit
            trust.options.initialPolicyMappingInhibit = mappingInhibit
            trust.options.initialAnyPolicyInhibit = anyInhibit
        }
    }
}
