import TrustX509

/// How extensions are encoded where RFC 5280 or X.690 is stricter than Apple's reader: DER DEFAULT
/// values omitted, policyConstraints critical, authorityInfoAccess non-critical.
enum ExtensionEncodingRules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .derDefaultOmitted, profiles: [.rfc5280Strict, .webPKI],
            source: "X.690 §11.5; RFC 5280 §4.1",
            summary:
                "No DEFAULT value is written out (basicConstraints cA FALSE, an extension's critical FALSE, a GeneralSubtree minimum 0); the other profiles read them as omitted, as Apple does.",
            scope: .certificate),
        ProfileRuleSpecification(
            .policyConstraintsCritical, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.11",
            summary: "policyConstraints is critical.",
            scope: .certificate),
        ProfileRuleSpecification(
            .authorityInfoAccessNonCritical, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.2.1",
            summary: "authorityInfoAccess is non-critical.",
            scope: .certificate),
    ]

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {
        // X.690 §11.5: DER omits DEFAULT values. The parser reads them as omitted, as Apple's
        // SecCertificateParse (DERParseBooleanWithDefault) does; an anchor's encoding is its issuer's
        // business unless the anchor is held to the profile.
        if !subject.isAnchor || subject.rules.contains(.anchorProfile) {
            for finding in subject.certificate.encodingFindings where finding.isDefaultValueWrittenOut {
                report.check(.derDefaultOmitted, .explicitDefaultValue(finding))
            }
        }
        if subject.critical(.policyConstraints) == false {
            report.check(.policyConstraintsCritical, .policyConstraintsNotCritical)
        }
        if subject.critical(.authorityInfoAccess) == true {
            report.check(.authorityInfoAccessNonCritical, .authorityInfoAccessCritical)
        }
    }
}
