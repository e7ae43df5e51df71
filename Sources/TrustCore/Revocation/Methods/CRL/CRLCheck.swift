import TrustCrypto
import TrustDER
import TrustX509

/// CRL processing for one certificate of a complete chain: RFC 5280 §6.3.3.
///
/// For each of the certificate's distribution points (or the implicit one of its issuer), complete
/// CRLs are consulted, newest first, while some reason is still uncovered: a CRL counts only if it
/// covers the certificate (§6.3.3 (b): issuer or indirect cRLIssuer, distribution point, kind of
/// certificate), adds a reason not yet covered ((d), (e)), is fresh ((a)), sound, and signed by a
/// validated key of its issuer ((f), (g), ``CRLSigners``). Its newest applicable delta CRL is
/// consulted first ((c), (h), (i)). The certificate is good only when the CRLs used cover every
/// reason; a CRL that does not cover it is never evidence of anything. Every in-scope CRL the
/// caller supplied has its integrity checked, even one (e) makes redundant: a broken one fails closed.
enum CRLCheck {
    /// CRL extensions we process; any other critical one makes the CRL unusable (RFC 5280 §5.2).
    static let understood: Set<ASN1ObjectIdentifier> = [
        OID.authorityKeyIdentifier, OID.crlNumber, OID.deltaCRLIndicator, OID.issuingDistributionPoint,
        OID.freshestCRL, OID.authorityInfoAccess,
    ]

    /// The status of the certificate at `index` of the complete `chain` (leaf first, anchor last).
    static func status(
        of chain: [Certificate], at index: Int,
        crls: [(CertificateRevocationList, RevocationSource)], checker: RevocationChecker
    ) throws(BudgetExhausted) -> RevocationCheckOutcome {
        let certificate = chain[index]
        var outcome = RevocationCheckOutcome()
        // Newest first (§6.3.3 (a): the current CRL), input order among equals.
        let completes = crls.indices.filter { !crls[$0].0.isDelta }.sorted { lhs, rhs in
            let (a, b) = (crls[lhs].0.crlNumber, crls[rhs].0.crlNumber)
            if compareNumbers(b, a) { return true }
            return !compareNumbers(a, b) && lhs < rhs
        }
        var reasonsMask: RevocationReasons = []
        var evidence: RevocationSource?
        var signers: [Int: Certificate] = [:] // CRLs whose signer was found, by position
        var unusable: Set<Int> = [] // judged unusable once, not again for the next point

        for point in CRLScope.points(of: certificate) {
            for position in completes where !unusable.contains(position) {
                let (crl, source) = crls[position]
                let interim: RevocationReasons
                switch CRLScope.coverage(of: crl, for: certificate, at: point) {
                case .failure(.otherIssuer): continue
                case let .failure(reason):
                    outcome.notes.append(.crlNotUsed(source: source, issuer: crl.issuer, delta: false, reason: .outOfScope(reason)))
                    continue
                case let .success(reasons): interim = reasons
                }
                // (e): only a CRL that covers a reason not yet covered can change the answer. A CRL the
                // caller supplied is still checked: a broken one in their data fails closed, whatever
                // else proves (docs/revocation.md).
                let adds = !interim.subtracting(reasonsMask).isEmpty
                if !adds && source.isFetched { continue }
                // (f), (g) before freshness: a tampered supplied CRL is reported even when stale.
                let signer: Certificate
                if let known = signers[position] {
                    signer = known
                } else if let found = try usableSigner(crl, source: source, chain: chain, index: index, checker: checker, outcome: &outcome) {
                    signers[position] = found
                    signer = found
                } else {
                    unusable.insert(position)
                    continue
                }
                guard adds else { continue }
                if let stale = checker.freshnessProblem(thisUpdate: crl.thisUpdate, nextUpdate: crl.nextUpdate, maximumAgeWithoutNext: nil) {
                    outcome.notes.append(.crlNotUsed(source: source, issuer: crl.issuer, delta: false, reason: .notFresh(stale)))
                    unusable.insert(position)
                    continue
                }
                // (c), (h), (i): the newest delta for this CRL speaks first; removeFromCRL there
                // undoes the complete CRL's hold (k).
                let delta = try applicableDelta(to: crl, signer: signer, crls: crls, checker: checker, outcome: &outcome)
                if let (deltaCRL, deltaSource) = delta,
                    let entry = deltaCRL.entry(forSerialNumber: certificate.serialNumber, issuedBy: certificate.issuer)
                {
                    if entry.reason != .removeFromCRL {
                        outcome.status = .revoked(source: deltaSource, time: entry.revocationDate, reason: entry.reason)
                        return finished(outcome)
                    }
                } else if let entry = crl.entry(forSerialNumber: certificate.serialNumber, issuedBy: certificate.issuer),
                    entry.reason != .removeFromCRL
                {
                    // (j)
                    outcome.status = .revoked(source: source, time: entry.revocationDate, reason: entry.reason)
                    return finished(outcome)
                }
                // (l)
                reasonsMask.formUnion(interim)
                evidence = delta?.1 ?? source
            }
        }
        if reasonsMask == .all, let evidence {
            outcome.status = .good(source: evidence)
        } else if !reasonsMask.isEmpty {
            outcome.notes.append(.reasonsNotCovered(reasonsMask))
        } else if crls.contains(where: { $0.0.isDelta && $0.0.issuer == certificate.issuer }) {
            outcome.notes.append(.deltaCRLWithoutBase)
        }
        return finished(outcome)
    }

