import TrustCrypto
import TrustDER
import TrustX509

/// Decides whether a proposed chain (leaf first, trust anchor last) is valid: RFC 5280 §6.1
/// basic path validation plus, when asked, the web-PKI profile. Every failure names the
/// certificate that caused it.
///
/// The validator is a sequence of independent rule functions over the whole chain; certificate
/// policy processing (RFC 5280 §6.1.3 (d)–(f), ``PolicyProcessing``) is one more pass.
/// A class: one evaluation's builder, checker and result code share it without copying its state.
final class PathValidator {
    let options: ValidationRequest
    let signatures: SignatureChecker
    /// The evaluation's work allowance, shared with the path builder: it does not reset per path.
    let budget: BudgetMeter
    var revocationInputs = RevocationInputs()
    /// Finds and validates CRL-signing certificates that are not on the chain (RFC 5280 §6.3.3 (f)).
    var crlSigners: CRLSigners?
    /// The system store that says how an anchor is trusted (rules Apple scopes by system,
    /// administrator and caller roots); nil: every anchor is the caller's.
    var rootClassifier: SystemTrustStore?
    /// Certificate Transparency for the chain that validates, when logs are configured (run by the
    /// engine on the chosen chain, after revocation, as trustd runs it on a validated path).
    var transparency: CertificateTransparencyCheck?
    /// The per-certificate verdicts that depend on nothing but the certificate and flags (remembered per chain).
    let verdicts: ProfileVerdictCache

    /// A validator for `options`, with the per-certificate verdicts remembered in `verdicts`.
    init(
        options: consuming ValidationRequest, signatures: SignatureChecker, budget: BudgetMeter,
        verdicts: ProfileVerdictCache = .shared
    ) {
        self.signatures = signatures
        self.budget = budget
        self.verdicts = verdicts
        // Stored last, after its last read: the options move in rather than being copied (a copy
        // retains and later releases every field of them).
        self.options = options
    }

    /// The revocation checker for complete chains, when a revocation policy is in force.
    var revocationChecker: RevocationChecker? {
        options.revocation.map {
            RevocationChecker(
                options: $0, inputs: revocationInputs, time: options.verifyTime, signatures: signatures, budget: budget,
                crlSigners: crlSigners,
                requiresProofForEveryCertificate: options.rules.contains(.revocationProofForEveryCertificate))
        }
    }

    /// Revocation results per complete chain, so reporting statuses after validation does not verify
    /// the same CRL and OCSP signatures a second time.
    private var revocationResults: [[Certificate]: (statuses: [CertificateRevocationStatus], failures: [TrustFailure])] = [:]

    /// The revocation statuses and failures of the complete `chain` (computed once per chain), or nil
    /// when no revocation policy is in force.
    func revocation(of chain: [Certificate]) throws(BudgetExhausted) -> (statuses: [CertificateRevocationStatus], failures: [TrustFailure])? {
        // Without a revocation policy there is nothing to look up (and no chain to compare).
        guard options.revocation != nil else { return nil }
        if let known = revocationResults[chain] { return known }
        guard let checker = revocationChecker else { return nil }
        let result = try checker.check(chain)
        revocationResults[chain] = result
        return result
    }

    /// Policy processing outcomes per complete chain, so the evaluation reports the valid policy set
    /// of the chain it chose without processing it again.
    private let policyOutcomes = PolicyOutcomeMemo()

    /// The policy failure of the complete `chain`, if any (processed once per chain).
    func policyFailure(of chain: [Certificate]) throws(BudgetExhausted) -> TrustFailure? {
        let entry = try policyEntry(of: chain)
        guard !entry.isValid, case let .invalid(failure) = entry.outcome else { return nil }
        return failure
    }

    /// The policies the complete `chain` is valid for, or nil when policy processing failed.
    func validPolicies(of chain: [Certificate]) throws(BudgetExhausted) -> ValidPolicySet? {
        if case let .valid(policies) = try policyEntry(of: chain).outcome { return policies }
        return nil
    }

    /// RFC 5280 §6.1 certificate policy processing of the complete `chain` (computed once per chain).
    private func policyEntry(of chain: [Certificate]) throws(BudgetExhausted) -> PolicyOutcomeMemo.Entry {
        if let known = policyOutcomes.entry(for: chain) { return known }
        // Drawn from the evaluation's budget: it does not reset for each path the builder tries.
        let outcome = try PolicyProcessing.process(chain, inputs: options, budget: budget)
        return policyOutcomes.record(outcome, for: chain)
    }

