/// Where RFC 5280 path validation is stricter than Apple's (the RFC 5280 and SPIFFE profiles): rules
/// that tighten a step of `PathValidator` or `RevocationChecker` rather than add a check of their own.
enum StrictPathRules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .version1IssuersOnlyAsAnchors, profiles: [.rfc5280, .rfc5280Strict, .spiffe],
            source: "RFC 5280 §6.1.4 (k) (Apple SecPVCParentCertificateChecks allows more)",
            summary: "A v1 or v2 certificate issues others only as a trust anchor (Apple also accepts v1/v2 intermediates below a v1/v2 anchor).",
            scope: .pathValidationStep),
        ProfileRuleSpecification(
            .criticalExtensionsProcessed, profiles: [.rfc5280, .rfc5280Strict, .spiffe],
            source: "RFC 5280 §4.2 (Apple SecCertificateInitializeExtensionParsers allows more)",
            summary:
                "Every critical extension is one SwiftTrust processes (Apple also accepts the critical extensions trustd parses without enforcing them: privateKeyUsagePeriod, subjectInfoAccess, Netscape certificate type, QCStatements, OCSP no-check, Entrust version, Apple's arcs).",
            scope: .pathValidationStep),
        ProfileRuleSpecification(
            .revocationProofForEveryCertificate, profiles: [.rfc5280, .rfc5280Strict, .spiffe],
            source: "RFC 5280 §6.3 (Apple SecPVCPathCheckRevocationResponsesReceived: the leaf only)",
            summary:
                "With requirePositiveResponse, every non-anchor certificate needs fresh proof of good status (Apple requires it of the leaf only).",
            scope: .revocation),
        ProfileRuleSpecification(
            .extendedKeyUsagePurposeListed, profiles: [.rfc5280, .rfc5280Strict, .webPKI, .spiffe],
            source: "RFC 5280 §4.2.1.12 (Apple set_ssl_ekus allows more)",
            summary:
                "An extendedKeyUsage allows a purpose only by listing it or anyExtendedKeyUsage (Apple's SSL policy also takes the Netscape and Microsoft Server Gated Cryptography purposes for serverAuth).",
            scope: .pathValidationStep),
    ]

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {}
}
