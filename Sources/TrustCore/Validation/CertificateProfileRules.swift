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
                      systemAnchored: Bool, options: ValidationOptions,
                      isSignedByAnotherKey: (Certificate) -> Bool) -> ProfileVerdictCache.Flags {
        var flags = ProfileVerdictCache.Flags()
        flags.rules = options.rules
        flags.isLeaf = index == 0
        flags.isAnchor = isAnchor
        flags.isSelfSigned = (isAnchor || index == chainCount - 1) && certificate.isSelfIssued
            && !(options.rules.bits & rulesReadingSelfSigned.bits != 0 && isSignedByAnotherKey(certificate))
        flags.serverPurpose = options.purposes.contains(.serverAuth)
        flags.systemAnchored = systemAnchored
        flags.allowsCommonNameFallback = options.allowsCommonNameFallback
        flags.minimumRSABits = options.signaturePolicy.allowsLegacyAlgorithms
            ? SignaturePolicy.absoluteMinimumRSAModulusBits : options.signaturePolicy.minimumRSAModulusBits
        return flags
    }

    /// The rules that exempt self-signed certificates or apply only to them.
    static let rulesReadingSelfSigned = ProfileRuleSet([
        .authorityKeyIdentifier, .anchorProfile, .rootAuthorityKeyIdentifier, .rootWithoutExtendedKeyUsage,
    ])


    /// The violations of `certificate` in the position `flags` describe: a pure function of the
    /// certificate and the flags (``ProfileVerdictCache`` relies on that).
    static func violations(of certificate: Certificate, flags: ProfileVerdictCache.Flags) -> [ProfileViolation] {
        var found: [ProfileViolation] = []
        let rules = flags.rules
        func check(_ rule: ProfileRule, _ detail: @autoclosure () -> String?) {
            guard rules.contains(rule), let text = detail() else { return }
            found.append(ProfileViolation(rule, text))
        }
        let extensions = certificate.extensions
        let critical = ExtensionCriticality(extensions.all)
        let isLeaf = flags.isLeaf
        let isAnchor = flags.isAnchor
        let isSelfSigned = flags.isSelfSigned
        let version = certificate.version
        let isCA = certificate.isCA
        let subjectIsEmpty = certificate.subject.isEmpty
        // Apple exempts a leaf trusted directly (a user-anchored leaf) from the TLS server issuance
        // rules below: the caller vouches for that very certificate.
        let leafIsAnchor = isLeaf && isAnchor

        // MARK: Apple's SSL policy

        // An empty subject only in a non-CA certificate naming itself in a critical subjectAltName.
        if subjectIsEmpty && (isCA || critical.subjectAltName != true) {
            check(.nonEmptySubject, "subject is empty" + (isCA ? " in a CA certificate" : " and subjectAltName is not critical"))
        }
        check(.weakKeySize, weakKeyProblem(certificate))
        if flags.serverPurpose && !leafIsAnchor {
            check(.strongKeySize, strongKeyProblem(certificate, minimumRSABits: flags.minimumRSABits))
        }
        if isLeaf && flags.serverPurpose && !leafIsAnchor {
            let issued = certificate.notBefore.secondsSince1970
            let lifetime = certificate.notAfter.secondsSince1970 - issued
            if flags.systemAnchored || issued > appleJuly2019,
               extensions.extendedKeyUsage?.contains(OID.serverAuth) != true {
                check(.serverAuthExtendedKeyUsageRequired, flags.systemAnchored
                      ? "leaf under a system root lacks extendedKeyUsage serverAuth"
                      : "leaf issued after 2019-06-30T23:00Z lacks extendedKeyUsage serverAuth")
            }
            if issued >= appleJuly2019 && lifetime > maximum825Days {
                check(.leafValidityPeriod, "leaf valid for \(days(lifetime)) days (at most 825 for leaves issued from 2019-07-01)")
            }
            if flags.systemAnchored {
                if issued >= appleSeptember2020 && lifetime > maximum398Days {
                    check(.systemTrustedLeafValidityPeriod,
                          "leaf valid for \(days(lifetime)) days (at most 398 under a system root from 2020-09-01)")
                } else if issued >= appleMarch2018 && lifetime > maximum825Days {
                    check(.systemTrustedLeafValidityPeriod,
                          "leaf valid for \(days(lifetime)) days (at most 825 under a system root from 2018-03-01)")
                }
            }
        }

        // MARK: CA/Browser Forum and RFC 5280 §4 issuance rules

        // RFC 5280 §4.1.2.2: serial numbers are positive and at most 20 octets. Not applied to trust
        // anchors: long-standing roots (e.g. Starfield G2) have serial 0 and are trusted by configuration.
        // A leaf that is itself trusted is still a leaf.
        if !isAnchor || isLeaf {
            if certificate.serialNumberIsNegative || certificate.serialNumberIsZero {
                check(.serialNumber, "serial number must be positive")
            }
            if certificate.serialNumberIsOverlong { check(.serialNumber, "serial number longer than 20 octets") }
        }
        if certificate.issuer.isEmpty { check(.issuerNonEmpty, "issuer name is empty") }
        // Only v3 certificates carry the extensions the web PKI relies on; v1 only as an anchor.
        if version != 3 && !isAnchor { check(.version3, "v\(version) certificate (the web PKI requires v3)") }

        // RFC 5280 §4.2.1.1: AKI is required except in self-signed certificates, and never critical.
        // A trust anchor is trusted by configuration (§6.1.1 (d)), whoever issued it.
        if let akiIsCritical = critical.authorityKeyIdentifier {
            if akiIsCritical { check(.authorityKeyIdentifier, "authorityKeyIdentifier is critical") }
        } else if !isSelfSigned && version == 3 {
            // A cross-signed anchor lacks it too, but is held to that only with the anchor profile.
            if !isAnchor || isLeaf {
                check(.authorityKeyIdentifier, "authorityKeyIdentifier missing")
            } else {
                check(.anchorProfile, "trust anchor issued by another CA lacks authorityKeyIdentifier")
            }
        }
        // CABF 7.1.2.1.3: a root's AKI, if present, holds only keyIdentifier, equal to its SKI.
        if isSelfSigned, let aki = extensions.authorityKeyIdentifier {
            if aki.keyIdentifier == nil || aki.authorityCertIssuer != nil || aki.authorityCertSerialNumber != nil {
                check(.rootAuthorityKeyIdentifier, "self-signed certificate's authorityKeyIdentifier must hold only keyIdentifier")
            } else if let keyID = aki.keyIdentifier, let ski = extensions.subjectKeyIdentifier?.keyIdentifier, !keyID.elementsEqual(ski) {
                check(.rootAuthorityKeyIdentifier, "self-signed certificate's authorityKeyIdentifier differs from its subjectKeyIdentifier")
            }
        }
        if critical.subjectKeyIdentifier == true { check(.subjectKeyIdentifier, "subjectKeyIdentifier is critical") }
        // Anchors are trusted by configuration (RFC 5280 §6.1.1 (d)): their SKI is required only
        // when the anchor is held to the profile too.
        if !isLeaf && version == 3 && extensions.subjectKeyIdentifier == nil {
            if !isAnchor {
                check(.subjectKeyIdentifier, "CA certificate lacks subjectKeyIdentifier")
            } else {
                check(.anchorProfile, "trust anchor lacks subjectKeyIdentifier")
            }
        }
        // CABF 7.1.2.1.2: a root's extKeyUsage MUST NOT be present.
        if isAnchor && isSelfSigned && !isLeaf && extensions.extendedKeyUsage != nil {
            check(.rootWithoutExtendedKeyUsage, "root carries extendedKeyUsage")
        }
        if !isLeaf, critical.basicConstraints == false {
            check(.basicConstraintsCritical, "basicConstraints is not critical in a CA certificate")
        }
        if let usage = extensions.keyUsage {
            if usage.contains(.keyCertSign) && !isCA { check(.keyUsageConsistency, "keyUsage keyCertSign without basicConstraints cA") }
            // (For issuers, the path validator already reports the missing keyCertSign.)
            if isLeaf && isCA && !usage.contains(.keyCertSign) {
                check(.keyUsageConsistency, "basicConstraints cA without keyUsage keyCertSign")
            }
        }
        if !isLeaf && subjectIsEmpty { check(.caSubjectNonEmpty, "CA certificate has an empty subject") }
        if extensions.nameConstraints != nil && !isCA { check(.nameConstraintsInCAOnly, "nameConstraints in a non-CA certificate") }
        // An anchor's name constraints constrain (as Apple, OpenSSL, Go and Chromium apply them), but
        // their encoding is its issuer's business unless the anchor is held to the profile.
        if critical.nameConstraints == false && (!isAnchor || rules.contains(.anchorProfile)) {
            check(.nameConstraintsCritical, "nameConstraints is not critical")
        }
        if critical.policyConstraints == false { check(.policyConstraintsCritical, "policyConstraints is not critical") }
        if critical.authorityInfoAccess == true { check(.authorityInfoAccessNonCritical, "authorityInfoAccess is critical") }
        if let sanIsCritical = critical.subjectAltName {
            if subjectIsEmpty && !sanIsCritical {
                check(.subjectAltNameCriticality, "subjectAltName is not critical although the subject is empty")
            }
            if !subjectIsEmpty && sanIsCritical && isLeaf {
                check(.subjectAltNameCriticality, "subjectAltName is critical although the subject is not empty")
            }
        } else if subjectIsEmpty {
            check(.subjectAltNameCriticality, "empty subject without subjectAltName")
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
                check(.leafSubjectAltNameRequired, "leaf has no subjectAltName")
            }
            if critical.extendedKeyUsage == true { check(.leafExtendedKeyUsage, "leaf extKeyUsage is critical") }
            if critical.extendedKeyUsage == nil && !isAnchor { check(.leafExtendedKeyUsage, "leaf has no extKeyUsage") }
            if extensions.extendedKeyUsage?.contains(OID.anyExtendedKeyUsage) == true {
                check(.leafExtendedKeyUsage, "leaf extKeyUsage contains anyExtendedKeyUsage")
            }
            // CABF 7.1.2.7.8: subscriber certificates are not CAs; a self-signed certificate the caller
            // trusts directly (`openssl req -x509` sets cA) is the caller's business.
            if isCA && !isAnchor { check(.caCertificateAsLeaf, "a CA certificate (basicConstraints cA) used as the leaf") }
        }
        check(.keyAlgorithm, keyAlgorithmProblem(certificate, minimumRSABits: flags.minimumRSABits))
        return found
    }

    /// Whole days in `seconds`, rounded up (for messages).
    static func days(_ seconds: Int64) -> Int64 { seconds <= 0 ? 0 : (seconds + secondsPerDay - 1) / secondsPerDay }

    /// RFC 5280 §4.2.1.6: dNSName entries are preferred-name-syntax host names (a leading `*` label
    /// allowed), iPAddress entries are 4 or 16 octets, rfc822Name entries are mailboxes.
    static func sanSyntaxProblem(_ name: GeneralName) -> String? {
        switch name {
        case let .dnsName(value):
            let utf8 = value.utf8
            let isWildcard = utf8.count >= 2 && utf8.first == UInt8(ascii: "*")
                && utf8[utf8.index(after: utf8.startIndex)] == UInt8(ascii: ".")
            let host = isWildcard ? utf8.dropFirst(2) : utf8[...]
            // A valid ASCII host name is LDH labels and dots only, so it is never "*".
            guard IDNA.scanASCIIHostname(host) != nil else {
                return "subjectAltName dNSName \"\(value)\" is not a valid host name"
            }
            // An all-numeric last label is an IP address written as a DNS name.
            if lastLabelIsNumeric(host) { return "subjectAltName dNSName \"\(value)\" is an IP address, not a host name" }
            return nil
        case let .ipAddress(bytes):
            return bytes.count == 4 || bytes.count == 16 ? nil : "subjectAltName iPAddress has \(bytes.count) octets"
        case let .rfc822Name(value):
            guard EmailAddress(value) != nil else {
                return "subjectAltName rfc822Name \"\(value)\" is not a mailbox"
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

    /// Apple's weak keys: RSA under 1024 bits (EC under 160 bits cannot be parsed at all).
    static func weakKeyProblem(_ certificate: Certificate) -> String? {
        guard let description = certificate.publicKeyDescription else { return "public key cannot be used" }
        if case let .rsa(bits) = description.kind, bits < SignaturePolicy.absoluteMinimumRSAModulusBits {
            return "RSA key of \(bits) bits (under 1024 is weak)"
        }
        return nil
    }

    /// Apple's strong key sizes: RSA of at least `minimumRSABits` (2048 unless the caller allowed
    /// legacy algorithms), EC on P-256 or larger (the only curves we parse), EdDSA.
    static func strongKeyProblem(_ certificate: Certificate, minimumRSABits: Int) -> String? {
        guard let description = certificate.publicKeyDescription else { return "public key cannot be used" }
        if case let .rsa(bits) = description.kind, bits < minimumRSABits {
            return "RSA key of \(bits) bits (at least \(minimumRSABits) required)"
        }
        return nil
    }

    /// CABF 6.1.5 / 7.1.3.1: RSA moduli of at least 2048 bits and divisible by 8; ECDSA on P-256/384/521.
    /// Ed25519 and Ed448 are accepted too (a deliberate extension beyond the Baseline Requirements).
    static func keyAlgorithmProblem(_ certificate: Certificate, minimumRSABits: Int) -> String? {
        guard let description = certificate.publicKeyDescription else {
            do { _ = try PublicKeyDescription(spki: certificate.publicKeyInfo.der) } catch { return "public key rejected: \(error)" }
            return "public key rejected"
        }
        switch description.kind {
        case let .rsa(bits):
            if bits < minimumRSABits { return "RSA key of \(bits) bits (at least \(minimumRSABits) required)" }
            if bits % 8 != 0 { return "RSA modulus of \(bits) bits is not a multiple of 8 (CABF 6.1.5)" }
            return nil
        case .ec, .ed25519, .ed448:
            return nil
        case let .unknown(oid):
            return "public key algorithm \(oid) is not allowed"
        }
    }
}
