import TrustCrypto
import TrustDER
import TrustX509

/// The per-certificate ``ProfileRule``s: those that depend only on the certificate and its position
/// in the chain (``ProfileVerdictCache/Flags``), so their verdict can be remembered. Rules that read
/// a neighbour (key-identifier linkage, issuer extendedKeyUsage) are in ``PathValidator``.
///
/// Each rule is a few lines citing its source; a certificate may break several.
enum CertificateProfileRules {
    /// Apple's `jul2019` (583628400 in Core Foundation time): 2019-06-30T23:00:00Z, an hour before
    /// the date its comment gives; we use Apple's constant, so the boundary matches SecTrust.
    static let appleJuly2019: Int64 = 1_561_935_600
    /// 2018-03-01T00:00:00Z: system-trusted leaves from then are valid for at most 825 days.
    static let appleMarch2018: Int64 = 1_519_862_400
    /// 2020-09-01T00:00:00Z: system-trusted leaves from then are valid for at most 398 days.
    static let appleSeptember2020: Int64 = 1_598_918_400
    static let secondsPerDay: Int64 = 86_400
    /// Apple's 825-day limits allow one hour of slip.
    static let maximum825Days: Int64 = 825 * secondsPerDay + 3600
    static let maximum398Days: Int64 = 398 * secondsPerDay

    /// The position and option flags the rules below depend on (see ``ProfileVerdictCache``).
    ///
    /// `isSignedByAnotherKey` is asked only for a self-issued last certificate under a rule that
    /// reads self-signedness (``rulesReadingSelfSigned``): the validator answers it with the
    /// evaluation's signature checker and budget, so that check is bounded like every other.
    static func flags(of certificate: Certificate, at index: Int, chainCount: Int, isAnchor: Bool,
                      rootSource: AnchorSource, options: ValidationRequest,
                      isSignedByAnotherKey: (Certificate) throws(BudgetExhausted) -> Bool) throws(BudgetExhausted)
        -> ProfileVerdictCache.Flags {
        var flags = ProfileVerdictCache.Flags()
        flags.rules = options.rules
        flags.isLeaf = index == 0
        flags.isAnchor = isAnchor
        flags.isSelfSigned = (isAnchor || index == chainCount - 1) && certificate.isSelfIssued
        if flags.isSelfSigned, readsSelfSignature(of: certificate, rules: options.rules) {
            flags.isSelfSigned = try !isSignedByAnotherKey(certificate)
        }
        flags.serverPurpose = options.purposes.contains(.serverAuth)
        flags.systemAnchored = rootSource == .system
        flags.administratorAnchored = rootSource == .administrator
        flags.allowsCommonNameFallback = options.allowsCommonNameFallback
        flags.allowsLegacyAlgorithms = options.signaturePolicy.allowsLegacyAlgorithms
        flags.minimumRSABits = options.signaturePolicy.allowsLegacyAlgorithms
            ? SignaturePolicy.absoluteMinimumRSAModulusBits : options.signaturePolicy.minimumRSAModulusBits
        return flags
    }

    /// The rules that exempt self-signed certificates or apply only to them.
    static let rulesReadingSelfSigned = ProfileRuleSet([
        .authorityKeyIdentifier, .anchorProfile, .rootAuthorityKeyIdentifier, .rootWithoutExtendedKeyUsage,
    ])

    /// Whether a rule in force reads whether `certificate` (self-issued) is really self-signed: one of
    /// ``rulesReadingSelfSigned``, or the SHA-1 rule for a certificate signed with SHA-1 (the only
    /// one it exempts that way), so the common chain spends no signature check on its root.
    static func readsSelfSignature(of certificate: Certificate, rules: ProfileRuleSet) -> Bool {
        if rules.bits & rulesReadingSelfSigned.bits != 0 { return true }
        return rules.contains(.signatureHashAlgorithm) && (try? certificate.signatureAlgorithm())?.isLegacy == true
    }


