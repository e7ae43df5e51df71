import TrustNames
import TrustX509

/// How a nameConstraints extension is written (RFC 5280 §4.2.1.10): only in CAs, critical, dNSName
/// bases in host-name syntax, and critical constraints only of the forms that can be checked.
/// (Applying the constraints to names is RFC 5280 §6.1.3 (b), (c): `NameConstraintChecker`.)
enum NameConstraintRules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .nameConstraintsInCAOnly, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.10",
            summary: "nameConstraints appear only in CA certificates.",
            scope: .certificate),
        ProfileRuleSpecification(
            .nameConstraintsCritical, profiles: [.rfc5280Strict],
            source: "RFC 5280 §4.2.1.10 (CABF 7.1.2.5.2 allows non-critical)",
            summary: "nameConstraints is critical (the CA/Browser Forum allows it non-critical, so the web-PKI profile does not apply this rule).",
            scope: .certificate),
        ProfileRuleSpecification(
            .nameConstraintsDNSNameSyntax, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.10",
            summary:
                "nameConstraints dNSName bases are host names in preferred name syntax: no leading period, no underscore (the other profiles read `.example.com` as its proper subdomains, as Apple, OpenSSL and Go do).",
            scope: .certificate),
        ProfileRuleSpecification(
            .nameConstraintsFormsSupported, profiles: [.basicX509, .ssl, .webPKI],
            source: "Apple SecPolicyCheckBasicCertificateProcessing, SecNameConstraintsAreSubtreesSupported; RFC 5280 §4.2.1.10",
            summary:
                "An intermediate's critical nameConstraints extension constrains only forms that can be checked (rfc822Name, dNSName, directoryName, URI, iPAddress), even when no name of another form appears in the chain.",
            scope: .certificate),
    ]

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {
        let rules = subject.rules
        let isAnchor = subject.isAnchor
        if subject.extensions.nameConstraints != nil && !subject.isCA {
            report.check(.nameConstraintsInCAOnly, .nameConstraintsInNonCA)
        }
        // An anchor's name constraints constrain (as Apple, OpenSSL, Go and Chromium apply them), but
        // their encoding is its issuer's business unless the anchor is held to the profile.
        if subject.critical(.nameConstraints) == false && (!isAnchor || rules.contains(.anchorProfile)) {
            report.check(.nameConstraintsCritical, .nameConstraintsNotCritical)
        }
        let syntax = rules.contains(.nameConstraintsDNSNameSyntax) && (!isAnchor || rules.contains(.anchorProfile))
        // Apple SecPolicyCheckBasicCertificateProcessing (SecPolicyServer.c, RFC 5280 §6.1.4 (g)) asks
        // SecNameConstraintsAreSubtreesSupported of the constraints it adds to the state: those of
        // intermediates. The trusted anchor's seed the state unasked; a leaf's are never read.
        let forms =
            rules.contains(.nameConstraintsFormsSupported) && !subject.isLeaf && !isAnchor
            && subject.extensions.isCritical(.nameConstraints)
        guard syntax || forms, let constraints = subject.extensions.nameConstraints else { return }
        var unsupported: [String] = []
        for subtree in constraints.permittedSubtrees + constraints.excludedSubtrees {
            switch subtree {
            // RFC 5280 §4.2.1.10: a DNS constraint is a host name ("host.example.com"); the
            // leading-dot form is URI and rfc822Name syntax (x509-limbo invalid-dnsname-leading-period).
            case let .dnsName(value) where syntax && !value.isEmpty && !IDNA.isValidASCIIHostname(value):
                report.check(.nameConstraintsDNSNameSyntax, .invalidDNSNameConstraint(value))
            default:
                if forms, let form = unsupportedForm(subtree), !unsupported.contains(form) { unsupported.append(form) }
            }
        }
        for form in unsupported { report.check(.nameConstraintsFormsSupported, .unsupportedCriticalNameConstraint(form: form)) }
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
}