    /// Extensions this validator processes; any other critical extension is rejected (RFC 5280 §4.2).
    static let understoodExtensions: Set<ASN1ObjectIdentifier> = [
        OID.basicConstraints, OID.keyUsage, OID.extendedKeyUsage, OID.subjectAltName, OID.nameConstraints,
        OID.authorityKeyIdentifier, OID.subjectKeyIdentifier, OID.certificatePolicies, OID.crlDistributionPoints,
        OID.authorityInfoAccess, OID.issuerAltName, OID.policyConstraints, OID.policyMappings, OID.inhibitAnyPolicy,
    ]

    /// Validates `chain`. `isComplete` says whether the last certificate is a trust anchor; for an
    /// incomplete chain the per-certificate rules still run so every problem is reported.
    /// Running out of budget in any stage throws (the evaluation is then rejected as a whole).
    func validate(_ chain: [Certificate], isComplete: Bool) throws(BudgetExhausted) -> [TrustFailure] {
        guard !chain.isEmpty else { return [TrustFailure(.noCertificates, certificate: nil, index: nil)] }
        var failures: [TrustFailure] = []
        let lastIndex = chain.count - 1
        let anchorIndex = isComplete ? lastIndex : -1
        let rootSource = isComplete ? rootClassifier?.source(of: chain[lastIndex]) ?? .caller : .caller

        let rules = options.rules
        let verdicts = try staticVerdicts(chain, anchorIndex: anchorIndex, rootSource: rootSource)
        for index in chain.indices {
            let certificate = chain[index]
            let isAnchor = index == anchorIndex
            for defect in certificate.semanticDefects {
                failures.append(TrustFailure(.certificateDefect(defect), certificate: certificate, index: index))
            }
            let verdict = verdicts[index]
            // Fail closed, anchors included: an extension whose view did not decode on first use
            // (never expected: its value passed the same code at parse time) is not read as absent.
            if let name = verdict.undecodableExtension {
                failures.append(TrustFailure(.extensionUndecodable(name: name), certificate: certificate, index: index))
            }
            // RFC 5280 §6.1.1 (d): an anchor is a name and a key, trusted by configuration; its own
            // validity, CA flags and critical extensions are checked only under the rules that say so
            // (RFC 5937). A leaf the caller trusts directly is still a leaf: its validity counts.
            let anchorExempt = isAnchor && index > 0
            if !anchorExempt || rules.contains(.anchorValidity), let reason = checkValidity(certificate) {
                failures.append(TrustFailure(reason, certificate: certificate, index: index))
            }
            if !isAnchor || rules.contains(.anchorProfile) {
                for name in verdict.unhandledCriticalExtensions {
                    failures.append(TrustFailure(.unhandledCriticalExtension(name: name), certificate: certificate, index: index))
                }
            }
            if index < lastIndex, let reason = signatures.failure(child: certificate, issuer: chain[index + 1]) {
                failures.append(TrustFailure(reason, certificate: certificate, index: index))
            }
            if index > 0 {
                checkIssuer(chain, at: index, isAnchor: isAnchor) { reason in
                    failures.append(TrustFailure(reason, certificate: certificate, index: index))
                }
            }
            for violation in verdict.profileViolations {
                failures.append(TrustFailure(.profileViolation(violation), certificate: certificate, index: index))
            }
        }
        let leaf = chain[0]
        checkLeaf(leaf) { reason in failures.append(TrustFailure(reason, certificate: leaf, index: 0)) }
        checkSPKIPins(chain) { failures.append($0) }
        failures.append(
            contentsOf: try NameConstraintChecker.violations(
                in: chain, budget: budget, leafCommonNameIsDNSName: options.allowsCommonNameFallback))
        // Certificate policies need the anchor: the path's policies are judged from it down (§6.1.2).
        if isComplete, let failure = try policyFailure(of: chain) { failures.append(failure) }
        // Revocation last, and only for complete chains: an issuer's status is checked with its issuer's key.
        if isComplete, let revocation = try revocation(of: chain) {
            failures.append(contentsOf: revocation.failures)
        }
        return failures
    }