    /// The violations of `certificate` in the position `flags` describe: a pure function of the
    /// certificate and the flags (``ProfileVerdictCache`` relies on that).
    static func violations(of certificate: Certificate, flags: ProfileVerdictCache.Flags) -> [ProfileViolation] {
        var found: [ProfileViolation] = []
        let rules = flags.rules
        func check(_ rule: ProfileRule, _ detail: @autoclosure () -> ProfileViolationDetail?) {
            guard rules.contains(rule), let detail = detail() else { return }
            found.append(ProfileViolation(rule, detail))
        }
        let extensions = certificate.extensions
        /// nil when the extension of `kind` is absent, else whether it is critical.
        func critical(_ kind: ExtensionKind) -> Bool? { extensions.criticality(of: kind) }
        let isLeaf = flags.isLeaf
        let isAnchor = flags.isAnchor
        let isSelfSigned = flags.isSelfSigned
        let version = certificate.version
        let isCA = certificate.isCA
        let subjectIsEmpty = certificate.subject.isEmpty
        // Apple exempts a leaf that is itself a user/admin anchor from the key-size and 825-day rules
        // (SecPolicyCheckKeySize, SecPolicyCheckOtherTrustValidityPeriod ask SecPVCIsAnchorPerConstraints
        // for kSecUserAnchorSource); a caller's anchor (SecTrustSetAnchorCertificates) is exempt from
        // nothing, which is why Apple refuses a ten-year self-signed server certificate trusted that way.
        let leafIsAdministratorRoot = isLeaf && isAnchor && flags.administratorAnchored

        // MARK: Apple's SSL policy

        // An empty subject only in a non-CA certificate naming itself in a critical subjectAltName.
        if subjectIsEmpty && (isCA || critical(.subjectAltName) != true) {
            check(.nonEmptySubject, isCA ? .emptySubjectInCA : .emptySubjectWithoutCriticalSubjectAltName)
        }
        check(.weakKeySize, weakKeyProblem(certificate))
        if flags.serverPurpose && !leafIsAdministratorRoot {
            check(.strongKeySize, strongKeyProblem(certificate, minimumRSABits: flags.minimumRSABits))
        }
        // SecPolicyRemoveWeakHashOptions (SSL server only) → SecPolicyCheckSignatureHashAlgorithms: every
        // certificate but self-signed ones (SecPolicyCheckCertSignatureHashAlgorithms) and a root from
        // the user/admin store; waived when the caller allows legacy algorithms everywhere.
        if flags.serverPurpose && !flags.allowsLegacyAlgorithms && !isSelfSigned && !(isAnchor && flags.administratorAnchored),
           let algorithm = try? certificate.signatureAlgorithm(), algorithm.isLegacy {
            check(.signatureHashAlgorithm, .weakSignatureHash(algorithm: algorithm.description))
        }
        if isLeaf && flags.serverPurpose {
            let issued = certificate.notBefore.secondsSince1970
            let lifetime = certificate.notAfter.secondsSince1970 - issued
            // SecPolicyCheckServerAuthEKU: strict under a system root, from July 2019 under others, not
            // at all under a user/admin root.
            if !flags.administratorAnchored, flags.systemAnchored || issued > appleJuly2019,
               extensions.extendedKeyUsage?.contains(OID.serverAuth) != true {
                check(.serverAuthExtendedKeyUsageRequired, .serverAuthExtendedKeyUsageMissing(underSystemRoot: flags.systemAnchored))
            }
            if issued >= appleJuly2019 && lifetime > maximum825Days && !leafIsAdministratorRoot {
                check(.leafValidityPeriod, .leafValidityTooLong(days: days(lifetime), limit: .issuedFromJuly2019))
            }
            if flags.systemAnchored {
                if issued >= appleSeptember2020 && lifetime > maximum398Days {
                    check(.systemTrustedLeafValidityPeriod, .leafValidityTooLong(days: days(lifetime), limit: .systemTrustedFromSeptember2020))
                } else if issued >= appleMarch2018 && lifetime > maximum825Days {
                    check(.systemTrustedLeafValidityPeriod, .leafValidityTooLong(days: days(lifetime), limit: .systemTrustedFromMarch2018))
                }
            }
        }

        // MARK: CA/Browser Forum and RFC 5280 §4 issuance rules

        // RFC 5280 §4.1.2.2: serial numbers are positive and at most 20 octets. Not applied to trust
        // anchors: long-standing roots (e.g. Starfield G2) have serial 0 and are trusted by configuration.
        // A leaf that is itself trusted is still a leaf.
        if !isAnchor || isLeaf {
            if certificate.serialNumberIsNegative || certificate.serialNumberIsZero {
                check(.serialNumber, .serialNumberNotPositive)
            }
            if certificate.serialNumberIsOverlong { check(.serialNumber, .serialNumberTooLong) }
        }
        if certificate.issuer.isEmpty { check(.issuerNonEmpty, .emptyIssuer) }
        // Only v3 certificates carry the extensions the web PKI relies on; v1 only as an anchor.
        if version != 3 && !isAnchor { check(.version3, .versionNot3(version: version)) }

        // RFC 5280 §4.2.1.1: AKI is required except in self-signed certificates, and never critical.
        // A trust anchor is trusted by configuration (§6.1.1 (d)), whoever issued it.
        if let akiIsCritical = critical(.authorityKeyIdentifier) {
            if akiIsCritical { check(.authorityKeyIdentifier, .authorityKeyIdentifierCritical) }
        } else if !isSelfSigned && version == 3 {
            // A cross-signed anchor lacks it too, but is held to that only with the anchor profile.
            if !isAnchor || isLeaf {
                check(.authorityKeyIdentifier, .authorityKeyIdentifierMissing)
            } else {
                check(.anchorProfile, .anchorAuthorityKeyIdentifierMissing)
            }
        }
        // CABF 7.1.2.1.3: a root's AKI, if present, holds only keyIdentifier, equal to its SKI.
        if isSelfSigned, let aki = extensions.authorityKeyIdentifier {
            if aki.keyIdentifier == nil || aki.authorityCertIssuer != nil || aki.authorityCertSerialNumber != nil {
                check(.rootAuthorityKeyIdentifier, .rootAuthorityKeyIdentifierNotKeyIdentifierOnly)
            } else if let keyID = aki.keyIdentifier, let ski = extensions.subjectKeyID, !ByteComparison.equal(keyID, ski) {
                check(.rootAuthorityKeyIdentifier, .rootAuthorityKeyIdentifierMismatch)
            }
        }
        if critical(.subjectKeyIdentifier) == true { check(.subjectKeyIdentifier, .subjectKeyIdentifierCritical) }
        // Anchors are trusted by configuration (RFC 5280 §6.1.1 (d)): their SKI is required only
        // when the anchor is held to the profile too.
        if !isLeaf && version == 3 && extensions.subjectKeyIdentifier == nil {
            if !isAnchor {
                check(.subjectKeyIdentifier, .caSubjectKeyIdentifierMissing)
            } else {
                check(.anchorProfile, .anchorSubjectKeyIdentifierMissing)
            }
        }
        // CABF 7.1.2.1.2: a root's extKeyUsage MUST NOT be present.
        if isAnchor && isSelfSigned && !isLeaf && extensions.extendedKeyUsage != nil {
            check(.rootWithoutExtendedKeyUsage, .rootHasExtendedKeyUsage)
        }
        if !isLeaf, critical(.basicConstraints) == false {
            check(.basicConstraintsCritical, .basicConstraintsNotCritical)
        }
        if let usage = extensions.keyUsage {
            if usage.contains(.keyCertSign) && !isCA { check(.keyUsageConsistency, .keyCertSignWithoutCA) }
            // (For issuers, the path validator already reports the missing keyCertSign.)
            if isLeaf && isCA && !usage.contains(.keyCertSign) {
                check(.keyUsageConsistency, .caWithoutKeyCertSign)
            }
        }
        // RFC 5280 §4.2.1.9: pathLenConstraint only with cA asserted (Apple reads it either way).
        if !isCA, let pathLength = extensions.basicConstraints?.pathLengthConstraint {
            check(.pathLenConstraintInCAOnly, .pathLenConstraintWithoutCA(pathLength: pathLength))
        }
        if !isLeaf && subjectIsEmpty { check(.caSubjectNonEmpty, .caSubjectEmpty) }
        if extensions.nameConstraints != nil && !isCA { check(.nameConstraintsInCAOnly, .nameConstraintsInNonCA) }
        // An anchor's name constraints constrain (as Apple, OpenSSL, Go and Chromium apply them), but
        // their encoding is its issuer's business unless the anchor is held to the profile.
        if critical(.nameConstraints) == false && (!isAnchor || rules.contains(.anchorProfile)) {
            check(.nameConstraintsCritical, .nameConstraintsNotCritical)
        }
        nameConstraintProblems(certificate, isLeaf: isLeaf, isAnchor: isAnchor, rules: rules) { check($0, $1) }
        // X.690 §11.5: DER omits DEFAULT values. The parser reads them as omitted, as Apple's
        // SecCertificateParse (DERParseBooleanWithDefault) does; an anchor's encoding is its issuer's
        // business unless the anchor is held to the profile.
        if !isAnchor || rules.contains(.anchorProfile) {
            for finding in certificate.encodingFindings where finding.isDefaultValueWrittenOut {
                check(.derDefaultOmitted, .explicitDefaultValue(finding))
            }
        }
        if critical(.policyConstraints) == false { check(.policyConstraintsCritical, .policyConstraintsNotCritical) }
        if critical(.authorityInfoAccess) == true { check(.authorityInfoAccessNonCritical, .authorityInfoAccessCritical) }
        if let sanIsCritical = critical(.subjectAltName) {
            if subjectIsEmpty && !sanIsCritical {
                check(.subjectAltNameCriticality, .subjectAltNameNotCriticalWithEmptySubject)
            }
            if !subjectIsEmpty && sanIsCritical && isLeaf {
                check(.subjectAltNameCriticality, .subjectAltNameCriticalWithSubject)
            }
        } else if subjectIsEmpty {
            check(.subjectAltNameCriticality, .emptySubjectWithoutSubjectAltName)
        }
        let subjectAlternativeNames = extensions.subjectAlternativeNames
        if rules.contains(.subjectAltNameSyntax) {
            for name in subjectAlternativeNames ?? [] {
                if let problem = sanSyntaxProblem(name) { check(.subjectAltNameSyntax, problem) }
            }
        }
        if isLeaf {
            // CABF 7.1.2.7.12: subscriber certificates carry a SAN (waived when the caller explicitly
            // opted into legacy common-name matching, which exists for SAN-less certificates).
            if subjectAlternativeNames == nil && !flags.allowsCommonNameFallback {
                check(.leafSubjectAltNameRequired, .leafSubjectAltNameMissing)
            }
            if critical(.extendedKeyUsage) == true { check(.leafExtendedKeyUsage, .leafExtendedKeyUsageCritical) }
            if critical(.extendedKeyUsage) == nil && !isAnchor { check(.leafExtendedKeyUsage, .leafExtendedKeyUsageMissing) }
            if extensions.extendedKeyUsage?.contains(OID.anyExtendedKeyUsage) == true {
                check(.leafExtendedKeyUsage, .leafAnyExtendedKeyUsage)
            }
            // CABF 7.1.2.7.8: subscriber certificates are not CAs; a self-signed certificate the caller
            // trusts directly (`openssl req -x509` sets cA) is the caller's business.
            if isCA && !isAnchor { check(.caCertificateAsLeaf, .caCertificateAsLeaf) }
        }
        check(.keyAlgorithm, keyAlgorithmProblem(certificate, minimumRSABits: flags.minimumRSABits))
        if rules.bits & svidRules.bits != 0 { svidProblems(certificate, isLeaf: isLeaf) { check($0, $1) } }
        return found
    }

