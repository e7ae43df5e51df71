import TrustX509

/// Policy processing outcomes per complete chain within one evaluation, so that asking again — the
/// evaluation reports the valid chain's policies after the builder validated it — neither repeats
/// the work nor draws on the policy budget twice.
///
/// The chain asked about is almost always the one recorded last (the builder stops at the first
/// valid chain): it is kept apart and compared first, which for the same array is one buffer-identity
/// check. A dictionary, with its allocation and hashing of whole chains, is built only when a second
/// chain is recorded. Outcomes are handed out boxed: an outcome holds a ``TrustFailure``, whose
/// reason enum is copied through runtime value witnesses, so a copy costs far more than handing out
/// the box, which is one reference count. A class for the same reason: a struct memo
/// stored in the validator was copied whole for every lookup.
final class PolicyOutcomeMemo {
    /// One chain's outcome, shared rather than copied.
    final class Entry {
        let outcome: PolicyProcessing.Outcome
        /// Whether `outcome` is `.valid`: asked before matching, since matching copies the outcome.
        let isValid: Bool

        init(_ outcome: PolicyProcessing.Outcome) {
            self.outcome = outcome
            if case .valid = outcome { isValid = true } else { isValid = false }
        }
    }

    private var lastChain: [Certificate] = []
    private var last: Entry?
    private var earlier: [[Certificate]: Entry] = [:]

    /// The outcome recorded for `chain`, if any.
    func entry(for chain: [Certificate]) -> Entry? {
        if let last, lastChain == chain { return last }
        return earlier.isEmpty ? nil : earlier[chain]
    }

    /// Records `outcome` for `chain` (a chain not recorded before) and returns its entry.
    func record(_ outcome: PolicyProcessing.Outcome, for chain: [Certificate]) -> Entry {
        if let last { earlier[lastChain] = last }
        let entry = Entry(outcome)
        lastChain = chain
        last = entry
        return entry
    }
}
