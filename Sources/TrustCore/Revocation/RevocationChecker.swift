import TrustCrypto
import TrustDER
import TrustX509

/// Decides the revocation status of every non-anchor certificate of a complete chain from the
/// documents at hand (CRLs: RFC 5280 §6.3; OCSP responses: RFC 6960 §3.2), asking each method the
/// ``RevocationOptions`` flags select, in their order (`RevocationMethodRegistry`). It never
/// touches the network.
struct RevocationChecker {
    let options: RevocationOptions
    let inputs: RevocationInputs
    let time: DERTime
    let signatures: SignatureChecker
    /// The evaluation's work allowance: every CRL and OCSP signature verification draws from it
    /// (running out throws, and ends the evaluation).
    let budget: BudgetMeter
    /// Where CRL-signing certificates off the chain are found and validated (RFC 5280 §6.3.3 (f));
    /// nil: only keys on the chain itself may sign its CRLs (inside a CRL issuer's own path
    /// validation, and for checks of fetched documents).
    var crlSigners: CRLSigners?
    /// Whether `.requirePositiveResponse` asks proof of every non-anchor certificate (the RFC 5280
    /// profiles: ``ProfileRule/revocationProofForEveryCertificate``) or of the leaf only, as Apple's
    /// `SecPVCPathCheckRevocationResponsesReceived` does (index 0).
    var requiresProofForEveryCertificate = false
    /// Clock skew tolerated on OCSP and CRL times (RFC 6960 §4.2.2.1 leaves it to local policy).
    static let clockSkew: Int64 = 5 * 60
    /// Without nextUpdate, an OCSP response is treated as fresh for this long after thisUpdate.
    static let ocspMaximumAgeWithoutNextUpdate: Int64 = 4 * 24 * 3600

    /// Statuses for `chain` (leaf first, anchor last) and the failures they imply.
    func check(_ chain: [Certificate]) throws(BudgetExhausted) -> (statuses: [CertificateRevocationStatus], failures: [TrustFailure]) {
        var statuses: [CertificateRevocationStatus] = []
        var failures: [TrustFailure] = []
        for index in chain.indices {
            let certificate = chain[index]
            guard index + 1 < chain.count else {
                statuses.append(CertificateRevocationStatus(index: index, subject: certificate.subject.description, status: .notChecked))
                continue
            }
            var notes: [RevocationProblem] = []
            var found: RevocationStatus?
            var integrityProblems: [RevocationProblem] = []
            for method in options.methodsInOrder {
                let outcome = try method.status(of: chain, at: index, checker: self)
                notes.append(contentsOf: outcome.notes)
                integrityProblems.append(contentsOf: outcome.integrityProblems)
                if let status = outcome.status { found = merge(found, status) }
            }
            let fetchFailures = fetchFailures(of: certificate)
            let noteTexts = notes.map(\.description)
            let status = found ?? .unknown(notes: noteTexts + fetchFailures.map(\.description))
            statuses.append(
                CertificateRevocationStatus(
                    index: index, subject: certificate.subject.description, status: status,
                    notes: noteTexts, fetchFailures: fetchFailures))
            switch status {
            case let .revoked(source, revokedAt, reason):
                failures.append(TrustFailure(.revoked(source: source, time: revokedAt, reason: reason), certificate: certificate, index: index))
            case .unknown:
                // A supplied CRL that claims to cover the certificate but fails integrity checks is never
                // silently ignored (fail closed). Fetched ones never get here: they are notes (CRLCheck).
                for problem in integrityProblems {
                    failures.append(TrustFailure(.revocationInformationInvalid(problem), certificate: certificate, index: index))
                }
                if options.contains(.requirePositiveResponse) && (index == 0 || requiresProofForEveryCertificate) {
                    failures.append(
                        TrustFailure(
                            .revocationUnavailable(notes: notes, fetchFailures: fetchFailures),
                            certificate: certificate, index: index))
                }
            case .good, .notChecked:
                // Proof of good from another source does not excuse a supplied CRL that fails its
                // integrity checks (docs/revocation.md: the caller's own data fails closed).
                for problem in integrityProblems {
                    failures.append(TrustFailure(.revocationInformationInvalid(problem), certificate: certificate, index: index))
                }
            }
        }
        return (statuses, failures)
    }

    /// The recorded fetch failures of `certificate`'s own URLs, for the methods in use.
    private func fetchFailures(of certificate: Certificate) -> [FetchFailure] {
        guard !inputs.fetchFailures.isEmpty else { return [] }
        var urls: [RevocationMethod: Set<String>] = [:]
        for method in options.methodsInOrder { urls[method.method] = Set(method.urls(of: certificate)) }
        return inputs.fetchFailures.filter { failure in
            guard case let .revocation(method) = failure.purpose else { return false }
            return urls[method]?.contains(failure.url) ?? false
        }
    }

    /// Revoked from any valid source wins over good.
    private func merge(_ current: RevocationStatus?, _ new: RevocationStatus) -> RevocationStatus {
        if case .revoked = current { return current ?? new }
        if case .revoked = new { return new }
        return current ?? new
    }

    /// Why `signer`'s key did not make `signature` over `bytes`, or nil when it did. Each check is
    /// one of the evaluation's revocation checks.
    func verify(
        signature: ArraySlice<UInt8>, over bytes: ArraySlice<UInt8>, algorithm: () throws(SignatureError) -> SignatureAlgorithm,
        signer: Certificate
    ) throws(BudgetExhausted) -> SignatureError? {
        try budget.spend(.revocationChecks)
        do throws(SignatureError) {
            let key = try signer.verificationKey()
            try SignatureVerifier.verify(signature: signature, over: bytes, algorithm: try algorithm(), key: key, policy: signatures.policy)
            return nil
        } catch {
            return error
        }
    }

    /// Why a CRL or OCSP response with these times is not fresh at the verify date, or nil when it is.
    func freshnessProblem(thisUpdate: DERTime, nextUpdate: DERTime?, maximumAgeWithoutNext: Int64?) -> RevocationFreshnessProblem? {
        let now = time.secondsSince1970
        if thisUpdate.secondsSince1970 > now + RevocationChecker.clockSkew { return .thisUpdateInFuture(thisUpdate: thisUpdate) }
        if let next = nextUpdate {
            if now > next.secondsSince1970 + RevocationChecker.clockSkew { return .nextUpdatePassed(nextUpdate: next) }
        } else if let maximumAge = maximumAgeWithoutNext, now - thisUpdate.secondsSince1970 > maximumAge {
            return .tooOldWithoutNextUpdate(thisUpdate: thisUpdate)
        } else if maximumAgeWithoutNext == nil {
            return .noNextUpdate
        }
        return nil
    }
}