    /// The SPIFFE X.509-SVID rules (spiffe/spiffe standards/X509-SVID.md).
    static let svidRules = ProfileRuleSet([
        .svidSingleURI, .svidSPIFFEID, .svidLeafNotCA, .svidLeafDigitalSignature, .svidLeafNotSigner, .svidSigningCertificateKeyUsage,
    ])

    /// The X.509-SVID rules of `certificate`, the leaf or a signing certificate, reported through `check`.
    static func svidProblems(_ certificate: Certificate, isLeaf: Bool, check: (ProfileRule, ProfileViolationDetail) -> Void) {
        let usage = certificate.extensions.keyUsage
        guard isLeaf else {
            // §3.2, §4.3: a signing certificate sets keyCertSign, so it has keyUsage (a keyUsage without
            // keyCertSign is RFC 5280 §6.1.4 (n)'s failure, and anchorIsCA's for the anchor).
            if usage == nil { check(.svidSigningCertificateKeyUsage, .svidSigningCertificateWithoutKeyUsage) }
            return
        }
        // §2, §5.2: exactly one URI SAN, and (SPIFFE-ID §2; X509-SVID §3.1, §5.2) it is a SPIFFE ID with a path.
        let uris = certificate.uriSubjectAltNames
        if uris.isEmpty {
            check(.svidSingleURI, .svidWithoutURI)
        } else if uris.count > 1 {
            check(.svidSingleURI, .svidWithSeveralURIs(count: uris.count))
        } else {
            do throws(SPIFFEIDError) {
                let id = try SPIFFEID(uris[0])
                if id.isTrustDomainID { check(.svidSPIFFEID, .svidSPIFFEIDWithoutPath(id)) }
            } catch {
                check(.svidSPIFFEID, .invalidSPIFFEID(uri: uris[0], error: error))
            }
        }
        // §4.1, §5.2: the leaf is not a CA.
        if certificate.isCA { check(.svidLeafNotCA, .svidLeafIsCA) }
        // §4.3: keyUsage with digitalSignature; §4.3, §5.2: neither keyCertSign nor cRLSign.
        guard let usage else { return check(.svidLeafDigitalSignature, .svidLeafWithoutKeyUsage) }
        if !usage.contains(.digitalSignature) { check(.svidLeafDigitalSignature, .svidLeafWithoutDigitalSignature) }
        if usage.contains(.keyCertSign) { check(.svidLeafNotSigner, .svidLeafKeyCertSign) }
        if usage.contains(.cRLSign) { check(.svidLeafNotSigner, .svidLeafCRLSign) }
    }

