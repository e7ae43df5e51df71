import TrustDER
import TrustX509

/// One path the builder considered, and what became of it.
public struct PathAttempt: Hashable, Sendable {
    /// How the attempt ended.
    public enum Outcome: Hashable, Sendable {
        /// The path reached an anchor and passed validation.
        case valid
        /// The path reached an anchor but failed validation.
        case invalid
        /// No usable issuer was found for the last certificate.
        case deadEnd
        /// The candidate issuer was rejected before the path was complete (e.g. its signature).
        case rejectedIssuer
        /// The path would exceed the depth limit.
        case tooDeep
        /// The budget ran out while this path was being explored.
        case budgetExhausted
    }

    /// The certificates, leaf first (for a rejected issuer, the rejected candidate is last).
    public let chain: [Certificate]
    /// How the attempt ended.
    public let outcome: Outcome
    /// Why it failed (empty for a valid path).
    public let failures: [TrustFailure]
    /// Whether the last certificate is a trust anchor: always for a valid or invalid path; for a
    /// rejected issuer, when the rejected candidate is one (the path reached an anchor that did not
    /// vouch for it).
    public let endsAtAnchor: Bool
}

/// The builder's answer: the first valid chain, or the reasons every explored path failed.
package struct PathBuildingResult: Sendable {
    /// The valid chain (leaf … anchor), if one was found.
    package let validChain: [Certificate]?
    /// Every path considered, in exploration order.
    package let attempts: [PathAttempt]
    /// Signature verifications performed.
    package let signatureChecks: Int
    /// What ran out, when the budget stopped the search (the evaluation is then rejected).
    let exhaustion: BudgetExhausted?
    /// Whether the budget stopped the search.
    package var budgetExhausted: Bool { exhaustion != nil }

    /// The failed attempt that best explains why no chain was found (ranked by `PathRelevance`): the one
    /// every report of the failure leads with.
    package var bestFailedAttempt: PathAttempt? {
        PathRelevance.mostRelevant(of: attempts, budgetStopped: budgetExhausted)
    }
}

/// Proposes chains from a leaf to a trust anchor: depth-first over candidate issuers (cheap evidence
/// first: see ``ordered(_:anchorCount:for:)``), backtracking on failure, skipping loops, within a
/// budget. Each complete path is handed to the ``PathValidator``; the first valid one wins.
struct PathBuilder {
    let anchors: CertificateStore
    let intermediates: CertificateStore
    let maximumIntermediates: Int
    let validator: PathValidator
    /// The evaluation's budget, shared with the validator (name constraints, policies, revocation).
    var budget: BudgetMeter { validator.budget }

    private var attempts: [PathAttempt] = []
    private var found: [Certificate]?

    // Both memories key on `SignedBy`: whether a signature verifies depends only on the signed
    // certificate, the issuer's key and the signature policy (fixed for the evaluation), not on
    // which certificate carried the key.

    /// Keys whose signature check on a certificate failed in this evaluation, and why: another
    /// candidate with the same key is rejected for the same reason without a new check, so
    /// look-alikes sharing one wrong key cost one signature check, not one each.
    private var failedKeys: [SignedBy: TrustFailureReason] = [:]
    /// Keys that verified a certificate in this evaluation: candidates with them are tried first.
    private var verifiedKeys: Set<SignedBy> = []

    init(anchors: CertificateStore, intermediates: CertificateStore, maximumIntermediates: Int, validator: PathValidator) {
        self.anchors = anchors
        self.intermediates = intermediates
        self.maximumIntermediates = maximumIntermediates
        self.validator = validator
    }

    /// Builds paths from `leaf`; when the budget runs out, the search stops and the path it was
    /// exploring is recorded as the last attempt (the one that explains the rejection).
    mutating func build(from leaf: Certificate) -> PathBuildingResult {
        var path: [Certificate] = []
        path.reserveCapacity(4)
        path.append(leaf)
        var exhaustion: BudgetExhausted?
        do {
            try extend(&path)
        } catch {
            // The stage that ran out unwound the search: `path` is the one it was exploring.
            exhaustion = error
            record(path, .budgetExhausted, [error.failure])
        }
        return PathBuildingResult(
            validChain: found, attempts: attempts, signatureChecks: budget.used(.signatureChecks),
            exhaustion: exhaustion)
    }

