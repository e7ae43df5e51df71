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
/// evaluation's one ``BudgetMeter``. The nested validation is the evaluation's
/// (``CRLSignerPathValidating``): revocation never builds paths itself.
final class CRLSigners {
    /// Where a separate CRL-signing certificate may come from: the evaluation's untrusted certificates.
    let pool: CertificateStore
    /// Who validates a candidate signer's path: the evaluation (``CRLSignerPaths``).
    let paths: any CRLSignerPathValidating

    init(pool: CertificateStore, paths: any CRLSignerPathValidating) {
        self.pool = pool
        self.paths = paths
    }

    /// What came of looking for `crl`'s signer.
    enum Outcome {
        /// This certificate's key signed the CRL and is validated for the CRL issuer.
        case signer(Certificate)
        /// No certificate we hold carries the CRL's key under the CRL issuer's name: the CRL
        /// cannot be verified, so it is no information.
        case noCandidate(CRLNotUsedReason)
        /// Candidate keys exist but each fails its checks, for its reason.
        case invalid([CRLSignerProblem])
    }

    /// The validated signer of `crl` for the certificate at `index` of the complete `chain` (leaf
    /// first, anchor last). `signers` is nil inside a CRL issuer's own path validation: then only
    /// keys on that path qualify.
    static func find(
        for crl: CertificateRevocationList, chain: [Certificate], index: Int, checker: RevocationChecker,
        signers: CRLSigners?
    ) throws(BudgetExhausted) -> Outcome {
        var problems: [CRLSignerProblem] = []
        var tried: Set<Certificate> = []
        for position in index..<chain.count {
            let candidate = chain[position]
            guard candidate.subject == crl.issuer, keyIdentifiersAgree(crl, candidate) else { continue }
            tried.insert(candidate)
            if let problem = try signatureProblem(crl, signer: candidate, checker: checker) {
                problems.append(problem)
            } else {
                return .signer(candidate)
            }
        }
        if let signers, let anchor = chain.last {
            for candidate in signers.pool.certificates(withSubject: crl.issuer)
            where !tried.contains(candidate) && keyIdentifiersAgree(crl, candidate) {
                tried.insert(candidate)
                if let problem = try signatureProblem(crl, signer: candidate, checker: checker) {
                    problems.append(problem)
                } else if case let .invalid(firstFailure) = try signers.paths.pathOutcome(signer: candidate, anchor: anchor) {
                    problems.append(.noValidPath(signer: candidate.subject, firstFailure: firstFailure))
                } else {
                    return .signer(candidate)
                }
            }
        }
        if tried.isEmpty {
            return .noCandidate(.noSignerCandidate(issuer: crl.issuer, keyIdentifier: crl.authorityKeyIdentifier?.keyIdentifier.map(Array.init)))
        }
        return .invalid(problems)
    }

    /// The CRL's authorityKeyIdentifier names the candidate's key, when both say (RFC 5280 §5.2.1).
    private static func keyIdentifiersAgree(_ crl: CertificateRevocationList, _ candidate: Certificate) -> Bool {
        guard let aki = crl.authorityKeyIdentifier?.keyIdentifier,
            let ski = candidate.extensions.subjectKeyID
        else { return true }
        return ByteComparison.equal(aki, ski)
    }

    /// §6.3.3 (f), (g): the signer may sign CRLs (keyUsage cRLSign when keyUsage is present,
    /// RFC 5280 §4.2.1.3) and its key verifies the CRL's signature.
    private static func signatureProblem(_ crl: CertificateRevocationList, signer: Certificate, checker: RevocationChecker)
        throws(BudgetExhausted) -> CRLSignerProblem?
    {
        if let usage = signer.extensions.keyUsage, !usage.contains(.cRLSign) {
            return .keyUsageLacksCRLSign(signer: signer.subject)
        }
        if let error = try checker.verify(signature: crl.signature, over: crl.tbsBytes, algorithm: crl.signatureAlgorithm, signer: signer) {
            return .signatureNotVerified(signer: signer.subject, error: error)
        }
        return nil
    }
}
