import TrustX509

/// Policy processing outcomes per complete chain within one evaluation, so that asking again — the
/// evaluation reports the valid chain's policies after the builder validated it — neither repeats
/// the work nor draws on the policy budget twice.
///
/// The chain asked about is almost always the one recorded last (the builder stops at the first
/// valid chain): it is kept apart and compared first, which for the same array is one buffer-identity
/// check. A dictionary, with its allocation and hashing of whole chains, is built only when a second
/// chain is recorded. Concrete rather than generic: a generic memo stored in the validator was
/// copied and destroyed through runtime value witnesses on every evaluation.
struct PolicyOutcomeMemo {
    private var lastChain: [Certificate] = []
    private var lastOutcome: PolicyProcessing.Outcome?
    private var earlier: [[Certificate]: PolicyProcessing.Outcome] = [:]

    /// The outcome recorded for `chain`, if any.
    func outcome(of chain: [Certificate]) -> PolicyProcessing.Outcome? {
        if lastOutcome != nil, lastChain == chain { return lastOutcome }
        return earlier.isEmpty ? nil : earlier[chain]
    }

    /// Records `outcome` for `chain` (a chain not recorded before).
    mutating func record(_ outcome: PolicyProcessing.Outcome, for chain: [Certificate]) {
        if let previous = lastOutcome.take() { earlier[lastChain] = previous }
        lastChain = chain
        lastOutcome = outcome
    }
}
