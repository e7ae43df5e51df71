import TrustDER
import TrustX509

/// RFC 5280 §6.3.3 (f)–(g): finds the key that signed a CRL and establishes that it is a key of the
/// CRL issuer certified under the same trust anchor as the certificate whose status is asked.
///
/// Two kinds of signer qualify:
/// - a certificate on the certificate's own validated path, at or above it, with the CRL issuer's
///   name: the usual case (the issuer itself), and a CA's other key across a self-issued key
///   rollover (PKITS 4.5);
/// - a certificate from the evaluation's untrusted pool with the CRL issuer's name — a separate
///   CRL-signing certificate, or the CRL issuer of an indirect CRL — whose own path to the same
///   anchor validates, revocation included (PKITS 4.4.19, 4.14.2x).
///
/// The second kind needs a path validation of its own, which may consult CRLs in turn. That nested
/// validation only accepts signers of the first kind, so there is never more than one level
/// (OpenSSL likewise refuses recursive CRL path validation), and all of it draws from the
/// evaluation's one ``BudgetMeter``.
final class CRLSigners {
    /// Where a separate CRL-signing certificate may come from: the evaluation's untrusted certificates.
    let pool: CertificateStore
    /// The evaluation's options, from which a CRL issuer path's options are derived.
    let options: ValidationOptions
    let signatures: SignatureChecker
    let budget: BudgetMeter
    let revocationInputs: RevocationInputs
    let maximumIntermediates: Int
    /// Outcomes of CRL issuer path validations, per (signer, anchor), within one evaluation.
    private var validatedPaths: [PathKey: String?] = [:]

    private struct PathKey: Hashable {
        let signer: Certificate
        let anchor: Certificate
    }

    init(pool: CertificateStore, options: ValidationOptions, signatures: SignatureChecker, budget: BudgetMeter,
         revocationInputs: RevocationInputs, maximumIntermediates: Int) {
        self.pool = pool
        self.options = options
        self.signatures = signatures
        self.budget = budget
        self.revocationInputs = revocationInputs
        self.maximumIntermediates = maximumIntermediates
    }

    /// What came of looking for `crl`'s signer.
    enum Outcome {
        /// This certificate's key signed the CRL and is validated for the CRL issuer.
        case signer(Certificate)
        /// No certificate we hold carries the CRL's key under the CRL issuer's name: the CRL
        /// cannot be verified, so it is no information.
        case noCandidate(String)
        /// A candidate key exists but the CRL or the candidate fails its checks.
        case invalid(String)
    }

    /// The validated signer of `crl` for the certificate at `index` of the complete `chain` (leaf
    /// first, anchor last). `signers` is nil inside a CRL issuer's own path validation: then only
    /// keys on that path qualify.
    static func find(for crl: CertificateRevocationList, chain: [Certificate], index: Int, checker: RevocationChecker,
                     signers: CRLSigners?) -> Outcome {
        var problems: [String] = []
        var tried: Set<Certificate> = []
        for position in index..<chain.count {
            let candidate = chain[position]
            guard candidate.subject == crl.issuer, keyIdentifiersAgree(crl, candidate) else { continue }
            tried.insert(candidate)
            if let problem = signatureProblem(crl, signer: candidate, checker: checker) {
                problems.append(problem)
            } else {
                return .signer(candidate)
            }
        }
        if let signers, let anchor = chain.last {
            for candidate in signers.pool.certificates(withSubject: crl.issuer)
            where !tried.contains(candidate) && keyIdentifiersAgree(crl, candidate) {
                tried.insert(candidate)
                if let problem = signatureProblem(crl, signer: candidate, checker: checker) {
                    problems.append(problem)
                } else if let problem = signers.pathProblem(signer: candidate, anchor: anchor) {
                    problems.append("CRL signer \(candidate.subject) has no valid path to the trust anchor: \(problem)")
                } else {
                    return .signer(candidate)
                }
            }
        }
        if tried.isEmpty {
            let keyID = crl.authorityKeyIdentifier?.keyIdentifier.map { " with key identifier " + Certificate.hex($0) } ?? ""
            return .noCandidate("no certificate of \(crl.issuer)\(keyID) to verify it with (RFC 5280 §6.3.3 (f))")
        }
        return .invalid(problems.joined(separator: "; "))
    }

    /// The CRL's authorityKeyIdentifier names the candidate's key, when both say (RFC 5280 §5.2.1).
    private static func keyIdentifiersAgree(_ crl: CertificateRevocationList, _ candidate: Certificate) -> Bool {
        guard let aki = crl.authorityKeyIdentifier?.keyIdentifier,
              let ski = candidate.extensions.subjectKeyID else { return true }
        return ByteComparison.equal(aki, ski)
    }

    /// §6.3.3 (f), (g): the signer may sign CRLs (keyUsage cRLSign when keyUsage is present,
    /// RFC 5280 §4.2.1.3) and its key verifies the CRL's signature.
    private static func signatureProblem(_ crl: CertificateRevocationList, signer: Certificate, checker: RevocationChecker) -> String? {
        if let usage = signer.extensions.keyUsage, !usage.contains(.cRLSign) {
            return "\(signer.subject)'s keyUsage lacks cRLSign"
        }
        if let problem = checker.verify(signature: crl.signature, over: crl.tbsBytes, algorithm: crl.signatureAlgorithm, signer: signer) {
            return "signature not made by \(signer.subject)'s key: \(problem)"
        }
        return nil
    }

    /// Why `signer` has no valid path to `anchor` (nil when it has one): RFC 5280 §6.1 validation
    /// under the RFC 5280 rules (plus the anchor constraints the evaluation enforces), at the same
    /// time, with the same revocation options, for no particular purpose or name.
    private func pathProblem(signer: Certificate, anchor: Certificate) -> String? {
        let key = PathKey(signer: signer, anchor: anchor)
        if let known = validatedPaths[key] { return known }
        var pathOptions = ValidationOptions(verifyTime: options.verifyTime, profile: .rfc5280, signaturePolicy: options.signaturePolicy)
        pathOptions.rules = TrustProfile.rfc5280.rules.union(ProfileRuleSet(ValidationOptions.anchorConstraintRules.filter(options.rules.contains)))
        pathOptions.revocation = options.revocation
        let validator = PathValidator(options: pathOptions, signatures: signatures, budget: budget)
        validator.revocationInputs = revocationInputs
        // No `crlSigners`: a CRL consulted on this path must be signed by a key on this path.
        var anchors = CertificateStore()
        anchors.insert(anchor)
        var builder = PathBuilder(anchors: anchors, intermediates: pool, maximumIntermediates: maximumIntermediates, validator: validator)
        let result = builder.build(from: signer)
        let problem: String?
        if result.validChain != nil {
            problem = nil
        } else {
            let failures = result.bestFailedAttempt?.failures ?? []
            problem = failures.first.map(\.description) ?? "no path"
        }
        validatedPaths[key] = problem
        return problem
    }
}
