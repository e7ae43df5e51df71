import TrustDER
import TrustX509

/// RFC 5280 §6.1's valid_policy_tree, kept as a graph of levels (as BoringSSL and Chromium do)
/// instead of a tree: one level per certificate, at most one node per policy OID in a level, and
/// a node lists the policies of the level above it that it descends from. The tree's anyPolicy
/// nodes are a flag on each level with implicit edges to everything.
///
/// Why a graph: in the tree, every node whose expected_policy_set names P gets its own child P,
/// so a few mappings per certificate multiply the nodes at every level (OpenSSL's
/// CVE-2023-0464). Here a level never holds more nodes than the certificate names policies plus
/// its issuer maps, and every node and edge created is charged to a work budget.
struct PolicyGraph {
    /// One policy node of a level.
    struct Node {
        /// The policies of the level above that this node descends from. Empty means the node's
        /// parent is that level's anyPolicy node (for the first level: the root anyPolicy), which
        /// makes the node a member of RFC 5280 §6.1.5 (g)(iii)'s valid_policy_node_set.
        var parentPolicies: [ASN1ObjectIdentifier] = []
        /// Whether the certificate of this level maps this policy (§6.1.4 (b)).
        var isMapped = false
    }

    /// The nodes of one depth, or (while a certificate is being processed) the expected policies
    /// of the depth above, keyed by policy.
    struct Level {
        var nodes: [ASN1ObjectIdentifier: Node] = [:]
        /// Whether this depth has an anyPolicy node.
        var hasAnyPolicy = false

        /// §6.1.3 (d)(3) / (e): a depth without nodes means the valid_policy_tree is NULL.
        var isEmpty: Bool { nodes.isEmpty && !hasAnyPolicy }
    }

    /// The levels processed so far, the first for the certificate issued by the trust anchor.
    private(set) var levels: [Level] = []

    /// An empty graph.
    init() {}

    /// An empty graph for a path of `depth` certificates (its levels allocated once, not grown).
    init(depth: Int) { levels.reserveCapacity(depth) }
    /// The root of §6.1.2 (a): a single anyPolicy node, as the expectation of the first certificate.
    static var initialExpectation: Level { Level(nodes: [:], hasAnyPolicy: true) }

    /// §6.1.3 (d): turns `expected` (what the depth above expects, from ``expectation(policyMappings:mappingAllowed:budget:)``)
    /// into this certificate's depth, given the certificate's `policies` (anyPolicy already removed
    /// when it is inhibited, `assertsAnyPolicy` telling whether it was present and allowed), and
    /// appends it. Pruning of childless nodes above is deferred to the reachability walk of
    /// ``validPolicyNodes()``.
    mutating func append(
        certificatePolicies policies: [ASN1ObjectIdentifier], assertsAnyPolicy: Bool,
        expected: Level, budget: BudgetMeter
    ) throws(BudgetExhausted) {
        var level = expected
        let asserted = Set(policies)
        // (d)(1)(i) and (d)(2): without anyPolicy, only the expected policies the certificate names
        // get a child; with it, every expected policy (anyPolicy included) does.
        if !assertsAnyPolicy {
            level.nodes = level.nodes.filter { asserted.contains($0.key) }
            level.hasAnyPolicy = false
        }
        // (d)(1)(ii): a named policy nobody expected hangs off the anyPolicy node above.
        if expected.hasAnyPolicy {
            for policy in policies where level.nodes[policy] == nil {
                try budget.spend(.policyGraphOperations)
                level.nodes[policy] = Node()
            }
        }
        levels.append(level)
    }

    /// §6.1.3 (e): the certificate has no certificatePolicies; the tree becomes NULL.
    mutating func appendEmptyLevel() { levels.append(Level()) }

    /// Whether the tree is NULL after the last certificate (§6.1.3 (d)(3), (e)).
    var isNull: Bool { levels.last?.isEmpty ?? false }

    /// §6.1.4 (b): what the next certificate's depth expects from the last level, given this
    /// certificate's policy mappings (already checked not to involve anyPolicy). With mapping
    /// allowed, a mapped policy expects its subject-domain policies instead of itself (a mapped
    /// policy the level lacks is first added under anyPolicy, (b)(1)); with mapping inhibited,
    /// mapped policies are deleted ((b)(2)). Every other policy expects itself.
    mutating func expectation(
        policyMappings mappings: [PolicyMappings.Mapping], mappingAllowed: Bool,
        budget: BudgetMeter
    ) throws(BudgetExhausted) -> Level {
        guard var level = levels.popLast() else { return Self.initialExpectation }
        var subjectsByIssuer: [ASN1ObjectIdentifier: [ASN1ObjectIdentifier]] = [:]
        for mapping in mappings { subjectsByIssuer[mapping.issuerDomainPolicy, default: []].append(mapping.subjectDomainPolicy) }
        if mappingAllowed {
            for issuerPolicy in subjectsByIssuer.keys {
                if level.nodes[issuerPolicy] == nil {
                    guard level.hasAnyPolicy else { continue }
                    try budget.spend(.policyGraphOperations)
                    level.nodes[issuerPolicy] = Node()
                }
                level.nodes[issuerPolicy]?.isMapped = true
            }
        } else {
            level.nodes = level.nodes.filter { subjectsByIssuer[$0.key] == nil }
        }
        levels.append(level)

        var next = Level(nodes: [:], hasAnyPolicy: level.hasAnyPolicy)
        for (policy, node) in level.nodes {
            let expectedPolicies = node.isMapped ? subjectsByIssuer[policy] ?? [] : [policy]
            for expectedPolicy in expectedPolicies {
                try budget.spend(.policyGraphOperations)
                next.nodes[expectedPolicy, default: Node()].parentPolicies.append(policy)
            }
        }
        return next
    }

    /// The policies of valid_policy_node_set (§6.1.5 (g)(iii)(1): nodes whose parent is an
    /// anyPolicy node) that are still connected to the last level, and whether the last level has
    /// an anyPolicy node. A node no path from the last level reaches would have been pruned by
    /// §6.1.3 (d)(3), so it does not count.
    func validPolicyNodes() -> (policies: Set<ASN1ObjectIdentifier>, lastLevelHasAnyPolicy: Bool) {
        guard let last = levels.last else { return ([], true) }
        var result: Set<ASN1ObjectIdentifier> = []
        var reachable = Set(last.nodes.keys)
        for depth in levels.indices.reversed() {
            var above: Set<ASN1ObjectIdentifier> = []
            for policy in reachable {
                guard let node = levels[depth].nodes[policy] else { continue }
                if node.parentPolicies.isEmpty {
                    result.insert(policy)
                } else {
                    above.formUnion(node.parentPolicies)
                }
            }
            reachable = above
        }
        return (result, last.hasAnyPolicy)
    }
}
