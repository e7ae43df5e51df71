/// How well a failed path explains why no chain was found. The evaluation's failures (its headline
/// reason first), the chain it reports, ``ChainDiagnostics``' findings and `trustctl limbo`'s context
/// all come from the one attempt ranked highest here, and from nowhere else: the first path the
/// builder tries is often a detour (a loop through a bridge CA's cross-certificates ends in "issuer
/// not found") while the cause is on the path that reached the anchor.
///
/// From most to least relevant:
/// 1. a complete path: it reached an anchor, every signature verified, a rule failed (`invalid`);
///    the one with the fewest fatal failures, then the fewest failures;
/// 2. when the budget stopped the search, the attempt it stopped: whatever was rejected on the way,
///    the budget is why no chain was found (look-alike issuers are not the leaf's fault);
/// 3. a path that reached an anchor which was rejected as the issuer of its top (a disabled
///    algorithm, a weak key, a wrong key): a refusal of the signature itself (the anchor is the
///    right one, the child's algorithm is not accepted) before one that blames the anchor's key,
///    then the longest;
/// 4. any other partial path: the longest, as it got furthest; at equal length a dead end before a
///    rejected issuer, whose last certificate is only a candidate.
///
/// Ties go to the path tried first.
struct PathRelevance: Comparable {
    private let tier: Int
    private let primary: Int
    private let secondary: Int

    /// The relevance of `attempt`, the `position`th explored; `budgetStopped` tells whether the
    /// budget ended the search. Nil for a valid path, which is no failure to explain.
    init?(_ attempt: PathAttempt, position: Int, budgetStopped: Bool) {
        switch attempt.outcome {
        case .valid:
            return nil
        case .invalid:
            tier = 3
            primary = -attempt.failures.filter { $0.reason.severity == .fatal }.count
            secondary = -attempt.failures.count
        case .budgetExhausted where budgetStopped:
            // The last stop is the one that ended the search.
            (tier, primary, secondary) = (2, position, 0)
        case .rejectedIssuer where attempt.endsAtAnchor:
            let blamesAnchor = attempt.failures.contains { $0.reason.blamesIssuerCandidate }
            (tier, primary, secondary) = (1, blamesAnchor ? 0 : 1, attempt.chain.count)
        case .rejectedIssuer, .deadEnd, .tooDeep, .budgetExhausted:
            (tier, primary, secondary) = (0, attempt.chain.count, attempt.outcome == .rejectedIssuer ? 0 : 1)
        }
    }

    static func < (lhs: PathRelevance, rhs: PathRelevance) -> Bool {
        (lhs.tier, lhs.primary, lhs.secondary) < (rhs.tier, rhs.primary, rhs.secondary)
    }

    /// The most relevant failed attempt of `attempts` (in exploration order), or nil when none failed.
    static func mostRelevant(of attempts: [PathAttempt], budgetStopped: Bool) -> PathAttempt? {
        var best: (attempt: PathAttempt, relevance: PathRelevance)?
        for (position, attempt) in attempts.enumerated() {
            guard let relevance = PathRelevance(attempt, position: position, budgetStopped: budgetStopped) else { continue }
            // Strictly greater only: ties keep the earlier path.
            if best.map({ $0.relevance < relevance }) ?? true { best = (attempt, relevance) }
        }
        return best?.attempt
    }
}

extension TrustFailureReason {
    /// Whether this rejection of an issuer candidate is the candidate's fault (a wrong, unusable or
    /// weak key) rather than the signed certificate's (a disabled, unsupported or malformed signature
    /// algorithm, which no issuer could have verified).
    package var blamesIssuerCandidate: Bool {
        guard case let .signatureUnverifiable(error) = self else { return true }
        switch error {
        case .legacyAlgorithm, .unsupportedAlgorithm, .malformedAlgorithmParameters: return false
        default: return true
        }
    }
}
