import TrustDER
import TrustX509

/// RFC 5280 §4 and CA/Browser Forum issuance rules for serial numbers, issuer names, versions, key
/// identifiers, basicConstraints and keyUsage (strict RFC 5280 and the web PKI), and
/// ``ProfileRule/anchorProfile``, which holds the trust anchor to them too.
enum IssuanceRules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .serialNumber, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.1.2.2",
            summary: "Serial numbers are positive and at most 20 octets.",
            scope: .certificate),
        ProfileRuleSpecification(
            .issuerNonEmpty, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.1.2.4",
            summary: "The issuer name is non-empty.",
            scope: .certificate),
        ProfileRuleSpecification(
            .version3, profiles: [.webPKI],
            source: "CABF 7.1.1",
            summary: "Only v3 certificates, except trust anchors.",
            scope: .certificate),
        ProfileRuleSpecification(
            .authorityKeyIdentifier, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.1",
            summary: "authorityKeyIdentifier is present except in self-signed certificates, and non-critical.",
            scope: .certificate, reads: .selfSignedness),
        ProfileRuleSpecification(
            .anchorProfile, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2, §4.2.1.2; RFC 5937 §3",
            summary:
                "The trust anchor is held to the certificate profile too: its critical extensions are understood and it has a subjectKeyIdentifier (otherwise an anchor is a name and a key, RFC 5280 §6.1.1 (d)).",
            scope: .certificate, reads: [.selfSignedness, .anchorConstraint]),
        ProfileRuleSpecification(
            .rootAuthorityKeyIdentifier, profiles: [.webPKI],
            source: "CABF 7.1.2.1.3",
            summary: "A self-signed certificate's authorityKeyIdentifier holds only a keyIdentifier equal to its subjectKeyIdentifier.",
            scope: .certificate, reads: .selfSignedness),
        ProfileRuleSpecification(
            .subjectKeyIdentifier, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.2",
            summary: "subjectKeyIdentifier is present in CA certificates and non-critical.",
            scope: .certificate),
        ProfileRuleSpecification(
            .rootWithoutExtendedKeyUsage, profiles: [.webPKI],
            source: "CABF 7.1.2.1.2",
            summary: "A self-signed root carries no extendedKeyUsage.",
            scope: .certificate, reads: .selfSignedness),
        ProfileRuleSpecification(
            .basicConstraintsCritical, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.9",
            summary: "basicConstraints is critical in CA certificates.",
            scope: .certificate),
        ProfileRuleSpecification(
            .keyUsageConsistency, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.3, §4.2.1.9",
            summary: "keyUsage keyCertSign only with basicConstraints cA, and cA only with keyCertSign.",
            scope: .certificate),
        ProfileRuleSpecification(
            .pathLenConstraintInCAOnly, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.9; CABF 7.1.2.7.8",
            summary: "basicConstraints carries pathLenConstraint only when cA is asserted (Apple reads the field whatever cA says).",
            scope: .certificate),
        ProfileRuleSpecification(
            .caSubjectNonEmpty, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.1.2.6",
            summary: "A CA certificate's subject is non-empty.",
            scope: .certificate),
    ]

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {
        let certificate = subject.certificate
        let extensions = subject.extensions
        let isLeaf = subject.isLeaf
        let isAnchor = subject.isAnchor
        let isSelfSigned = subject.isSelfSigned
        let version = subject.version
        let isCA = subject.isCA
        // RFC 5280 §4.1.2.2: serial numbers are positive and at most 20 octets. Not applied to trust
        // anchors: long-standing roots (e.g. Starfield G2) have serial 0 and are trusted by configuration.
        // A leaf that is itself trusted is still a leaf.
        if !isAnchor || isLeaf {
            if certificate.serialNumberIsNegative || certificate.serialNumberIsZero {
                report.check(.serialNumber, .serialNumberNotPositive)
            }
            if certificate.serialNumberIsOverlong { report.check(.serialNumber, .serialNumberTooLong) }
        }
        if certificate.issuer.isEmpty { report.check(.issuerNonEmpty, .emptyIssuer) }
        // Only v3 certificates carry the extensions the web PKI relies on; v1 only as an anchor.
        if version != 3 && !isAnchor { report.check(.version3, .versionNot3(version: version)) }

        // RFC 5280 §4.2.1.1: AKI is required except in self-signed certificates, and never critical.
        // A trust anchor is trusted by configuration (§6.1.1 (d)), whoever issued it.
        if let akiIsCritical = subject.critical(.authorityKeyIdentifier) {
            if akiIsCritical { report.check(.authorityKeyIdentifier, .authorityKeyIdentifierCritical) }
        } else if !isSelfSigned && version == 3 {
            // A cross-signed anchor lacks it too, but is held to that only with the anchor profile.
            if !isAnchor || isLeaf {
                report.check(.authorityKeyIdentifier, .authorityKeyIdentifierMissing)
            } else {
                report.check(.anchorProfile, .anchorAuthorityKeyIdentifierMissing)
            }
        }
        // CABF 7.1.2.1.3: a root's AKI, if present, holds only keyIdentifier, equal to its SKI.
        if isSelfSigned, let aki = extensions.authorityKeyIdentifier {
            if aki.keyIdentifier == nil || aki.authorityCertIssuer != nil || aki.authorityCertSerialNumber != nil {
                report.check(.rootAuthorityKeyIdentifier, .rootAuthorityKeyIdentifierNotKeyIdentifierOnly)
            } else if let keyID = aki.keyIdentifier, let ski = extensions.subjectKeyID, !ByteComparison.equal(keyID, ski) {
                report.check(.rootAuthorityKeyIdentifier, .rootAuthorityKeyIdentifierMismatch)
            }
        }
        if subject.critical(.subjectKeyIdentifier) == true { report.check(.subjectKeyIdentifier, .subjectKeyIdentifierCritical) }
        // Anchors are trusted by configuration (RFC 5280 §6.1.1 (d)): their SKI is required only
        // when the anchor is held to the profile too.
        if !isLeaf && version == 3 && extensions.subjectKeyIdentifier == nil {
            if !isAnchor {
                report.check(.subjectKeyIdentifier, .caSubjectKeyIdentifierMissing)
            } else {
                report.check(.anchorProfile, .anchorSubjectKeyIdentifierMissing)
            }
        }
        // CABF 7.1.2.1.2: a root's extKeyUsage MUST NOT be present.
        if isAnchor && isSelfSigned && !isLeaf && extensions.extendedKeyUsage != nil {
            report.check(.rootWithoutExtendedKeyUsage, .rootHasExtendedKeyUsage)
        }
        if !isLeaf, subject.critical(.basicConstraints) == false {
            report.check(.basicConstraintsCritical, .basicConstraintsNotCritical)
        }
        if let usage = extensions.keyUsage {
            if usage.contains(.keyCertSign) && !isCA { report.check(.keyUsageConsistency, .keyCertSignWithoutCA) }
            // (For issuers, the path validator already reports the missing keyCertSign.)
            if isLeaf && isCA && !usage.contains(.keyCertSign) {
                report.check(.keyUsageConsistency, .caWithoutKeyCertSign)
            }
        }
        // RFC 5280 §4.2.1.9: pathLenConstraint only with cA asserted (Apple reads it either way).
        if !isCA, let pathLength = extensions.basicConstraints?.pathLengthConstraint {
            report.check(.pathLenConstraintInCAOnly, .pathLenConstraintWithoutCA(pathLength: pathLength))
        }
        if !isLeaf && subject.subjectIsEmpty { report.check(.caSubjectNonEmpty, .caSubjectEmpty) }
    }
}
