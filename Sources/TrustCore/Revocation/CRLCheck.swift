import TrustCrypto
import TrustDER
import TrustX509

/// CRL processing for one certificate (RFC 5280 §6.3.3, simplified to complete and delta CRLs
/// issued by the certificate's issuer; indirect CRLs are not used).
enum CRLCheck {
    struct Outcome {
        var status: RevocationStatus?
        var notes: [String] = []
        /// Problems with CRLs that claim to cover the certificate: bad signature, wrong key, malformed.
        var integrityProblems: [String] = []
    }

    /// CRL extensions we process; any other critical one makes the CRL unusable (RFC 5280 §5.2).
    static let understood: Set<ASN1ObjectIdentifier> = [
        OID.authorityKeyIdentifier, OID.crlNumber, OID.deltaCRLIndicator, OID.issuingDistributionPoint,
        OID.freshestCRL, OID.authorityInfoAccess,
    ]

    static func status(of certificate: Certificate, issuer: Certificate,
                       crls: [(CertificateRevocationList, RevocationSource)], checker: RevocationChecker) -> Outcome {
        var outcome = Outcome()
        var bases: [(CertificateRevocationList, RevocationSource)] = []
        var deltas: [(CertificateRevocationList, RevocationSource)] = []
        for (crl, source) in crls where crl.issuer == certificate.issuer {
            if let problem = keyMismatch(crl, issuer: issuer) {
                outcome.notes.append("\(source) \(problem)")
                continue
            }
            if let problem = integrityProblem(crl, issuer: issuer, checker: checker) {
                // A fetched CRL travelled over plain HTTP: failing its checks makes it no information
                // (anyone on the path can send junk). A CRL the caller supplied fails closed.
                if source.isFetched {
                    outcome.notes.append("\(source) ignored: \(problem)")
                } else {
                    outcome.integrityProblems.append("\(source) from \(crl.issuer): \(problem)")
                }
                continue
            }
            if let stale = checker.isFresh(thisUpdate: crl.thisUpdate, nextUpdate: crl.nextUpdate, maximumAgeWithoutNext: nil) {
                outcome.notes.append("\(source) not used: \(stale)")
                continue
            }
            if let scope = scopeMismatch(crl, certificate: certificate) {
                outcome.notes.append("\(source) not used: \(scope)")
                continue
            }
            if crl.isDelta { deltas.append((crl, source)) } else { bases.append((crl, source)) }
        }
        guard let (base, baseSource) = bases.max(by: { compareNumbers($0.0.crlNumber, $1.0.crlNumber) }) else {
            if !deltas.isEmpty { outcome.notes.append("delta CRL without a usable base CRL") }
            return outcome
        }
        // Delta CRLs apply to a base whose number is at least the delta's base number (§5.2.4).
        let applicableDeltas = deltas.filter { delta in
            guard let baseNumber = delta.0.deltaCRLIndicator else { return false }
            return !compareNumbers(base.crlNumber, baseNumber) && compareNumbers(base.crlNumber, delta.0.crlNumber)
        }
        if let (delta, deltaSource) = applicableDeltas.max(by: { compareNumbers($0.0.crlNumber, $1.0.crlNumber) }),
           let entry = delta.entry(forSerialNumber: certificate.serialNumber) {
            if entry.reason == .removeFromCRL {
                outcome.status = .good(source: deltaSource)
            } else {
                outcome.status = .revoked(source: deltaSource, time: entry.revocationDate, reason: entry.reason)
            }
            return outcome
        }
        if let entry = base.entry(forSerialNumber: certificate.serialNumber), entry.reason != .removeFromCRL {
            outcome.status = .revoked(source: baseSource, time: entry.revocationDate, reason: entry.reason)
        } else if base.issuingDistributionPoint?.onlySomeReasons != nil {
            outcome.notes.append("\(baseSource) covers only some reasons")
        } else {
            outcome.status = .good(source: baseSource)
        }
        return outcome
    }