    /// The nameConstraints rules: ``ProfileRule/nameConstraintsDNSNameSyntax`` and
    /// ``ProfileRule/nameConstraintsFormsSupported``, reported through `check`.
    static func nameConstraintProblems(_ certificate: Certificate, isLeaf: Bool, isAnchor: Bool, rules: ProfileRuleSet,
                                       check: (ProfileRule, ProfileViolationDetail) -> Void) {
        let syntax = rules.contains(.nameConstraintsDNSNameSyntax) && (!isAnchor || rules.contains(.anchorProfile))
        // Apple SecPolicyCheckBasicCertificateProcessing (SecPolicyServer.c, RFC 5280 §6.1.4 (g)) asks
        // SecNameConstraintsAreSubtreesSupported of the constraints it adds to the state: those of
        // intermediates. The trusted anchor's seed the state unasked; a leaf's are never read.
        let forms = rules.contains(.nameConstraintsFormsSupported) && !isLeaf && !isAnchor
            && certificate.extensions.isCritical(.nameConstraints)
        guard syntax || forms, let constraints = certificate.extensions.nameConstraints else { return }
        var unsupported: [String] = []
        for subtree in constraints.permittedSubtrees + constraints.excludedSubtrees {
            switch subtree {
            // RFC 5280 §4.2.1.10: a DNS constraint is a host name ("host.example.com"); the
            // leading-dot form is URI and rfc822Name syntax (x509-limbo invalid-dnsname-leading-period).
            case let .dnsName(value) where syntax && !value.isEmpty && !IDNA.isValidASCIIHostname(value):
                check(.nameConstraintsDNSNameSyntax, .invalidDNSNameConstraint(value))
            default:
                if forms, let form = unsupportedForm(subtree), !unsupported.contains(form) { unsupported.append(form) }
            }
        }
        for form in unsupported { check(.nameConstraintsFormsSupported, .unsupportedCriticalNameConstraint(form: form)) }
    }