    /// Builds paths from `leaf` for an evaluation that is itself a step of another (a CRL signer's
    /// own path): running out of budget ends both, so the exhaustion propagates.
    mutating func buildWithinBudget(from leaf: Certificate) throws(BudgetExhausted) -> PathBuildingResult {
        let result = build(from: leaf)
        if let exhaustion = result.exhaustion { throw exhaustion }
        return result
    }

    private mutating func record(
        _ chain: [Certificate], _ outcome: PathAttempt.Outcome, _ failures: [TrustFailure],
        endsAtAnchor: Bool = false
    ) {
        attempts.append(PathAttempt(chain: chain, outcome: outcome, failures: failures, endsAtAnchor: endsAtAnchor))
    }

    /// Explores paths that extend `path`; returns true once a valid chain is found. `path` is
    /// extended and restored in place (one array for the whole search); after a success it is left
    /// as it was when the valid chain was found.
    /// Running out of budget (here, or in the validator's stages: name constraints, policies,
    /// revocation) throws and ends the whole search.
    @discardableResult
    private mutating func extend(_ path: inout [Certificate]) throws(BudgetExhausted) -> Bool {
        guard let current = path.last else { return false }
        // Only the path budget is checked here: the signature budget guards each verification in the
        // loop below, so a path whose signatures were all paid for can still reach its anchor.
        try budget.reserve(.candidatePaths)

        // A trusted certificate ends the path (RFC 5280 §6.1: the anchor is not part of the path proper).
        // An anchor is the exact certificate given, matched by its bytes as trustd's anchor sources
        // match (SecCertificateSourceContains: CFSetContainsValue, SecCertificateEqual's memcmp): a
        // presented certificate with an anchor's subject and key but other bytes is not that anchor.
        // It is judged on its own fields, with the anchor as its issuer (below), as Apple does.
        if anchors.contains(current) {
            let chain = path
            try budget.spend(.candidatePaths)
            let failures = try validator.validate(chain, isComplete: true)
            if failures.isEmpty {
                found = chain
                record(chain, .valid, [], endsAtAnchor: true)
                return true
            }
            record(chain, .invalid, failures, endsAtAnchor: true)
            return false
        }

        // Depth: logical (non-self-issued) intermediates so far, plus a hard cap on length.
        var intermediatesSoFar = 0
        for position in path.indices.dropFirst() where !path[position].isSelfIssued { intermediatesSoFar += 1 }
        if intermediatesSoFar > maximumIntermediates || path.count >= budget.limits.maximumPathLength {
            try budget.spend(.candidatePaths)
            // The limit that stopped it: the caller's depth, or the budget's path length (leaf and anchor excluded).
            let pathLength = budget.limits.maximumPathLength
            let limit = intermediatesSoFar > maximumIntermediates ? maximumIntermediates : (pathLength > 2 ? pathLength - 2 : 0)
            record(path, .tooDeep, [TrustFailure(.maximumDepthExceeded(limit: limit), certificate: current, index: path.count - 1)])
            return false
        }

        var candidates = anchors.candidateIssuers(of: current)
        let anchorCount = candidates.count
        let untrusted = intermediates.candidateIssuers(of: current)
        WorkCounter.count(anchorCount)
        WorkCounter.count(untrusted.count)
        if candidates.isEmpty {
            candidates = untrusted
        } else if min(anchorCount, untrusted.count) <= 2 {
            // At most two comparisons per candidate of the longer list.
            for candidate in untrusted where !candidates.contains(candidate) { candidates.append(candidate) }
        } else {
            // Many anchors and many intermediates with one name: a set keeps the merge linear.
            let trusted = Set(candidates)
            for candidate in untrusted where !trusted.contains(candidate) { candidates.append(candidate) }
        }
        // Loop detection: a (subject, key) pair may appear once per path. Every candidate's subject
        // equals `current.issuer` (when both stores compare names with `==`), so for `current`
        // itself "same subject as the candidate" is "self-issued", which it has decided once.
        let lastIndex = path.count - 1
        let currentNameIsKnown = anchors.matchesNamesByComparison && intermediates.matchesNamesByComparison
        // One exception: an anchor with `current`'s own subject and key (a presented look-alike of an
        // anchor, e.g. a re-issued self-signed certificate) is its issuer, and ends the path there.
        candidates.removeAll { candidate in
            path.indices.contains { index in
                let member = path[index]
                let sameSubject = currentNameIsKnown && index == lastIndex ? current.isSelfIssued : member.hasSameSubject(as: candidate)
                guard sameSubject && member.hasSamePublicKey(as: candidate) else { return false }
                return !(index == lastIndex && anchors.contains(candidate))
            }
        }
        if candidates.isEmpty {
            try budget.spend(.candidatePaths)
            var failures = try validator.validate(path, isComplete: false)
            let reason: TrustFailureReason = current.isSelfIssued ? .untrustedRoot : .issuerNotFound
            failures.append(TrustFailure(reason, certificate: current, index: path.count - 1))
            record(path, .deadEnd, failures)
            return false
        }

        // Verified keys only serve ordering: with a single candidate there is nothing to order.
        let ordersCandidates = candidates.count > 1
        for candidate in ordered(candidates, anchorCount: anchorCount, for: current) {
            // Built only when a memory of this evaluation is consulted or written.
            func signedBy() -> SignedBy { SignedBy(current, by: candidate) }
            let knownFailure = failedKeys.isEmpty ? nil : failedKeys[signedBy()]
            if knownFailure == nil { try budget.reserve(.signatureChecks) }
            // Rejected candidates end paths too: without this check a wide fan-out of look-alike
            // issuers would run past the path budget (bounded only by the signature budget).
            try budget.reserve(.candidatePaths)
            var failure = knownFailure
            if knownFailure == nil {
                try budget.spend(.signatureChecks)
                failure = validator.signatures.failure(child: current, issuer: candidate)
                if let failure {
                    failedKeys[signedBy()] = failure
                } else if ordersCandidates {
                    verifiedKeys.insert(signedBy())
                }
            }
            if let failure {
                try budget.spend(.candidatePaths)
                record(
                    path + [candidate], .rejectedIssuer, [TrustFailure(failure, certificate: current, index: path.count - 1)],
                    endsAtAnchor: anchors.contains(candidate))
                continue
            }
            path.append(candidate)
            if try extend(&path) { return true }
            path.removeLast()
        }
        return false
    }

