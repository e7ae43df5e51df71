import TrustX509

/// Results computed once per complete chain within one evaluation (policy processing, revocation),
/// so that asking again — the evaluation reports the valid chain's policies after the builder
/// validated it — neither repeats the work nor draws on the budget twice.
///
/// The chain asked about is almost always the one recorded last (the builder stops at the first
/// valid chain): it is kept apart and compared first, which for the same array is one buffer-identity
/// check. A dictionary, with its allocation and hashing of the whole chain, is built only when a
/// second chain is recorded.
struct ChainMemo<Value> {
    private var last: (chain: [Certificate], value: Value)?
    private var earlier: [[Certificate]: Value] = [:]

    /// The value recorded for `chain`, if any.
    func value(for chain: [Certificate]) -> Value? {
        if let last, last.chain == chain { return last.value }
        return earlier.isEmpty ? nil : earlier[chain]
    }

    /// Records `value` for `chain` (a chain not recorded before).
    mutating func record(_ value: Value, for chain: [Certificate]) {
        if let last { earlier[last.chain] = last.value }
        last = (chain, value)
    }
}
