import TrustCrypto
import TrustDER
import TrustX509

/// Apple's SSL and basic X.509 policies (`SecPolicyCreateSSL`, `SecPolicyCreateBasicX509`), which the
/// web-PKI profile applies too: subjects, key sizes, signature hashes, the serverAuth purpose, leaf
/// lifetimes, key-identifier linkage and the anchor's own validity and CA flags.
enum AppleServerRules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .nonEmptySubject, profiles: [.basicX509, .ssl, .webPKI],
            source: "Apple SecPolicyCheckCertNonEmptySubject; RFC 5280 §4.1.2.6",
            summary: "An empty subject only in a non-CA certificate with a critical subjectAltName.",
            scope: .certificate),
        ProfileRuleSpecification(
            .weakKeySize, profiles: [.basicX509, .ssl, .webPKI],
            source: "Apple SecPolicyCheckWeakKeySize",
            summary:
                "No certificate, the anchor included, has an RSA key under 1024 bits, an EC key under 160 bits, or a key of a kind Apple does not know (DSA, unknown algorithms).",
            scope: .certificate),
        ProfileRuleSpecification(
            .strongKeySize, profiles: [.ssl, .webPKI],
            source: "Apple SecPolicyAddStrongKeySizeOptions, SecPolicyCheckKeySize",
            summary:
                "TLS server chains: RSA keys of at least 2048 bits and EC keys of at least 256 bits in every certificate, the anchor included; EdDSA keys are not in Apple's table (not when the leaf itself is an administrator's root).",
            scope: .certificate, reads: .anchorSource),
        ProfileRuleSpecification(
            .signatureHashAlgorithm, profiles: [.ssl, .webPKI],
            source: "Apple SecPolicyRemoveWeakHashOptions, SecPolicyCheckSignatureHashAlgorithms",
            summary: "TLS server chains: no certificate is signed with SHA-1 (or MD2/4/5), except self-signed ones and an administrator's root.",
            scope: .certificate, reads: .anchorSource),
        ProfileRuleSpecification(
            .serverAuthExtendedKeyUsageRequired, profiles: [.ssl, .webPKI],
            source: "Apple SecPolicyCheckServerAuthEKU",
            summary:
                "A TLS server leaf names serverAuth in an extendedKeyUsage extension: always under a system root; under other roots but administrators' when issued after 2019-06-30T23:00Z.",
            scope: .certificate, reads: .anchorSource),
        ProfileRuleSpecification(
            .leafValidityPeriod, profiles: [.ssl, .webPKI],
            source: "Apple SecPolicyCheckOtherTrustValidityPeriod",
            summary:
                "A TLS server leaf issued from 2019-06-30T23:00Z is valid for at most 825 days and one hour (not when the leaf itself is an administrator's root).",
            scope: .certificate, reads: .anchorSource),
        ProfileRuleSpecification(
            .systemTrustedLeafValidityPeriod, profiles: [.ssl, .webPKI],
            source: "Apple SecPolicyCheckSystemTrustValidityPeriod",
            summary:
                "Under a system root, a TLS server leaf issued from 2018-03-01 is valid for at most 825 days and one hour, and one issued from 2020-09-01 for at most 398 days.",
            scope: .certificate, reads: .anchorSource),
        ProfileRuleSpecification(
            .keyIdentifierLinkage, profiles: [.basicX509, .ssl, .webPKI],
            source: "Apple SecPolicyCheckIdLinkage",
            summary:
                "An authorityKeyIdentifier keyIdentifier equals the issuer's subjectKeyIdentifier when both are present, for every pair in the chain.",
            scope: .issuer),
        ProfileRuleSpecification(
            .issuerExtendedKeyUsage, profiles: [.ssl, .webPKI],
            source: "Apple SecPolicyCheckExtendedKeyUsage (sub-CAs); CABF 7.1.2.2.6",
            summary: "An intermediate CA that carries extendedKeyUsage lists the purpose or anyExtendedKeyUsage.",
            scope: .issuer),
        ProfileRuleSpecification(
            .anchorValidity, profiles: [.rfc5280Strict, .basicX509, .ssl, .webPKI],
            source: "Apple SecPolicyCheckTemporalValidity; RFC 5937 §3",
            summary: "The trust anchor is within its validity period.",
            scope: .pathValidationStep, reads: .anchorConstraint),
        ProfileRuleSpecification(
            .anchorIsCA, profiles: [.rfc5280Strict, .basicX509, .ssl, .webPKI, .spiffe],
            source: "Apple SecPVCParentCertificateChecks; RFC 5937 §3",
            summary: "A v3 trust anchor that issued the next certificate asserts basicConstraints cA, and keyCertSign when it has keyUsage.",
            scope: .pathValidationStep, reads: .anchorConstraint),
    ]

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

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {
        let certificate = subject.certificate
        let flags = subject.flags
        // An empty subject only in a non-CA certificate naming itself in a critical subjectAltName.
        if subject.subjectIsEmpty && (subject.isCA || subject.critical(.subjectAltName) != true) {
            report.check(.nonEmptySubject, subject.isCA ? .emptySubjectInCA : .emptySubjectWithoutCriticalSubjectAltName)
        }
        report.check(.weakKeySize, weakKeyProblem(certificate))
        if flags.serverPurpose && !subject.leafIsAdministratorRoot {
            report.check(.strongKeySize, strongKeyProblem(certificate, minimumRSABits: flags.minimumRSABits))
        }
        // SecPolicyRemoveWeakHashOptions (SSL server only) → SecPolicyCheckSignatureHashAlgorithms: every
        // certificate but self-signed ones (SecPolicyCheckCertSignatureHashAlgorithms) and a root from
        // the user/admin store; waived when the caller allows legacy algorithms everywhere.
        if flags.serverPurpose && !flags.allowsLegacyAlgorithms && !subject.isSelfSigned
            && !(subject.isAnchor && flags.administratorAnchored),
            let algorithm = try? certificate.signatureAlgorithm(), algorithm.isLegacy
        {
            report.check(.signatureHashAlgorithm, .weakSignatureHash(algorithm: algorithm.description))
        }
        guard subject.isLeaf && flags.serverPurpose else { return }
        let issued = certificate.notBefore.secondsSince1970
        let lifetime = certificate.notAfter.secondsSince1970 - issued
        // SecPolicyCheckServerAuthEKU: strict under a system root, from July 2019 under others, not
        // at all under a user/admin root.
        if !flags.administratorAnchored, flags.systemAnchored || issued > appleJuly2019,
            subject.extensions.extendedKeyUsage?.contains(OID.serverAuth) != true
        {
            report.check(.serverAuthExtendedKeyUsageRequired, .serverAuthExtendedKeyUsageMissing(underSystemRoot: flags.systemAnchored))
        }
        if issued >= appleJuly2019 && lifetime > maximum825Days && !subject.leafIsAdministratorRoot {
            report.check(.leafValidityPeriod, .leafValidityTooLong(days: days(lifetime), limit: .issuedFromJuly2019))
        }
        if flags.systemAnchored {
            if issued >= appleSeptember2020 && lifetime > maximum398Days {
                report.check(.systemTrustedLeafValidityPeriod, .leafValidityTooLong(days: days(lifetime), limit: .systemTrustedFromSeptember2020))
            } else if issued >= appleMarch2018 && lifetime > maximum825Days {
                report.check(.systemTrustedLeafValidityPeriod, .leafValidityTooLong(days: days(lifetime), limit: .systemTrustedFromMarch2018))
            }
        }
    }

    /// ``ProfileRule/keyIdentifierLinkage`` for the certificate at `issuerIndex` (Apple
    /// SecPolicyCheckIdLinkage): the child's authorityKeyIdentifier keyIdentifier names this key
    /// when both exist.
    static func keyIdentifierLinkageProblem(child: Certificate, issuer: Certificate, issuerIndex: Int) -> ProfileViolationDetail? {
        guard let keyID = child.extensions.authorityKeyID, let ski = issuer.extensions.subjectKeyID,
            !ByteComparison.equal(keyID, ski)
        else { return nil }
        return .authorityKeyIdentifierDoesNotMatchIssuer(childIndex: issuerIndex - 1)
    }

    /// Whole days in `seconds`, rounded up (for messages).
    static func days(_ seconds: Int64) -> Int64 { seconds <= 0 ? 0 : (seconds + secondsPerDay - 1) / secondsPerDay }

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
}