    /// `candidates` (the anchors' first, `anchorCount` of them, then the intermediates') in the order
    /// they are worth a signature check, so that look-alike issuers cannot use up the budget ahead of
    /// the genuine one while cheaper evidence tells them apart:
    /// 1. a key that already verified `child` in this evaluation, before one not yet tried, before one
    ///    that failed on it (which is then rejected without a new check);
    /// 2. a subjectKeyIdentifier equal to `child`'s authorityKeyIdentifier keyIdentifier, before no
    ///    subjectKeyIdentifier, before a different one (RFC 5280 §4.2.1.1);
    /// 3. an intermediate valid at the verify date before one that is not, which path validation
    ///    rejects (RFC 5280 §6.1.3 (a)(2)); an anchor's own validity is not part of the path (§6.1.1 (d)).
    /// Ties keep the given order (anchors first). Only what this evaluation learnt is consulted, never
    /// the process-wide ``SignatureCache``: what that holds depends on earlier evaluations, and the
    /// order decides which chain is built and which reasons are reported, which must not.
    private func ordered(_ candidates: [Certificate], anchorCount: Int, for child: Certificate) -> [Certificate] {
        guard candidates.count > 1 else { return candidates }
        WorkCounter.count(candidates.count)
        let authorityKeyID = child.extensions.authorityKeyID
        let now = validator.options.verifyTime.secondsSince1970
        // Nothing learnt yet (the usual first visit): no key to look up, so no key digest to compute.
        let hasLearnt = !verifiedKeys.isEmpty || !failedKeys.isEmpty
        func rank(_ candidate: Certificate, at position: Int) -> (Int, Int, Int, Int) {
            var signature = 1
            if hasLearnt {
                let signedBy = SignedBy(child, by: candidate)
                signature = verifiedKeys.contains(signedBy) ? 0 : failedKeys[signedBy] == nil ? 1 : 2
            }
            var keyIdentifier = 1
            if let authorityKeyID, let subjectKeyID = candidate.extensions.subjectKeyID {
                keyIdentifier = ByteComparison.equal(subjectKeyID, authorityKeyID) ? 0 : 2
            }
            let isValid =
                position < anchorCount
                || (candidate.notBefore.secondsSince1970 <= now && now <= candidate.notAfter.secondsSince1970)
            return (signature, keyIdentifier, isValid ? 0 : 1, position)
        }
        let ranks = candidates.enumerated().map { rank($0.element, at: $0.offset) }
        return candidates.indices.sorted { ranks[$0] < ranks[$1] }.map { candidates[$0] }
    }
}
