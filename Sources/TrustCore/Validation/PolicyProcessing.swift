import TrustDER
import TrustX509

/// The certificate policies a validated path is good for (RFC 5280 §6.1.6's valid_policy_tree,
/// reduced to sets of policy OIDs as PKITS names them).
public struct ValidPolicySet: Hashable, Sendable, CustomStringConvertible {
    /// The policies the certification authorities along the path allow, named as the first
    /// certificate asserting them names them (RFC 5280 §6.1.5 (g)(iii)(1)); contains anyPolicy
    /// when every certificate asserts anyPolicy. PKITS calls it the authorities-constrained-policy-set.
    public let authoritiesConstrained: Set<ASN1ObjectIdentifier>
    /// ``authoritiesConstrained`` intersected with the caller's initial policy set (§6.1.5 (g)):
    /// the policies the path is valid for as far as the caller is concerned.
    public let userConstrained: Set<ASN1ObjectIdentifier>

    /// `anyPolicy` or the dotted OIDs, sorted, comma-separated; `none` when empty.
    public var description: String { Self.describe(userConstrained) }

    /// The names of `policies`, sorted, comma-separated; `none` when empty.
    package static func describe(_ policies: Set<ASN1ObjectIdentifier>) -> String {
        policies.isEmpty ? "none" : policies.map { OID.name(of: $0) }.sorted().joined(separator: ", ")
    }
}

/// RFC 5280 §6.1 certificate policy processing over a complete chain: §6.1.2 (a), (d)–(f)
/// initialisation, §6.1.3 (d)–(f), §6.1.4 (a), (b), (g)–(j), §6.1.5 (a), (b), (g).
///
/// The chain is leaf first and ends at the trust anchor, which is an input of the algorithm and
/// not part of the certification path: its own policy extensions are not processed (§6.1).
enum PolicyProcessing {
    /// The valid policy set, or the failure: the certificate (chain index) and the rule it broke.
    enum Outcome: Hashable, Sendable {
        case valid(ValidPolicySet)
        case invalid(TrustFailure)
    }

    /// Processes the policies of `chain` (leaf first, anchor last) with the §6.1.1 inputs (c), (e),
    /// (f), (g) of `inputs`. Every node and edge of the policy graph is charged to `budget` before
    /// it is made; running out throws (the graph is then incomplete and never used).
    static func process(_ chain: [Certificate], inputs: ValidationRequest, budget: BudgetMeter) throws(BudgetExhausted) -> Outcome {
        // n: the certificates of the path proper (the anchor is not one of them).
        let pathLength = chain.count - 1
        guard pathLength > 0 else { return .valid(result(of: PolicyGraph(), inputs: inputs)) }
        // §6.1.2 (d)–(f): a counter of 0 means "in force"; n+1 means "not before the end of the path".
        var explicitPolicy = inputs.initialExplicitPolicy ? 0 : pathLength + 1
        var inhibitAnyPolicy = inputs.initialAnyPolicyInhibit ? 0 : pathLength + 1
        var policyMapping = inputs.initialPolicyMappingInhibit ? 0 : pathLength + 1

        var graph = PolicyGraph(depth: pathLength)
        var expected = PolicyGraph.initialExpectation
        func failure(_ reason: TrustFailureReason, at index: Int) -> Outcome {
            .invalid(TrustFailure(reason, certificate: chain[index], index: index))
        }
        for index in stride(from: pathLength - 1, through: 0, by: -1) {
            let certificate = chain[index]
            let extensions = certificate.extensions
            let isLeaf = index == 0
            // §6.1.3 (d), (e).
            if let policies = extensions.certificatePolicies?.identifiers, !expected.isEmpty {
                // (d)(2): anyPolicy counts while inhibit_anyPolicy > 0, or in a self-issued intermediate.
                let anyPolicyAllowed = inhibitAnyPolicy > 0 || (!isLeaf && certificate.isSelfIssued)
                let assertsAnyPolicy = anyPolicyAllowed && policies.contains(OID.anyPolicy)
                try graph.append(
                    certificatePolicies: policies.filter { $0 != OID.anyPolicy },
                    assertsAnyPolicy: assertsAnyPolicy, expected: expected, budget: budget)
            } else {
                graph.appendEmptyLevel()
            }
            // §6.1.3 (f): with an explicit policy required, the tree must not become NULL.
            if explicitPolicy == 0 && graph.isNull { return failure(.explicitPolicyRequired, at: index) }

            if isLeaf {
                // §6.1.5 (a), (b).
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if extensions.policyConstraints?.requireExplicitPolicy == 0 { explicitPolicy = 0 }
                continue
            }
            // §6.1.4 (a): anyPolicy may be neither side of a mapping.
            let mappings = extensions.policyMappings?.mappings ?? []
            if mappings.contains(where: { $0.issuerDomainPolicy == OID.anyPolicy || $0.subjectDomainPolicy == OID.anyPolicy }) {
                return failure(.policyMappingInvalid, at: index)
            }
            // §6.1.4 (b).
            expected = try graph.expectation(policyMappings: mappings, mappingAllowed: policyMapping > 0, budget: budget)
            // §6.1.4 (h): the counters run down over certificates that are not self-issued.
            if !certificate.isSelfIssued {
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if policyMapping > 0 { policyMapping -= 1 }
                if inhibitAnyPolicy > 0 { inhibitAnyPolicy -= 1 }
            }
            // §6.1.4 (i), (j): constraints only ever tighten the counters.
            if let constraints = extensions.policyConstraints {
                if let skip = constraints.requireExplicitPolicy { explicitPolicy = min(explicitPolicy, skip) }
                if let skip = constraints.inhibitPolicyMapping { policyMapping = min(policyMapping, skip) }
            }
            if let skip = extensions.inhibitAnyPolicy?.skipCerts { inhibitAnyPolicy = min(inhibitAnyPolicy, skip) }
        }
        let policies = result(of: graph, inputs: inputs)
        // §6.1.6: with an explicit policy required, the user-constrained set must not be empty.
        if explicitPolicy == 0 && policies.userConstrained.isEmpty { return failure(.explicitPolicyRequired, at: 0) }
        return .valid(policies)
    }

    /// §6.1.5 (g): the authorities-constrained set and its intersection with the initial policy set.
    static func result(of graph: PolicyGraph, inputs: ValidationRequest) -> ValidPolicySet {
        if graph.isNull { return ValidPolicySet(authoritiesConstrained: [], userConstrained: []) } // (g)(i)
        let (nodes, lastLevelHasAnyPolicy) = graph.validPolicyNodes()
        var authorities = nodes
        if lastLevelHasAnyPolicy { authorities.insert(OID.anyPolicy) }
        let user: Set<ASN1ObjectIdentifier>
        if inputs.initialPolicySet.contains(OID.anyPolicy) {
            user = authorities // (g)(ii)
        } else if lastLevelHasAnyPolicy {
            user = inputs.initialPolicySet // (g)(iii)(3): every initial policy hangs off the final anyPolicy node
        } else {
            user = nodes.intersection(inputs.initialPolicySet) // (g)(iii)(2)
        }
        return ValidPolicySet(authoritiesConstrained: authorities, userConstrained: user)
    }
}