    /// The rules that depend only on each certificate and its position, for every certificate of
    /// `chain` in order: unhandled critical extensions, undecodable views and the profile's
    /// per-certificate rules.
    /// Remembered per chain in ``ProfileVerdictCache`` (see there why that cannot change a verdict).
    /// The flags of every position are settled first (the top certificate's may cost a signature
    /// check from the budget, as it did when each position was looked up in turn: no other check of
    /// the per-certificate loop draws on the budget, so the order of spending is unchanged).
    func staticVerdicts(_ chain: [Certificate], anchorIndex: Int, rootSource: AnchorSource) throws(BudgetExhausted)
        -> [ProfileVerdictCache.Verdict]
    {
        var positions: [ProfileVerdictCache.Position] = []
        positions.reserveCapacity(chain.count)
        for index in chain.indices {
            let certificate = chain[index]
            var flags = try CertificateProfileRules.flags(
                of: certificate, at: index, chainCount: chain.count,
                isAnchor: index == anchorIndex, rootSource: rootSource,
                options: options, isSignedByAnotherKey: isSignedByAnotherKey)
            // Only the leaf rules read the common-name waiver: other positions share their verdicts.
            if !flags.isLeaf { flags.allowsCommonNameFallback = false }
            positions.append(ProfileVerdictCache.Position(certificate: certificate.sha256Words, flags: flags))
        }
        return verdicts.verdicts(for: positions) {
            zip(chain, positions).map { certificate, position in
                ProfileVerdictCache.Verdict(
                    unhandledCriticalExtensions: unhandledCriticalExtensions(certificate, rules: position.flags.rules),
                    undecodableExtension: certificate.extensions.undecodableValidationView,
                    profileViolations: CertificateProfileRules.violations(of: certificate, flags: position.flags))
            }
        }
    }

    /// Whether a self-issued `certificate` is provably not self-signed: its own key does not verify
    /// its signature. A key-rollover certificate (same name, new key signed with the old, RFC 4210
    /// §4.4) is no root: RFC 5280 §4.2.1.1 exempts only self-signed certificates from
    /// authorityKeyIdentifier, and CABF 7.1.2.1.2 / 7.1.2.1.3 are about self-signed roots. Only a
    /// definite mismatch counts; a signature that cannot be checked (unsupported algorithm, a key of
    /// another type) leaves the certificate taken as self-signed. The check is one of the
    /// evaluation's signature checks: out of budget, the evaluation ends (never a pass).
    func isSignedByAnotherKey(_ certificate: Certificate) throws(BudgetExhausted) -> Bool {
        if !signatures.knows(child: certificate, issuer: certificate) {
            try budget.spend(.signatureChecks)
        }
        if case .signatureInvalid? = signatures.failure(child: certificate, issuer: certificate) { return true }
        return false
    }

    // MARK: - Rules

    /// RFC 5280 §6.1.3 (a)(2): notBefore ≤ time ≤ notAfter.
    func checkValidity(_ certificate: Certificate) -> TrustFailureReason? {
        let now = options.verifyTime.secondsSince1970
        if now < certificate.notBefore.secondsSince1970 { return .notYetValid(notBefore: certificate.notBefore) }
        if now > certificate.notAfter.secondsSince1970 { return .expired(notAfter: certificate.notAfter) }
        return nil
    }

    /// Critical extensions Apple's trustd parses and so does not call unknown
    /// (`SecCertificateInitializeExtensionParsers`, `isAppleExtensionOID`, `isOtherKnownExtensionOID`
    /// in SecCertificate.c), beyond ``understoodExtensions``: accepted unless the profile applies
    /// ``ProfileRule/criticalExtensionsProcessed``.
    static let appleParsedExtensions: Set<ASN1ObjectIdentifier> = [
        "2.5.29.16", // privateKeyUsagePeriod
        OID.subjectInfoAccess,
        "2.16.840.1.113730.1.1", // Netscape certificate type
        "1.2.840.113533.7.65.0", // Entrust version information
        OID.ocspNoCheck,
        "1.3.6.1.4.1.311.21.10", // Microsoft application policies
        "2.23.148.1.1", "2.23.148.1.2",
    ]

    /// The arcs under which trustd knows every critical extension (Apple's own, and the other known ones).
    static let appleParsedArcs = [
        "1.2.840.113635.100.6.", "1.2.840.113635.100.11.", "1.2.840.113635.100.12.",
        "1.2.840.113635.100.13.", "1.2.840.113635.100.15.", "1.3.6.1.4.1.41577.5.", "2.23.146.2.1.",
    ]

