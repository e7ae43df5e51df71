import TrustX509

/// A file of related ``ProfileRule``s: their specifications and their per-certificate checks, side
/// by side. ``ProfileRuleRegistry/families`` lists every family once, in the order their checks run.
protocol ProfileRuleFamily: SendableMetatype {
    /// The specification of every rule of the family, in the order of its checks.
    static var specifications: [ProfileRuleSpecification] { get }

    /// Reports every rule of the family with ``ProfileRuleScope/certificate`` scope that `subject`
    /// breaks. A pure function of the certificate and its flags (``ProfileVerdictCache`` relies on
    /// that). Families without such rules report nothing.
    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport)
}

/// One certificate in its position, as the per-certificate rules read it: the flags
/// ``ProfileVerdictCache`` keys on and the few facts every family asks for, read once.
struct ProfileRuleSubject {
    let certificate: Certificate
    let flags: ProfileVerdictCache.Flags
    let extensions: Extensions
    let version: Int
    let isCA: Bool
    let subjectIsEmpty: Bool

    init(_ certificate: Certificate, flags: ProfileVerdictCache.Flags) {
        self.certificate = certificate
        self.flags = flags
        extensions = certificate.extensions
        version = certificate.version
        isCA = certificate.isCA
        subjectIsEmpty = certificate.subject.isEmpty
    }

    var isLeaf: Bool { flags.isLeaf }
    var isAnchor: Bool { flags.isAnchor }
    var isSelfSigned: Bool { flags.isSelfSigned }
    var rules: ProfileRuleSet { flags.rules }

    /// nil when the extension of `kind` is absent, else whether it is critical.
    func critical(_ kind: ExtensionKind) -> Bool? { extensions.criticality(of: kind) }

    /// Apple exempts a leaf that is itself a user/admin anchor from the key-size and 825-day rules
    /// (SecPolicyCheckKeySize, SecPolicyCheckOtherTrustValidityPeriod ask SecPVCIsAnchorPerConstraints
    /// for kSecUserAnchorSource); a caller's anchor (SecTrustSetAnchorCertificates) is exempt from
    /// nothing, which is why Apple refuses a ten-year self-signed server certificate trusted that way.
    var leafIsAdministratorRoot: Bool { flags.isLeaf && flags.isAnchor && flags.administratorAnchored }
}

/// The violations found so far in one certificate, for the rules in force only.
struct ProfileViolationReport {
    let rules: ProfileRuleSet
    private(set) var found: [ProfileViolation] = []

    init(rules: ProfileRuleSet) { self.rules = rules }

    /// Records `detail` as a violation of `rule` when the rule is in force and `detail` is non-nil
    /// (evaluated only then).
    mutating func check(_ rule: ProfileRule, _ detail: @autoclosure () -> ProfileViolationDetail?) {
        guard rules.contains(rule), let detail = detail() else { return }
        found.append(ProfileViolation(rule, detail))
    }
}
