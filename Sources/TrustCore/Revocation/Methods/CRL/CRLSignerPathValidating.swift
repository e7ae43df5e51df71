import TrustX509

/// Validates the path of a CRL-signing certificate that is not on the chain: a call revocation
/// makes on the evaluation (``CRLSignerPaths``), which reads the evaluation's validator, pool and budget.
protocol CRLSignerPathValidating: AnyObject {
    /// Whether `signer` has a valid path to `anchor` and, when it has none, the first failure of the
    /// best attempt; running out of the evaluation's budget throws.
    func pathOutcome(signer: Certificate, anchor: Certificate) throws(BudgetExhausted) -> CRLSignerPathOutcome
}

/// Whether a CRL signer's own path validates (RFC 5280 §6.3.3 (f)).
enum CRLSignerPathOutcome: Hashable {
    /// A path from the signer to the anchor validates.
    case valid
    /// No path validates: the first failure of the best attempt, nil when no path could be built.
    case invalid(firstFailure: TrustFailure?)
}
