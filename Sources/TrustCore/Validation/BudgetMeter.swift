/// What is left of one evaluation's ``VerificationBudget``. A class: the builder, the validator
/// and the revocation checker of one evaluation draw from the same meter. Not thread-safe: one
/// evaluation runs on one thread.
final class BudgetMeter {
    let limits: VerificationBudget
    private var usedSignatureChecks = 0
    private var usedCandidatePaths = 0
    private var usedNameConstraintComparisons = 0
    private var usedPolicyGraphOperations = 0
    private var usedRevocationChecks = 0
    /// The first resource that ran out, if any: once exhausted, the evaluation is rejected.
    private(set) var exhausted: BudgetResource?

    init(_ limits: VerificationBudget) { self.limits = limits }

    /// The allowance of `resource`.
    func limit(of resource: BudgetResource) -> Int {
        switch resource {
        case .signatureChecks: return limits.signatureChecks
        case .candidatePaths: return limits.candidatePaths
        case .nameConstraintComparisons: return limits.nameConstraintComparisons
        case .policyGraphOperations: return limits.policyGraphOperations
        case .revocationChecks: return limits.revocationChecks
        }
    }

    /// How much of `resource` has been used.
    func used(_ resource: BudgetResource) -> Int {
        switch resource {
        case .signatureChecks: return usedSignatureChecks
        case .candidatePaths: return usedCandidatePaths
        case .nameConstraintComparisons: return usedNameConstraintComparisons
        case .policyGraphOperations: return usedPolicyGraphOperations
        case .revocationChecks: return usedRevocationChecks
        }
    }

    /// How much of `resource` is left (never negative).
    func remaining(_ resource: BudgetResource) -> Int { max(0, limit(of: resource) - used(resource)) }

    /// Whether `amount` more of `resource` fits in the budget.
    func canSpend(_ resource: BudgetResource, _ amount: Int = 1) -> Bool { amount >= 0 && amount <= remaining(resource) }

    /// Spends `amount` of `resource`; false (and the meter marked exhausted) when it does not fit.
    /// Amounts come from input sizes: a spend that does not fit uses up the rest, never overflows.
    @discardableResult
    func spend(_ resource: BudgetResource, _ amount: Int = 1) -> Bool {
        WorkCounter.count(amount)
        let fits = canSpend(resource, amount)
        let newUsed = fits ? used(resource) + amount : limit(of: resource)
        switch resource {
        case .signatureChecks: usedSignatureChecks = newUsed
        case .candidatePaths: usedCandidatePaths = newUsed
        case .nameConstraintComparisons: usedNameConstraintComparisons = newUsed
        case .policyGraphOperations: usedPolicyGraphOperations = newUsed
        case .revocationChecks: usedRevocationChecks = newUsed
        }
        if !fits, exhausted == nil { exhausted = resource }
        return fits
    }

    /// Marks `resource` as exhausted (a stage found it had no allowance left).
    func markExhausted(_ resource: BudgetResource) {
        if exhausted == nil { exhausted = resource }
    }
}