    /// The name of `name`'s form when name constraints cannot check it (Apple's
    /// SecNameConstraintsAreSubtreesSupported supports the other five), else nil.
    static func unsupportedForm(_ name: GeneralName) -> String? {
        switch name {
        case .otherName: return "otherName"
        case .x400Address: return "x400Address"
        case .ediPartyName: return "ediPartyName"
        case .registeredID: return "registeredID"
        case .rfc822Name, .dnsName, .directoryName, .uniformResourceIdentifier, .ipAddress: return nil
        }
    }

    /// Whole days in `seconds`, rounded up (for messages).
    static func days(_ seconds: Int64) -> Int64 { seconds <= 0 ? 0 : (seconds + secondsPerDay - 1) / secondsPerDay }

    /// RFC 5280 §4.2.1.6: dNSName entries are preferred-name-syntax host names (a leading `*` label
    /// allowed), iPAddress entries are 4 or 16 octets, rfc822Name entries are mailboxes.
    static func sanSyntaxProblem(_ name: GeneralName) -> ProfileViolationDetail? {
        switch name {
        case let .dnsName(value):
            let utf8 = value.utf8
            let isWildcard = utf8.count >= 2 && utf8.first == UInt8(ascii: "*")
                && utf8[utf8.index(after: utf8.startIndex)] == UInt8(ascii: ".")
            let host = isWildcard ? utf8.dropFirst(2) : utf8[...]
            // A valid ASCII host name is LDH labels and dots only, so it is never "*".
            guard IDNA.scanASCIIHostname(host) != nil else {
                return .invalidDNSName(value)
            }
            // An all-numeric last label is an IP address written as a DNS name.
            if lastLabelIsNumeric(host) { return .ipAddressAsDNSName(value) }
            return nil
        case let .ipAddress(bytes):
            return bytes.count == 4 || bytes.count == 16 ? nil : .invalidIPAddressLength(octets: bytes.count)
        case let .rfc822Name(value):
            guard EmailAddress(value) != nil else {
                return .invalidMailbox(value)
            }
            return nil
        default:
            return nil
        }
    }

