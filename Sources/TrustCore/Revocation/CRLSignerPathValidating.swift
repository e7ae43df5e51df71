import TrustX509

/// Validates the path of a CRL-signing certificate that is not on the chain: a call revocation
/// makes on the evaluation (``CRLSignerPaths``), which reads the evaluation's validator, pool and budget.
protocol CRLSignerPathValidating: AnyObject {
    /// Why `signer` has no valid path to `anchor`, or nil when it has one; running out of the
    /// evaluation's budget throws.
    func pathProblem(signer: Certificate, anchor: Certificate) throws(BudgetExhausted) -> String?
}
