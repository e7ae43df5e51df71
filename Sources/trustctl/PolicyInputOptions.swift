import ArgumentParser
import SwiftTrust

/// The RFC 5280 §6.1.1 certificate policy inputs of `verify`: the acceptable policies and the
/// three initial flags; and the options of Apple's SSL policy (``SSLPolicyInputOptions``).
struct PolicyInputOptions: ParsableArguments {
    @OptionGroup var ssl: SSLPolicyInputOptions

    @Option(
        name: .customLong("policy-oid"),
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

    /// Sets the policy inputs on `options` (leaving the default anyPolicy when no --policy-oid is given).
    func apply(to options: inout TrustOptions) {
        let policies = Set(policyOIDs.compactMap(PolicyInputOptions.policy(named:)))
        if !policies.isEmpty { options.initialPolicySet = policies }
        options.initialExplicitPolicy = requireExplicitPolicy
        options.initialPolicyMappingInhibit = inhibitPolicyMapping
        options.initialAnyPolicyInhibit = inhibitAnyPolicy
        ssl.apply(to: &options)
    }

    /// The flags given, as the user wrote them.
    var givenFlags: [String] {
        [
            (!policyOIDs.isEmpty, "--policy-oid"), (requireExplicitPolicy, "--require-explicit-policy"),
            (inhibitPolicyMapping, "--inhibit-policy-mapping"), (inhibitAnyPolicy, "--inhibit-any-policy"),
        ]
        .filter(\.0).map(\.1) + ssl.givenFlags
    }
}
