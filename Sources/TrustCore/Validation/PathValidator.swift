import TrustCrypto
import TrustDER
import TrustX509

/// Decides whether a proposed chain (leaf first, trust anchor last) is valid: RFC 5280 §6.1
/// basic path validation plus, when asked, the web-PKI profile. Every failure names the
/// certificate that caused it.
///
/// The validator is a sequence of independent rule functions over the whole chain, so that
/// certificate-policy processing (RFC 5280 §6.1.3 (d)–(f)) can be added as one more pass.
/// A class: one evaluation's builder, checker and result code share it without copying its state.
final class PathValidator {
    let options: ValidationOptions
    let signatures: SignatureChecker
    var revocationInputs = RevocationInputs()
    /// `options.identity`, prepared once for every chain this validator sees.
    let identity: PreparedIdentity?
    /// The per-certificate verdicts that depend on nothing but the certificate and flags.
    let verdicts: ProfileVerdictCache

    /// A validator for `options`; `identity`, when given, must be `options.identity` prepared.
    init(options: ValidationOptions, signatures: SignatureChecker, identity: PreparedIdentity? = nil,
         verdicts: ProfileVerdictCache = .shared) {
        self.options = options
        self.signatures = signatures
        if let identity, identity.identity == options.identity {
            self.identity = identity
        } else {
            self.identity = options.identity.map(PreparedIdentity.init)
        }
        self.verdicts = verdicts
    }

    /// The revocation checker for complete chains, when a revocation policy is in force.
    var revocationChecker: RevocationChecker? {
        options.revocation.map { RevocationChecker(options: $0, inputs: revocationInputs, time: options.verifyTime, signatures: signatures) }
    }

    /// Revocation results per complete chain, so reporting statuses after validation does not verify
    /// the same CRL and OCSP signatures a second time.
    private var revocationResults: [[Certificate]: (statuses: [CertificateRevocationStatus], failures: [TrustFailure])] = [:]

    /// The revocation statuses and failures of the complete `chain` (computed once per chain), or nil
    /// when no revocation policy is in force.
    func revocation(of chain: [Certificate]) -> (statuses: [CertificateRevocationStatus], failures: [TrustFailure])? {
        if let known = revocationResults[chain] { return known }
        guard let checker = revocationChecker else { return nil }
        let result = checker.check(chain)
        revocationResults[chain] = result
        return result
    }

    /// Extensions this validator processes; any other critical extension is rejected (RFC 5280 §4.2).
    static let understoodExtensions: Set<ASN1ObjectIdentifier> = [
        OID.basicConstraints, OID.keyUsage, OID.extendedKeyUsage, OID.subjectAltName, OID.nameConstraints,
        OID.authorityKeyIdentifier, OID.subjectKeyIdentifier, OID.certificatePolicies, OID.crlDistributionPoints,
        OID.authorityInfoAccess, OID.issuerAltName, OID.policyConstraints, OID.policyMappings, OID.inhibitAnyPolicy,
    ]

    /// Validates `chain`. `isComplete` says whether the last certificate is a trust anchor; for an
    /// incomplete chain the per-certificate rules still run so every problem is reported.
    func validate(_ chain: [Certificate], isComplete: Bool) -> [TrustFailure] {
        guard !chain.isEmpty else { return [TrustFailure(.noCertificates, certificate: nil, index: nil)] }
        var failures: [TrustFailure] = []
        let lastIndex = chain.count - 1
        let anchorIndex = isComplete ? lastIndex : -1

        for index in chain.indices {
            let certificate = chain[index]
            let isAnchor = index == anchorIndex
            for defect in certificate.semanticDefects {
                failures.append(TrustFailure(.certificateDefect(defect), certificate: certificate, index: index))
            }
            if let reason = checkValidity(certificate) {
                failures.append(TrustFailure(reason, certificate: certificate, index: index))
            }
            let verdict = staticVerdict(certificate, at: index, chainCount: chain.count, isAnchor: isAnchor)
            for name in verdict.unhandledCriticalExtensions {
                failures.append(TrustFailure(.unhandledCriticalExtension(name: name), certificate: certificate, index: index))
            }
            if index < lastIndex, let reason = signatures.failure(child: certificate, issuer: chain[index + 1]) {
                failures.append(TrustFailure(reason, certificate: certificate, index: index))
            }
            if index > 0 {
                checkIssuer(chain, at: index, isAnchor: isAnchor) { reason in
                    failures.append(TrustFailure(reason, certificate: certificate, index: index))
                }
            }
            for text in verdict.profileViolations {
                failures.append(TrustFailure(.profileViolation(text), certificate: certificate, index: index))
            }
        }
        let leaf = chain[0]
        checkLeaf(leaf) { reason in failures.append(TrustFailure(reason, certificate: leaf, index: 0)) }
        var budget = options.nameConstraintBudget
        failures.append(contentsOf: NameConstraintChecker.violations(in: chain, budget: &budget))
        // Revocation last, and only for complete chains: an issuer's status is checked with its issuer's key.
        if isComplete, let revocation = revocation(of: chain) {
            failures.append(contentsOf: revocation.failures)
        }
        return failures
    }