    /// Whether the last non-empty label of a valid ASCII host name (one trailing dot allowed) is all
    /// decimal digits (for LDH text, the same as `Character.isNumber` on each character).
    static func lastLabelIsNumeric(_ host: Substring.UTF8View) -> Bool {
        var end = host.endIndex
        if end > host.startIndex, host[host.index(before: end)] == UInt8(ascii: ".") { end = host.index(before: end) }
        var position = end
        while position > host.startIndex {
            let previous = host.index(before: position)
            let byte = host[previous]
            if byte == UInt8(ascii: ".") { break }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            position = previous
        }
        return true
    }

    /// Apple's weak keys (`SecCertificateIsWeakKey`): RSA under 1024 bits, and any key that is not RSA,
    /// EC or EdDSA (`default: weak = true`: DSA, unknown algorithms). Every curve that parses (P-192
    /// and up) meets Apple's 160-bit EC minimum.
    static func weakKeyProblem(_ certificate: Certificate) -> ProfileViolationDetail? {
        guard let description = certificate.publicKeyDescription else { return .unusablePublicKey }
        switch description.kind {
        case let .rsa(bits) where bits < SignaturePolicy.absoluteMinimumRSAModulusBits:
            return .weakRSAKey(bits: bits)
        case let .unknown(oid):
            return .publicKeyAlgorithmNotAllowed(algorithmOID: oid)
        case .rsa, .ec, .ed25519, .ed448:
            return nil
        }
    }

    /// Apple's TLS server key sizes (`SecPolicyAddStrongKeySizeOptions`, `SecCertificateIsAtLeastMinKeySize`):
    /// RSA of at least `minimumRSABits` (2048 unless the caller allowed legacy algorithms), EC of at
    /// least 256 bits (P-192 and P-224 fail). Only RSA and EC are in Apple's table, so an EdDSA key
    /// fails it.
    static func strongKeyProblem(_ certificate: Certificate, minimumRSABits: Int) -> ProfileViolationDetail? {
        guard let description = certificate.publicKeyDescription else { return .unusablePublicKey }
        switch description.kind {
        case let .rsa(bits) where bits < minimumRSABits:
            return .rsaKeyTooSmall(bits: bits, minimumBits: minimumRSABits)
        case let .ec(curve) where curve.bits < 256:
            return .ecKeyTooSmall(bits: curve.bits, minimumBits: 256)
        case .rsa, .ec:
            return nil
        case .ed25519, .ed448, .unknown:
            return .keyNotInServerKeySizeTable(description.description)
        }
    }

    /// CABF 6.1.5 / 7.1.3.1: RSA moduli of at least 2048 bits and divisible by 8; ECDSA on P-256/384/521.
    /// Ed25519 and Ed448 are accepted too (a deliberate extension beyond the Baseline Requirements).
    static func keyAlgorithmProblem(_ certificate: Certificate, minimumRSABits: Int) -> ProfileViolationDetail? {
        guard let description = certificate.publicKeyDescription else {
            do { _ = try PublicKeyDescription(spki: certificate.publicKeyInfo.der) } catch { return .publicKeyRejected(error) }
            return .publicKeyRejected(nil)
        }
        switch description.kind {
        case let .rsa(bits):
            if bits < minimumRSABits { return .rsaKeyTooSmall(bits: bits, minimumBits: minimumRSABits) }
            if bits % 8 != 0 { return .rsaModulusNotMultipleOf8(bits: bits) }
            return nil
        case let .ec(curve) where curve.bits < 256:
            return .curveNotAllowed(curve.description)
        case .ec, .ed25519, .ed448:
            return nil
        case let .unknown(oid):
            return .publicKeyAlgorithmNotAllowed(algorithmOID: oid)
        }
    }
}