    /// Notes without repeats (a CRL can be out of scope for several distribution points): notes that
    /// read the same are one, as people read them (two spellings of one issuer name stay two).
    private static func finished(_ outcome: RevocationCheckOutcome) -> RevocationCheckOutcome {
        var seen: Set<String> = []
        var result = outcome
        result.notes = outcome.notes.filter { seen.insert($0.description).inserted }
        return result
    }

    /// The validated signer of `crl` (§6.3.3 (f), (g)) when the CRL is sound; otherwise records why
    /// not — a supplied CRL that fails its checks fails closed, a fetched one is a note (it came
    /// over plain HTTP: anyone on the path could have sent junk).
    private static func usableSigner(
        _ crl: CertificateRevocationList, source: RevocationSource, chain: [Certificate], index: Int,
        checker: RevocationChecker, outcome: inout RevocationCheckOutcome
    ) throws(BudgetExhausted) -> Certificate? {
        let problem: CRLProblem
        if let defect = integrityProblem(crl) {
            problem = defect
        } else {
            switch try CRLSigners.find(for: crl, chain: chain, index: index, checker: checker, signers: checker.crlSigners) {
            case let .signer(signer):
                return signer
            case let .noCandidate(reason):
                outcome.notes.append(.crlNotUsed(source: source, issuer: crl.issuer, delta: false, reason: reason))
                return nil
            case let .invalid(problems):
                problem = .signersInvalid(problems)
            }
        }
        if source.isFetched {
            outcome.notes.append(.fetchedCRLIgnored(source: source, delta: false, problem: problem))
        } else {
            outcome.integrityProblems.append(.suppliedCRLInvalid(source: source, issuer: crl.issuer, delta: false, problem: problem))
        }
        return nil
    }

    /// §6.3.3 (c), (h): the newest delta CRL for `base` — same issuer and scope, based on a CRL no
    /// newer than `base`, itself newer, fresh, sound and signed by `signer` (RFC 5280 §5.2.4).
    private static func applicableDelta(
        to base: CertificateRevocationList, signer: Certificate,
        crls: [(CertificateRevocationList, RevocationSource)],
        checker: RevocationChecker, outcome: inout RevocationCheckOutcome
    )
        throws(BudgetExhausted) -> (CertificateRevocationList, RevocationSource)?
    {
        let candidates = crls.filter { delta, _ in
            guard let baseNumber = delta.deltaCRLIndicator else { return false }
            return delta.issuer == base.issuer && delta.issuingDistributionPoint == base.issuingDistributionPoint
                && !compareNumbers(base.crlNumber, baseNumber) && compareNumbers(base.crlNumber, delta.crlNumber)
        }.sorted { compareNumbers($1.0.crlNumber, $0.0.crlNumber) }
        for (delta, source) in candidates {
            var problem = integrityProblem(delta)
            if problem == nil {
                problem = try checker.verify(
                    signature: delta.signature, over: delta.tbsBytes, algorithm: delta.signatureAlgorithm,
                    signer: signer
                ).map(CRLProblem.deltaNotSignedByCompleteCRLKey)
            }
            guard let problem else {
                if let stale = checker.freshnessProblem(thisUpdate: delta.thisUpdate, nextUpdate: delta.nextUpdate, maximumAgeWithoutNext: nil) {
                    outcome.notes.append(.crlNotUsed(source: source, issuer: delta.issuer, delta: true, reason: .notFresh(stale)))
                    continue
                }
                return (delta, source)
            }
            if source.isFetched {
                outcome.notes.append(.fetchedCRLIgnored(source: source, delta: true, problem: problem))
            } else {
                outcome.integrityProblems.append(.suppliedCRLInvalid(source: source, issuer: delta.issuer, delta: true, problem: problem))
            }
        }
        return nil
    }

    /// Whether a fetched `crl` may be kept as a CRL for `certificate`: issued under its issuer's
    /// name, sound, and signed by the issuer's key. CRLs signed by another key of the issuer are
    /// still used by the evaluation that fetched them (its validator finds their signer's path);
    /// they are not kept. Why one is not kept is told when the evaluation consults it (a note).
    static func verifies(
        _ crl: CertificateRevocationList, certificate: Certificate, issuer: Certificate,
        checker: RevocationChecker
    ) throws(BudgetExhausted) -> Bool {
        guard crl.issuer == certificate.issuer, integrityProblem(crl) == nil else { return false }
        if case .signer = try CRLSigners.find(for: crl, chain: [issuer], index: 0, checker: checker, signers: nil) { return true }
        return false
    }

    /// Checks of the CRL itself, before any signature: its semantic defects, critical extensions,
    /// cRLNumber and version.
    static func integrityProblem(_ crl: CertificateRevocationList) -> CRLProblem? {
        if let defect = crl.semanticDefects.first { return .defect(defect) }
        if let unknown = crl.extensions.first(where: { $0.isCritical && !understood.contains($0.oid) }) {
            return .unhandledCriticalExtension(name: unknown.name)
        }
        // RFC 5280 §5.2.3: conforming CRL issuers MUST include a non-critical cRLNumber.
        guard let number = crl.extensions.first(where: { $0.oid == OID.crlNumber }) else { return .missingCRLNumber }
        if number.isCritical { return .criticalCRLNumber }
        if crl.version != 2 { return .notVersion2 }
        return nil
    }

    /// Orders INTEGER content octets numerically (nil first); true when lhs < rhs. CRL numbers are
    /// non-negative (RFC 5280 §5.2.3), so a leading 00 is only a sign octet.
    static func compareNumbers(_ lhs: ArraySlice<UInt8>?, _ rhs: ArraySlice<UInt8>?) -> Bool {
        guard let rhs else { return false }
        guard let lhs else { return true }
        let a = lhs.drop { $0 == 0 }, b = rhs.drop { $0 == 0 }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}