    /// The rules that depend only on the certificate and its position: unhandled critical
    /// extensions and, when the web-PKI profile is on, the profile rules. Remembered per
    /// certificate in ``ProfileVerdictCache`` (see there why that cannot change a verdict).
    func staticVerdict(_ certificate: Certificate, at index: Int, chainCount: Int, isAnchor: Bool) -> ProfileVerdictCache.Verdict {
        var flags = ProfileVerdictCache.Flags()
        if options.webPKIProfile {
            flags = WebPKIProfile.flags(of: certificate, at: index, chainCount: chainCount, isAnchor: isAnchor, options: options)
            // Only the leaf rules read the common-name waiver: other positions share one entry.
            if !flags.isLeaf { flags.allowsCommonNameFallback = false }
        }
        // With the profile off, only the critical-extension rule is cached: it reads no flag.
        return verdicts.verdict(for: certificate, flags: flags) {
            let critical = unhandledCriticalExtensions(certificate)
            let profile = flags.webPKIProfile ? WebPKIProfile.violations(of: certificate, flags: flags) : []
            return ProfileVerdictCache.Verdict(unhandledCriticalExtensions: critical, profileViolations: profile)
        }
    }

    // MARK: - Rules

    /// RFC 5280 §6.1.3 (a)(2): notBefore ≤ time ≤ notAfter.
    func checkValidity(_ certificate: Certificate) -> TrustFailureReason? {
        let now = options.verifyTime.secondsSince1970
        if now < certificate.notBefore.secondsSince1970 { return .notYetValid(notBefore: certificate.notBefore) }
        if now > certificate.notAfter.secondsSince1970 { return .expired(notAfter: certificate.notAfter) }
        return nil
    }

    /// RFC 5280 §4.2: a critical extension that is not recognised must cause rejection. The names
    /// of the critical extensions not in ``understoodExtensions``, in encoded order.
    func unhandledCriticalExtensions(_ certificate: Certificate) -> [String] {
        var names: [String] = []
        for ext in certificate.extensions.all where ext.isCritical {
            // Processed kinds are all in `understoodExtensions`; the set decides the rest.
            if ext.kind?.isProcessedByValidator == true || PathValidator.understoodExtensions.contains(ext.oid) { continue }
            names.append(ext.name)
        }
        return names
    }

    /// Rules for a certificate that issued the one below it (RFC 5280 §6.1.4), each broken one
    /// handed to `report` in order.
    func checkIssuer(_ chain: [Certificate], at index: Int, isAnchor: Bool, report: (TrustFailureReason) -> Void) {
        let certificate = chain[index]
        // A v1/v2 certificate has no basicConstraints: acceptable only as a trust anchor.
        let version = certificate.version
        if version < 3 {
            if !isAnchor { report(.versionNotAllowed(version: version)) }
            return
        }
        let extensions = certificate.extensions
        let basicConstraints = extensions.basicConstraints
        // §6.1.4 (k): intermediates must assert cA; anchors are trusted by configuration, but a v3
        // anchor that says it is not a CA is not one.
        if !(basicConstraints?.isCA ?? false) { report(.notCA) }
        // §6.1.4 (n): keyUsage, when present, must allow keyCertSign.
        if let usage = extensions.keyUsage, !usage.contains(.keyCertSign) {
            report(.missingKeyCertSign)
        }
        // §6.1.4 (l)/(m): count the non-self-issued intermediates below this CA (the leaf is not counted).
        if let limit = basicConstraints?.pathLengthConstraint {
            var below = 0
            for position in 1..<max(1, index) where !chain[position].isSelfIssued { below += 1 }
            if below > limit { report(.pathLengthExceeded(limit: limit)) }
        }
        // EKU chaining (as enforced by Chrome, Mozilla, Go and pyca/cryptography): a CA that carries
        // extendedKeyUsage may only issue for the purposes it lists, or for any purpose when it lists
        // anyExtendedKeyUsage. Anchors included: an anchor restricted to other purposes is not one for this.
        if let purpose = options.purpose, let eku = extensions.extendedKeyUsage,
           !eku.contains(purpose.oid), !eku.contains(OID.anyExtendedKeyUsage) {
            report(.extendedKeyUsageIncompatible(purpose: purpose.description))
        }
    }

    /// End-entity rules: purpose (EKU), key usage, and the host name, each broken one handed to
    /// `report` in order.
    func checkLeaf(_ leaf: Certificate, report: (TrustFailureReason) -> Void) {
        let extensions = leaf.extensions
        if let purpose = options.purpose, let eku = extensions.extendedKeyUsage {
            // RFC 5280 §4.2.1.12: the purpose must be listed; anyExtendedKeyUsage only outside the web PKI.
            let allowsAny = !options.webPKIProfile && eku.contains(OID.anyExtendedKeyUsage)
            if !eku.contains(purpose.oid) && !allowsAny {
                report(.extendedKeyUsageIncompatible(purpose: purpose.description))
            }
        }
        if let usage = extensions.keyUsage {
            let missing = options.requiredLeafKeyUsage.subtracting(usage)
            if !missing.isEmpty { report(.keyUsageIncompatible("missing \(missing)")) }
        }
        if let identity {
            if let reason = HostnameCheck.failure(leaf, identity: identity, allowsCommonName: options.allowsCommonNameFallback) {
                report(reason)
            }
        }
    }
}

/// RFC 6125 host-name / IP check of a leaf.
enum HostnameCheck {
    /// The mismatch, or nil when the leaf is valid for `identity`.
    static func failure(_ leaf: Certificate, identity: PreparedIdentity, allowsCommonName: Bool) -> TrustFailureReason? {
        let subjectAlternativeNames = leaf.extensions.subjectAlternativeNames
        if HostnameMatcher.matches(identity, subjectAlternativeNames: subjectAlternativeNames ?? []) { return nil }
        if allowsCommonName, subjectAlternativeNames == nil,
           HostnameMatcher.matchesCommonName(identity.identity, commonNames: leaf.subject.commonNames) {
            return nil
        }
        let presented = (subjectAlternativeNames ?? []).map(\.description)
        return .hostnameMismatch(expected: identity.identity.description, presented: presented)
    }
}
