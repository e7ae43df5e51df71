import TrustDER
import TrustX509

/// What one evaluation works with, built once from the configuration: validation options (time,
/// purposes, identities, rules, revocation flags, RFC 5280 inputs), anchors, the untrusted pool,
/// the signature checker, the budget meter, revocation inputs and which anchors are system anchors.
///
/// The builder and the validator read it; revocation reads it through the validator. Validating a
/// CRL signer's own path (RFC 5280 §6.3.3 (f)) is a call revocation makes on the context
/// (``CRLSignerPathValidating``), so revocation never assembles a builder or a validator itself:
/// the dependency runs one way, validation to revocation. Not thread-safe: one evaluation runs on
/// one thread.
final class EvaluationContext {
    let anchors: CertificateStore
    /// The presented certificates after the leaf, and the caller's additional intermediates.
    let intermediates: CertificateStore
    let maximumIntermediates: Int
    /// The validator of the evaluation's chains; it holds the validation options (``options``).
    let validator: PathValidator
    /// Outcomes of CRL signer path validations, per (signer, anchor); nil until the first (most
    /// evaluations validate no separate CRL signer).
    private var signerPaths: [SignerPath: String?]?

    private struct SignerPath: Hashable {
        let signer: Certificate
        let anchor: Certificate
    }

    /// The validation options (time, purposes, identities, rules, revocation flags, RFC 5280
    /// inputs): the validator's, not a second copy (a copy retains every field of them).
    var options: ValidationOptions { validator.options }
    /// The evaluation's signature checker (the validator's).
    var signatures: SignatureChecker { validator.signatures }
    /// The evaluation's one allowance (the validator's): path building, signatures, name
    /// constraints, policies and revocation (CRL signers' paths included) all draw from it.
    var budget: BudgetMeter { validator.budget }
    /// The supplied and fetched CRLs and OCSP responses (the validator's).
    var revocationInputs: RevocationInputs { validator.revocationInputs }

    init(options: ValidationOptions, anchors: CertificateStore, intermediates: CertificateStore, signatures: SignatureChecker,
         budget: BudgetMeter, revocationInputs: RevocationInputs, maximumIntermediates: Int, identities: [PreparedIdentity],
         isSystemAnchor: ((Certificate) -> Bool)?) {
        self.anchors = anchors
        self.intermediates = intermediates
        self.maximumIntermediates = maximumIntermediates
        let validator = PathValidator(options: options, signatures: signatures, budget: budget, identities: identities)
        validator.revocationInputs = revocationInputs
        if let isSystemAnchor { validator.isSystemAnchor = isSystemAnchor }
        self.validator = validator
        if validator.options.revocation != nil {
            validator.crlSigners = CRLSigners(pool: intermediates, paths: self)
        }
    }

    /// Builds paths from `leaf` to the anchors; the validator decides each complete one.
    func build(from leaf: Certificate) -> PathBuildingResult {
        var builder = PathBuilder(anchors: anchors, intermediates: intermediates, maximumIntermediates: maximumIntermediates,
                                  validator: validator)
        return builder.build(from: leaf)
    }
}

extension EvaluationContext: CRLSignerPathValidating {
    /// Why `signer` has no valid path to `anchor` (nil when it has one): RFC 5280 §6.1 validation
    /// under the RFC 5280 rules (plus the anchor constraints the evaluation enforces), at the same
    /// instant, with the same revocation options, for no particular purpose or name, drawing on the
    /// evaluation's budget. A CRL consulted on that path must be signed by a key on that path (no
    /// second level: OpenSSL likewise refuses recursive CRL path validation).
    func pathProblem(signer: Certificate, anchor: Certificate) -> String? {
        let key = SignerPath(signer: signer, anchor: anchor)
        if let known = signerPaths?[key] { return known }
        let options = validator.options
        var pathOptions = ValidationOptions(verifyTime: options.verifyTime, profile: .rfc5280, signaturePolicy: options.signaturePolicy)
        pathOptions.rules = TrustProfile.rfc5280.rules.union(ProfileRuleSet(ValidationOptions.anchorConstraintRules.filter(options.rules.contains)))
        pathOptions.revocation = options.revocation
        let pathValidator = PathValidator(options: pathOptions, signatures: validator.signatures, budget: validator.budget)
        pathValidator.revocationInputs = validator.revocationInputs
        // No `crlSigners`: a CRL consulted on this path must be signed by a key on this path.
        var signerAnchors = CertificateStore()
        signerAnchors.insert(anchor)
        var builder = PathBuilder(anchors: signerAnchors, intermediates: intermediates, maximumIntermediates: maximumIntermediates,
                                  validator: pathValidator)
        let result = builder.build(from: signer)
        let problem: String?
        if result.validChain != nil {
            problem = nil
        } else {
            let failures = result.bestFailedAttempt?.failures ?? []
            problem = failures.first.map(\.description) ?? "no path"
        }
        signerPaths = signerPaths ?? [:]
        signerPaths?[key] = problem
        return problem
    }
}
