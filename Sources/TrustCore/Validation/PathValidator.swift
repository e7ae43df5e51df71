import TrustCrypto
import TrustDER
import TrustX509

/// Decides whether a proposed chain (leaf first, trust anchor last) is valid: RFC 5280 §6.1
/// basic path validation plus, when asked, the web-PKI profile. Every failure names the
/// certificate that caused it.
///
/// The validator is a sequence of independent rule functions over the whole chain, so that
/// certificate-policy processing (RFC 5280 §6.1.3 (d)–(f)) can be added as one more pass.
struct PathValidator {
    let options: ValidationOptions
    let signatures: SignatureChecker
    var revocationInputs = RevocationInputs()

    /// The revocation checker for complete chains, when a revocation policy is in force.
    var revocationChecker: RevocationChecker? {
        options.revocation.map { RevocationChecker(options: $0, inputs: revocationInputs, time: options.verifyTime, signatures: signatures) }
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
        func fail(_ reason: TrustFailureReason, _ index: Int) {
            failures.append(TrustFailure(reason, certificate: chain[index], index: index))
        }
        let anchorIndex = isComplete ? chain.count - 1 : -1

        for (index, certificate) in chain.enumerated() {
            checkValidity(certificate).map { fail($0, index) }
            for reason in checkCriticalExtensions(certificate) { fail(reason, index) }
            if index + 1 < chain.count, let reason = signatures.failure(child: certificate, issuer: chain[index + 1]) {
                fail(reason, index)
            }
            if index > 0 {
                for reason in checkIssuer(chain, at: index, isAnchor: index == anchorIndex) { fail(reason, index) }
            }
            if options.webPKIProfile {
                for reason in WebPKIProfile.violations(of: certificate, at: index, in: chain, isAnchor: index == anchorIndex,
                                                                  options: options) {
                    fail(reason, index)
                }
            }
        }
        for reason in checkLeaf(chain[0]) { fail(reason, 0) }
        var budget = options.nameConstraintBudget
        failures.append(contentsOf: NameConstraintChecker.violations(in: chain, budget: &budget))
        // Revocation last, and only for complete chains: an issuer's status is checked with its issuer's key.
        if isComplete, let checker = revocationChecker {
            failures.append(contentsOf: checker.check(chain).failures)
        }
        return failures
    }

    // MARK: - Rules

    /// RFC 5280 §6.1.3 (a)(2): notBefore ≤ time ≤ notAfter.
    func checkValidity(_ certificate: Certificate) -> TrustFailureReason? {
        let now = options.verifyTime.secondsSince1970
        if now < certificate.notBefore.secondsSince1970 { return .notYetValid(notBefore: certificate.notBefore) }
        if now > certificate.notAfter.secondsSince1970 { return .expired(notAfter: certificate.notAfter) }
        return nil
    }

    /// RFC 5280 §4.2: a critical extension that is not recognised must cause rejection.
    func checkCriticalExtensions(_ certificate: Certificate) -> [TrustFailureReason] {
        certificate.extensions.criticalExtensions(notIn: PathValidator.understoodExtensions)
            .map { .unhandledCriticalExtension(name: $0.name) }
    }

    /// Rules for a certificate that issued the one below it (RFC 5280 §6.1.4).
    func checkIssuer(_ chain: [Certificate], at index: Int, isAnchor: Bool) -> [TrustFailureReason] {
        let certificate = chain[index]
        var reasons: [TrustFailureReason] = []
        // A v1/v2 certificate has no basicConstraints: acceptable only as a trust anchor.
        if certificate.version < 3 {
            if !isAnchor { reasons.append(.versionNotAllowed(version: certificate.version)) }
            return reasons
        }
        // §6.1.4 (k): intermediates must assert cA; anchors are trusted by configuration, but a v3
        // anchor that says it is not a CA is not one.
        if !certificate.isCA { reasons.append(.notCA) }
        // §6.1.4 (n): keyUsage, when present, must allow keyCertSign.
        if let usage = certificate.extensions.keyUsage, !usage.contains(.keyCertSign) {
            reasons.append(.missingKeyCertSign)
        }
        // §6.1.4 (l)/(m): count the non-self-issued intermediates below this CA (the leaf is not counted).
        if let limit = certificate.extensions.basicConstraints?.pathLengthConstraint {
            let below = chain[1..<index].filter { !$0.isSelfIssued }.count
            if below > limit { reasons.append(.pathLengthExceeded(limit: limit)) }
        }
        // EKU chaining (as enforced by Chrome, Mozilla, Go and pyca/cryptography): a CA that carries
        // extendedKeyUsage may only issue for the purposes it lists, or for any purpose when it lists
        // anyExtendedKeyUsage. Anchors included: an anchor restricted to other purposes is not one for this.
        if let purpose = options.purpose, let eku = certificate.extensions.extendedKeyUsage,
           !eku.contains(purpose.oid), !eku.contains(OID.anyExtendedKeyUsage) {
            reasons.append(.extendedKeyUsageIncompatible(purpose: purpose.description))
        }
        return reasons
    }

    /// End-entity rules: purpose (EKU), key usage, and the host name.
    func checkLeaf(_ leaf: Certificate) -> [TrustFailureReason] {
        var reasons: [TrustFailureReason] = []
        if let purpose = options.purpose, let eku = leaf.extensions.extendedKeyUsage {
            // RFC 5280 §4.2.1.12: the purpose must be listed; anyExtendedKeyUsage only outside the web PKI.
            let allowsAny = !options.webPKIProfile && eku.contains(OID.anyExtendedKeyUsage)
            if !eku.contains(purpose.oid) && !allowsAny {
                reasons.append(.extendedKeyUsageIncompatible(purpose: purpose.description))
            }
        }
        if let usage = leaf.extensions.keyUsage {
            let missing = options.requiredLeafKeyUsage.subtracting(usage)
            if !missing.isEmpty { reasons.append(.keyUsageIncompatible("missing \(missing)")) }
        }
        if let identity = options.identity {
            reasons.append(contentsOf: HostnameCheck.failures(leaf, identity: identity, allowsCommonName: options.allowsCommonNameFallback))
        }
        return reasons
    }
}

/// RFC 6125 host-name / IP check of a leaf.
enum HostnameCheck {
    static func failures(_ leaf: Certificate, identity: ServerIdentity, allowsCommonName: Bool) -> [TrustFailureReason] {
        let ips = leaf.ipAddresses.compactMap { IPAddress(bytes: $0) }
        if HostnameMatcher.matches(identity, dnsNames: leaf.dnsNames, ipAddresses: ips) { return [] }
        if allowsCommonName, leaf.extensions.subjectAlternativeNames == nil,
           HostnameMatcher.matchesCommonName(identity, commonNames: leaf.subject.commonNames) {
            return []
        }
        let presented = (leaf.extensions.subjectAlternativeNames ?? []).map(\.description)
        return [.hostnameMismatch(expected: identity.description, presented: presented)]
    }
}