    /// Whether a fetched `crl` may be kept as the CRL of `certificate`'s issuer: issued under the
    /// issuer's name and key and passing its integrity checks (nil), or why not.
    static func verificationProblem(_ crl: CertificateRevocationList, certificate: Certificate, issuer: Certificate,
                                    checker: RevocationChecker) -> String? {
        guard crl.issuer == certificate.issuer else { return "issued by \(crl.issuer), not \(certificate.issuer)" }
        return keyMismatch(crl, issuer: issuer) ?? integrityProblem(crl, issuer: issuer, checker: checker)
    }

    /// A different key with the same name is not this issuer's CRL (RFC 5280 §5.2.1 AKI).
    static func keyMismatch(_ crl: CertificateRevocationList, issuer: Certificate) -> String? {
        if let aki = crl.authorityKeyIdentifier?.keyIdentifier, let ski = issuer.extensions.subjectKeyIdentifier?.keyIdentifier,
           !aki.elementsEqual(ski) {
            return "is for another key of \(crl.issuer)"
        }
        return nil
    }

    /// Integrity and profile checks: signature by the issuer's key, cRLSign, CRL number, critical extensions.
    static func integrityProblem(_ crl: CertificateRevocationList, issuer: Certificate, checker: RevocationChecker) -> String? {
        // RFC 5280 §4.2.1.3: a CRL issuer whose keyUsage is present must assert cRLSign.
        if let usage = issuer.extensions.keyUsage, !usage.contains(.cRLSign) {
            return "issuer's keyUsage lacks cRLSign"
        }
        if let unknown = crl.extensions.first(where: { $0.isCritical && !understood.contains($0.oid) }) {
            return "unhandled critical CRL extension \(unknown.name)"
        }
        // RFC 5280 §5.2.3: conforming CRL issuers MUST include a non-critical cRLNumber.
        guard let number = crl.extensions.first(where: { $0.oid == OID.crlNumber }) else { return "missing cRLNumber (RFC 5280 §5.2.3)" }
        if number.isCritical { return "cRLNumber must not be critical (RFC 5280 §5.2.3)" }
        if crl.version != 2 { return "CRL is not v2" }
        if let problem = checker.verify(signature: crl.signature, over: crl.tbsBytes, algorithm: crl.signatureAlgorithm, signer: issuer) {
            return "signature not made by the issuer's key: \(problem)"
        }
        return nil
    }

    /// RFC 5280 §6.3.3 (b): the issuingDistributionPoint must cover the certificate.
    static func scopeMismatch(_ crl: CertificateRevocationList, certificate: Certificate) -> String? {
        guard let idp = crl.issuingDistributionPoint else { return nil }
        if idp.indirectCRL { return "indirect CRLs are not supported" }
        if idp.onlyContainsAttributeCerts { return "covers attribute certificates only" }
        if idp.onlyContainsUserCerts && certificate.isCA { return "covers end-entity certificates only" }
        if idp.onlyContainsCACerts && !certificate.isCA { return "covers CA certificates only" }
        if case let .fullName(names)? = idp.distributionPoint {
            let crlURIs = Set(names.compactMap { if case let .uniformResourceIdentifier(u) = $0 { u } else { nil } })
            let certificateURIs = Set(certificate.extensions.crlDistributionPoints?.points.flatMap(\.uris) ?? [])
            if crlURIs.isDisjoint(with: certificateURIs) {
                return "distribution point \(crlURIs.sorted().joined(separator: ", ")) is not one of the certificate's"
            }
        }
        return nil
    }

    /// Orders INTEGER content octets numerically (nil first); true when lhs < rhs.
    static func compareNumbers(_ lhs: ArraySlice<UInt8>?, _ rhs: ArraySlice<UInt8>?) -> Bool {
        guard let rhs else { return false }
        guard let lhs else { return true }
        let a = lhs.drop { $0 == 0 }, b = rhs.drop { $0 == 0 }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}