    /// Whether trustd knows the critical extension `ext` (``appleParsedExtensions``, ``appleParsedArcs``)
    /// and its parser accepts the value. Most of those parsers accept any value; QCStatements' wants a
    /// non-empty SEQUENCE OF SEQUENCE { statementId OID, statementInfo ANY OPTIONAL } (RFC 3739 §3.2.6,
    /// `SecCEPQualifiedCertStatements`), and a critical extension trustd cannot parse makes the
    /// certificate unusable (`SecCertificateParse`), here an unhandled critical extension.
    static func isParsedByApple(_ ext: Extension) -> Bool {
        let oid = ext.oid
        if oid == qcStatements { return isWellFormedQCStatements(ext.value) }
        if appleParsedExtensions.contains(oid) { return true }
        let dotted = oid.dotted
        return appleParsedArcs.contains { dotted.hasPrefix($0) }
    }

    static let qcStatements: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.1.3"

    /// QCStatements' syntax as trustd's parser checks it (at most 16 statements: MAX_QCSTATEMENTS).
    static func isWellFormedQCStatements(_ value: ArraySlice<UInt8>) -> Bool {
        do throws(DERError) {
            let element = try DERIndexReader.parseSingle(value)
            guard element.tag == .sequence else { return false }
            var statements = try element.children()
            var count = 0
            while let statement = try statements.next(in: value) {
                count += 1
                guard statement.tag == .sequence, count < 16 else { return false }
                var fields = try statement.children()
                _ = try fields.read(.objectIdentifier, in: value)
                _ = try fields.next(in: value)
                try fields.finish()
            }
            return count > 0
        } catch {
            return false
        }
    }

    /// RFC 5280 §4.2: a critical extension that is not recognised must cause rejection. The names
    /// of the critical extensions not in ``understoodExtensions`` (nor, unless `rules` holds
    /// ``ProfileRule/criticalExtensionsProcessed``, among those Apple parses), in encoded order.
    func unhandledCriticalExtensions(_ certificate: Certificate, rules: ProfileRuleSet) -> [String] {
        let extensions = certificate.extensions
        // Almost always: every critical extension is a kind the validator processes (no list walk).
        if !extensions.hasCriticalUnknownExtension && extensions.criticalKnownKinds & ExtensionKind.unprocessedKinds == 0 {
            return []
        }
        // Fail closed: a list that could not be read again whole (never expected: the same bytes
        // passed the same walk at parse time) may hide a critical extension.
        guard extensions.listIsComplete else { return ["an extension that could not be read again"] }
        var names: [String] = []
        for ext in extensions.all where ext.isCritical {
            // Processed kinds are all in `understoodExtensions`; the set decides the rest.
            if ext.kind?.isProcessedByValidator == true || PathValidator.understoodExtensions.contains(ext.oid) { continue }
            if !rules.contains(.criticalExtensionsProcessed) && PathValidator.isParsedByApple(ext) { continue }
            names.append(ext.name)
        }
        return names
    }

    /// Rules for a certificate that issued the one below it (RFC 5280 §6.1.4), each broken one
    /// handed to `report` in order.
    func checkIssuer(_ chain: [Certificate], at index: Int, isAnchor: Bool, report: (TrustFailureReason) -> Void) {
        let certificate = chain[index]
        let rules = options.rules
        let child = chain[index - 1]
        if rules.contains(.keyIdentifierLinkage),
            let detail = AppleServerRules.keyIdentifierLinkageProblem(child: child, issuer: certificate, issuerIndex: index)
        {
            report(.profileViolation(ProfileViolation(.keyIdentifierLinkage, detail)))
        }
        // A v1/v2 certificate has no basicConstraints: RFC 5280 §6.1.4 (k) accepts it as an issuer only
        // when known to be a CA out of band (a trust anchor); Apple also below a v1/v2 anchor
        // (SecPVCParentCertificateChecks), unless the profile applies version1IssuersOnlyAsAnchors.
        let version = certificate.version
        if version < 3 {
            let anchorIsVersion1 = chain.count > index + 1 && chain[chain.count - 1].version < 3
            if !isAnchor && (rules.contains(.version1IssuersOnlyAsAnchors) || !anchorIsVersion1) {
                report(.versionNotAllowed(version: version))
            }
            return
        }
        let extensions = certificate.extensions
        let basicConstraints = extensions.basicConstraints
        // §6.1.4 (k), (n): intermediates assert cA and, with keyUsage, keyCertSign. An anchor is
        // trusted by configuration, unless the profile enforces its constraints (Apple does).
        if !isAnchor || rules.contains(.anchorIsCA) {
            if !(basicConstraints?.isCA ?? false) { report(.notCA) }
            if let usage = extensions.keyUsage, !usage.contains(.keyCertSign) { report(.missingKeyCertSign) }
        }
        // §6.1.4 (l)/(m): count the non-self-issued intermediates below this CA (the leaf is not
        // counted). An anchor's pathLenConstraint constrains too (Apple, OpenSSL, Go, Chromium).
        if let limit = basicConstraints?.pathLengthConstraint {
            var below = 0
            for position in 1..<max(1, index) where !chain[position].isSelfIssued { below += 1 }
            if below > limit { report(.pathLengthExceeded(limit: limit)) }
        }
        // EKU chaining (Apple for sub-CAs; Chrome, Mozilla, Go, pyca for every CA): a CA that carries
        // extendedKeyUsage may only issue for the purposes it lists, or for any purpose with
        // anyExtendedKeyUsage.
        let checksEKU = isAnchor ? rules.contains(.anchorExtendedKeyUsage) : rules.contains(.issuerExtendedKeyUsage)
        if checksEKU, let eku = extensions.extendedKeyUsage, !eku.contains(OID.anyExtendedKeyUsage) {
            for purpose in options.purposes where !allows(eku, purpose) {
                report(.extendedKeyUsageIncompatible(purpose: purpose.description))
            }
        }
    }

