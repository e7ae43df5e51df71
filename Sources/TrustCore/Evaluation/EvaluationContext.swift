import TrustDER
import TrustX509

/// What one evaluation works with, built once from the configuration: validation options (time,
/// purposes, identities, rules, revocation flags, RFC 5280 inputs), anchors, the untrusted pool,
/// the signature checker, the budget meter, revocation inputs and which anchors are system anchors.
///
/// The builder and the validator read it; revocation reads it through the validator. Validating a
/// CRL signer's own path (RFC 5280 §6.3.3 (f)) is a call revocation makes on the evaluation
/// (``CRLSignerPaths``), so revocation never assembles a builder or a validator itself: the
/// dependency runs one way, validation to revocation.
///
/// A non-copyable value that holds the builder, which holds the anchors, the pool and the validator,
/// each once, and builds in place (an evaluation's object allocation and reference counts are most of
/// a warm evaluation's cost, docs/performance.md).
struct EvaluationContext: ~Copyable {
    /// The builder of the evaluation's paths: it holds the anchors, the untrusted pool (the
    /// presented certificates after the leaf, and the caller's additional intermediates) and the
    /// validator, each once.
    private var builder: PathBuilder

    /// The validator of the evaluation's chains; it holds the validation options, the signature
    /// checker, the budget meter and the revocation inputs.
    var validator: PathValidator { builder.validator }

    init(
        options: consuming ValidationRequest, anchors: CertificateStore, intermediates: CertificateStore, signatures: SignatureChecker,
        budget: BudgetMeter, revocationInputs: RevocationInputs, maximumIntermediates: Int,
        rootClassifier: SystemTrustStore?
    ) {
        let validator = PathValidator(options: options, signatures: signatures, budget: budget)
        validator.revocationInputs = revocationInputs
        validator.rootClassifier = rootClassifier
        if validator.options.revocation != nil {
            let paths = CRLSignerPaths(validator: validator, pool: intermediates, maximumIntermediates: maximumIntermediates)
            validator.crlSigners = CRLSigners(pool: intermediates, paths: paths)
        }
        builder = PathBuilder(
            anchors: anchors, intermediates: intermediates, maximumIntermediates: maximumIntermediates,
            validator: validator)
    }

    /// Builds paths from `leaf` to the anchors; the validator decides each complete one. In place:
    /// the builder is not copied out of the context (a copy retains and releases each of its fields).
    mutating func build(from leaf: Certificate) -> PathBuildingResult {
        builder.build(from: leaf)
    }
}

/// The evaluation's validation of CRL signers' own paths (RFC 5280 §6.3.3 (f)), made only when
/// revocation is checked: a path to the same anchor from the evaluation's pool, under the RFC 5280
/// rules (plus the anchor constraints the evaluation enforces), at the same instant, with the same
/// revocation options, for no particular purpose or name, drawing on the evaluation's budget.
final class CRLSignerPaths: CRLSignerPathValidating {
    /// The evaluation's validator (unowned: it holds the CRL signers that hold this object).
    private unowned let validator: PathValidator
    private let pool: CertificateStore
    private let maximumIntermediates: Int
    /// Outcomes per (signer, anchor), within one evaluation.
    private var outcomes: [SignerPath: CRLSignerPathOutcome] = [:]

    private struct SignerPath: Hashable {
        let signer: Certificate
        let anchor: Certificate
    }

    init(validator: PathValidator, pool: CertificateStore, maximumIntermediates: Int) {
        self.validator = validator
        self.pool = pool
        self.maximumIntermediates = maximumIntermediates
    }

    /// Whether `signer` has a valid path to `anchor`, and why not. A CRL consulted on that
    /// path must be signed by a key on that path (no second level: OpenSSL likewise refuses
    /// recursive CRL path validation).
    func pathOutcome(signer: Certificate, anchor: Certificate) throws(BudgetExhausted) -> CRLSignerPathOutcome {
        let key = SignerPath(signer: signer, anchor: anchor)
        if let known = outcomes[key] { return known }
        let pathOptions = validator.options.crlSignerRequest()
        let pathValidator = PathValidator(options: pathOptions, signatures: validator.signatures, budget: validator.budget)
        pathValidator.revocationInputs = validator.revocationInputs
        // No `crlSigners`: a CRL consulted on this path must be signed by a key on this path.
        var signerAnchors = CertificateStore()
        signerAnchors.insert(anchor)
        var builder = PathBuilder(
            anchors: signerAnchors, intermediates: pool, maximumIntermediates: maximumIntermediates,
            validator: pathValidator)
        let result = try builder.buildWithinBudget(from: signer)
        let outcome: CRLSignerPathOutcome =
            result.validChain != nil ? .valid : .invalid(firstFailure: result.bestFailedAttempt?.failures.first)
        outcomes[key] = outcome
        return outcome
    }
}
