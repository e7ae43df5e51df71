/// The one signal that an evaluation ran out of its ``VerificationBudget``: thrown by
/// ``BudgetMeter/spend(_:_:)`` and ``BudgetMeter/reserve(_:_:)``, never caught below the path
/// builder, and always fatal: an evaluation that could not finish its checks is never a pass.
struct BudgetExhausted: Error, Hashable {
    /// The resource that ran out.
    let resource: BudgetResource
    /// Its allowance.
    let limit: Int

    /// The failure an evaluation reports for it (no certificate: the work as a whole ran out).
    var failure: TrustFailure {
        TrustFailure(.budgetExhausted(resource: resource, limit: limit), certificate: nil, index: nil)
    }
}

/// What is left of one evaluation's ``VerificationBudget``. A class: the builder, the validator,
/// revocation and a fetching evaluation's later steps draw from the same meter. Not thread-safe:
/// one evaluation runs on one thread.
///
/// Spending throws ``BudgetExhausted`` when the amount does not fit; there is no other signal.
/// A spend that does not fit uses up the rest of that resource, so every later spend of it throws too.
final class BudgetMeter {
    let limits: VerificationBudget
    private var usedSignatureChecks = 0
    private var usedCandidatePaths = 0
    private var usedNameConstraintComparisons = 0
    private var usedPolicyGraphOperations = 0
    private var usedRevocationChecks = 0

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

    /// Throws unless `amount` more of `resource` fits, spending nothing: for a stage that must not
    /// start work it could not pay for.
    func reserve(_ resource: BudgetResource, _ amount: Int = 1) throws(BudgetExhausted) {
        guard fits(resource, amount) else { throw exhaust(resource) }
    }

    /// Spends `amount` of `resource`, or throws when it does not fit (amounts come from input sizes:
    /// a spend that does not fit uses up the rest, never overflows).
    func spend(_ resource: BudgetResource, _ amount: Int = 1) throws(BudgetExhausted) {
        WorkCounter.count(amount)
        guard fits(resource, amount) else { throw exhaust(resource) }
        setUsed(resource, used(resource) + amount)
    }

    private func fits(_ resource: BudgetResource, _ amount: Int) -> Bool {
        amount >= 0 && amount <= limit(of: resource) - used(resource)
    }

    /// Uses up the rest of `resource` and names it.
    private func exhaust(_ resource: BudgetResource) -> BudgetExhausted {
        setUsed(resource, limit(of: resource))
        return BudgetExhausted(resource: resource, limit: limit(of: resource))
    }

    private func setUsed(_ resource: BudgetResource, _ value: Int) {
        switch resource {
        case .signatureChecks: usedSignatureChecks = value
        case .candidatePaths: usedCandidatePaths = value
        case .nameConstraintComparisons: usedNameConstraintComparisons = value
        case .policyGraphOperations: usedPolicyGraphOperations = value
        case .revocationChecks: usedRevocationChecks = value
        }
    }
}