    /// Whether `eku` lists `purpose`. For serverAuth, Apple's SSL policy also takes the Netscape and
    /// Microsoft Server Gated Cryptography purposes (`set_ssl_ekus`), unless the profile applies
    /// ``ProfileRule/extendedKeyUsagePurposeListed`` (the strict serverAuth rule still wants serverAuth itself).
    func allows(_ eku: ExtendedKeyUsage, _ purpose: KeyPurpose) -> Bool {
        if eku.contains(purpose.oid) { return true }
        guard purpose == .serverAuth, !options.rules.contains(.extendedKeyUsagePurposeListed) else { return false }
        return eku.contains(OID.microsoftServerGatedCryptography) || eku.contains(OID.netscapeServerGatedCryptography)
    }

    /// End-entity rules: purposes (EKU), key usage, and the reference identities, each broken one
    /// handed to `report` in order.
    func checkLeaf(_ leaf: Certificate, report: (TrustFailureReason) -> Void) {
        let extensions = leaf.extensions
        if let eku = extensions.extendedKeyUsage {
            // RFC 5280 §4.2.1.12: each purpose must be listed, or anyExtendedKeyUsage (Apple
            // set_ssl_ekus accepts it; the web-PKI profile reports it as its own rule). A missing
            // extension allows every purpose.
            for purpose in options.purposes where !allows(eku, purpose) && !eku.contains(OID.anyExtendedKeyUsage) {
                report(.extendedKeyUsageIncompatible(purpose: purpose.description))
            }
        }
        // Apple's SecPolicyCheckKeyUsage: a leaf without keyUsage passes (LeafKeyUsageRequirement).
        let required = options.requiredLeafKeyUsage
        if let usage = extensions.keyUsage, !required.isSatisfied(by: usage) {
            report(.requiredKeyUsageMissing(required: required, present: usage))
        }
        for identity in options.identities {
            if let reason = HostnameCheck.failure(
                leaf, identity: identity, allowsCommonName: options.allowsCommonNameFallback,
                publicSuffixList: options.publicSuffixList)
            {
                report(reason)
            }
        }
        for address in options.emailAddresses {
            if let reason = HostnameCheck.failure(
                leaf, identity: PreparedIdentity(.email(address)), allowsCommonName: false,
                publicSuffixList: options.publicSuffixList)
            {
                report(reason)
            }
        }
    }
}

/// RFC 6125 host-name / IP check of a leaf, and the RFC 8398 mailbox check.
enum HostnameCheck {
    /// The mismatch, or nil when the leaf is valid for `identity`.
    static func failure(
        _ leaf: Certificate, identity: PreparedIdentity, allowsCommonName: Bool,
        publicSuffixList: PublicSuffixList
    ) -> TrustFailureReason? {
        let subjectAlternativeNames = leaf.extensions.subjectAlternativeNames
        if HostnameMatcher.matches(identity, subjectAlternativeNames: subjectAlternativeNames ?? [], publicSuffixList: publicSuffixList) {
            return nil
        }
        if allowsCommonName, subjectAlternativeNames == nil,
            HostnameMatcher.matchesCommonName(identity.identity, commonNames: leaf.subject.commonNames, publicSuffixList: publicSuffixList)
        {
            return nil
        }
        let presented = (subjectAlternativeNames ?? []).map(\.description)
        if case .email = identity.identity {
            return .emailAddressMismatch(expected: identity.identity.description, presented: presented)
        }
        return .hostnameMismatch(expected: identity.identity.description, presented: presented)
    }
}
