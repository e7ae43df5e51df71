import Foundation
import TrustX509

/// The outcome of an evaluation in Apple's `SecTrustResultType` vocabulary.
public enum TrustResult: Hashable, Sendable, CustomStringConvertible {
    /// The user explicitly trusts the chain (not produced by default evaluation; kept for parity).
    case proceed
    /// Trusted under the default trust settings (Apple's `kSecTrustResultUnspecified`).
    case unspecified
    /// Not trusted, but a user could override it: expiry, host mismatch, unknown root…
    case recoverableTrustFailure
    /// Not trusted and not overridable: bad signature, malformed or revoked certificate.
    case fatalTrustFailure

    /// Whether the result means "trusted".
    public var isTrusted: Bool { self == .proceed || self == .unspecified }

    /// The Apple constant's name without its prefix.
    public var description: String {
        switch self {
        case .proceed: return "proceed"
        case .unspecified: return "unspecified"
        case .recoverableTrustFailure: return "recoverableTrustFailure"
        case .fatalTrustFailure: return "fatalTrustFailure"
        }
    }
}

/// What ``ServerTrust/evaluate()`` found.
///
/// A value over one storage object, copied on write: an evaluation is handed from the engine to the
/// trust (its last evaluation), to the caller and to judges, and each copy is one reference count
/// instead of a copy of every array in it (docs/performance.md).
public struct TrustEvaluation: Hashable, Sendable, CustomStringConvertible {
    /// Mutated only while uniquely referenced (copy on write), so never while shared between threads.
    private final class Storage: @unchecked Sendable {
        let result: TrustResult
        let chain: [Certificate]
        let endsAtAnchor: Bool
        let failures: [TrustFailure]
        let attempts: [PathAttempt]
        let signatureChecks: Int
        var revocationStatuses: [CertificateRevocationStatus]
        var validPolicies: ValidPolicySet?
        var enforced: Enforced
        var issuerFetchFailures: [FetchFailure]
        var certificateTransparency: CertificateTransparencyReport?

        init(
            result: TrustResult, chain: [Certificate], endsAtAnchor: Bool, failures: [TrustFailure], attempts: [PathAttempt],
            signatureChecks: Int, revocationStatuses: [CertificateRevocationStatus], validPolicies: ValidPolicySet?,
            certificateTransparency: CertificateTransparencyReport?, enforced: Enforced, issuerFetchFailures: [FetchFailure]
        ) {
            self.result = result
            self.chain = chain
            self.endsAtAnchor = endsAtAnchor
            self.failures = failures
            self.attempts = attempts
            self.signatureChecks = signatureChecks
            self.revocationStatuses = revocationStatuses
            self.validPolicies = validPolicies
            self.certificateTransparency = certificateTransparency
            self.enforced = enforced
            self.issuerFetchFailures = issuerFetchFailures
        }

        var copy: Storage {
            Storage(
                result: result, chain: chain, endsAtAnchor: endsAtAnchor, failures: failures, attempts: attempts,
                signatureChecks: signatureChecks, revocationStatuses: revocationStatuses, validPolicies: validPolicies,
                certificateTransparency: certificateTransparency, enforced: enforced, issuerFetchFailures: issuerFetchFailures)
        }
    }

    private var storage: Storage

    /// The storage, copied first when another value shares it.
    private var uniqueStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy }
            return storage
        }
    }

    /// An evaluation with every field given at once (its storage is written once, not field by
    /// field): what the engine found, what it `enforced` and the caIssuers fetches that gave
    /// nothing before it.
    init(
        result: TrustResult, chain: [Certificate], endsAtAnchor: Bool, failures: [TrustFailure], attempts: [PathAttempt],
        signatureChecks: Int, revocationStatuses: [CertificateRevocationStatus] = [], validPolicies: ValidPolicySet? = nil,
        certificateTransparency: CertificateTransparencyReport? = nil, enforced: Enforced, issuerFetchFailures: [FetchFailure]
    ) {
        storage = Storage(
            result: result, chain: chain, endsAtAnchor: endsAtAnchor, failures: failures, attempts: attempts,
            signatureChecks: signatureChecks, revocationStatuses: revocationStatuses, validPolicies: validPolicies,
            certificateTransparency: certificateTransparency, enforced: enforced, issuerFetchFailures: issuerFetchFailures)
    }

    /// The result.
    public var result: TrustResult { storage.result }
    /// The chain that was built, leaf first, ending at the anchor when trusted (or the best
    /// partial chain when not).
    public var chain: [Certificate] { storage.chain }
    /// Whether `chain` ends at a trust anchor (true for every trusted chain; also for a complete
    /// chain that failed another rule).
    public var endsAtAnchor: Bool { storage.endsAtAnchor }
    /// Every failure, each naming the certificate and rule; empty when trusted.
    public var failures: [TrustFailure] { storage.failures }
    /// Every candidate path the builder explored, for diagnostics.
    public var attempts: [PathAttempt] { storage.attempts }
    /// Signature verifications performed.
    public var signatureChecks: Int { storage.signatureChecks }
    /// The revocation status found for each certificate of `chain` (empty without a revocation policy).
    public var revocationStatuses: [CertificateRevocationStatus] {
        get { storage.revocationStatuses }
        set { uniqueStorage.revocationStatuses = newValue }
    }
    /// The caIssuers URLs a fetching evaluation asked that gave nothing, and why.
    var issuerFetchFailures: [FetchFailure] {
        get { storage.issuerFetchFailures }
        set { uniqueStorage.issuerFetchFailures = newValue }
    }
    /// Every fetch that gave nothing, and why: the caIssuers URLs asked for a missing issuer, then
    /// the CRL and OCSP URLs of each certificate (``CertificateRevocationStatus/fetchFailures``).
    /// Those of the last fetching evaluation of the trust are reported by later evaluations too.
    public var fetchFailures: [FetchFailure] { issuerFetchFailures + revocationStatuses.flatMap(\.fetchFailures) }
    /// The certificate policies the trusted chain is valid for (RFC 5280 §6.1.6); nil when not trusted.
    public var validPolicies: ValidPolicySet? {
        get { storage.validPolicies }
        set { uniqueStorage.validPolicies = newValue }
    }
    /// Certificate Transparency for the chain that validated, when logs are configured
    /// (``TrustConfiguration/certificateTransparencyLogs``): whether it is CT-qualified
    /// (`kSecTrustCertificateTransparency`), the SCTs that counted and why the others did not, and
    /// whether CT was required. Nil without logs, and when no chain validated.
    public internal(set) var certificateTransparency: CertificateTransparencyReport? {
        get { storage.certificateTransparency }
        set { uniqueStorage.certificateTransparency = newValue }
    }
    /// What this evaluation enforced: the profile rules and revocation flags of its policies and of
    /// the trust's ``TrustOptions`` together. A transport checks it before it accepts a judge's word
    /// (a judge must not accept on an evaluation that did not apply the configured options).
    public internal(set) var enforced: Enforced {
        get { storage.enforced }
        set { uniqueStorage.enforced = newValue }
    }

    /// The rules, revocation flags and other options one evaluation applied.
    public struct Enforced: Hashable, Sendable {
        /// Every profile rule applied.
        public let rules: ProfileRuleSet
        /// The revocation flags checked; nil when revocation was not checked.
        public let revocation: RevocationOptions?
        /// The trust's options the evaluation ran with (its depth limit, policy inputs, ...).
        let options: TrustOptions
        /// The Certificate Transparency logs the evaluation applied; nil when none were configured.
        let certificateTransparencyLogs: CTLogSelection?

        init(
            rules: ProfileRuleSet, revocation: RevocationOptions?, options: TrustOptions,
            certificateTransparencyLogs: CTLogSelection? = nil
        ) {
            self.rules = rules
            self.revocation = revocation
            self.options = options
            self.certificateTransparencyLogs = certificateTransparencyLogs
        }

        /// Whether this evaluation applied at least what `options` require: every rule of its
        /// profile; revocation at least as strict (checked at all, by every method asked for, and
        /// hard fail when asked; `.preferCRL` orders the fetches only, `.networkAccessDisabled`
        /// says where information comes from, not what is checked); and every other setting that
        /// ``TrustOptions/requiresEvaluation`` counts, as it is.
        public func covers(_ options: TrustOptions) -> Bool {
            if let profile = options.profile, rules.union(profile.rules) != rules { return false }
            if let wanted = options.revocation {
                guard let revocation else { return false }
                // Neither method flag means every method (RevocationChecker): a CRL-only check is no OCSP check.
                for method in RevocationMethodRegistry.methods where wanted.checks(method) && !revocation.checks(method) {
                    return false
                }
                if wanted.contains(.requirePositiveResponse) && !revocation.contains(.requirePositiveResponse) { return false }
            }
            return options.settingsApplied(by: self.options)
        }

        /// Whether this evaluation applied at least what `configuration` requires: its options
        /// (``covers(_:)-(TrustOptions)``) and, when logs are configured, Certificate Transparency
        /// against those same logs.
        public func covers(_ configuration: TrustConfiguration) -> Bool {
            guard covers(configuration.options) else { return false }
            return coversCertificateTransparency(of: configuration)
        }

        /// Whether this evaluation applied the Certificate Transparency logs `configuration` asks
        /// for (true when it asks for none).
        public func coversCertificateTransparency(of configuration: TrustConfiguration) -> Bool {
            guard let wanted = configuration.certificateTransparencyLogs else { return true }
            return certificateTransparencyLogs == wanted
        }
    }

    /// The profile rules the failures name, in order (a rule broken by several certificates once).
    public var violatedRules: [ProfileRule] {
        var rules: [ProfileRule] = []
        for failure in failures {
            if case let .profileViolation(violation) = failure.reason, !rules.contains(violation.rule) { rules.append(violation.rule) }
        }
        return rules
    }

    /// Whether the chain is trusted.
    public var isTrusted: Bool { result.isTrusted }

    /// Whether the chain is trusted by an evaluation that applied at least what `options` require
    /// (``Enforced/covers(_:)-(TrustOptions)``): the only evaluation an acceptance under `options` may rest on.
    public func isTrusted(enforcing options: TrustOptions) -> Bool { isTrusted && enforced.covers(options) }

    /// Whether the chain is trusted by an evaluation that applied at least what `configuration`
    /// requires (``Enforced/covers(_:)-(TrustConfiguration)``): its options and its Certificate
    /// Transparency logs.
    public func isTrusted(enforcing configuration: TrustConfiguration) -> Bool { isTrusted && enforced.covers(configuration) }

    /// `trusted` or `not trusted` followed by one failure per line.
    public var description: String {
        if isTrusted { return "trusted" }
        return (["not trusted (\(result))"] + failures.map { "  - \($0)" }).joined(separator: "\n")
    }

    /// Equal when the verdicts are: result, chain, failures, revocation statuses, valid policies
    /// and the Certificate Transparency result.
    /// The paths explored and the signature checks counted are work, which caches change, not the
    /// verdict.
    public static func == (lhs: TrustEvaluation, rhs: TrustEvaluation) -> Bool {
        lhs.storage === rhs.storage
            || lhs.result == rhs.result && lhs.chain == rhs.chain && lhs.endsAtAnchor == rhs.endsAtAnchor
                && lhs.failures == rhs.failures && lhs.revocationStatuses == rhs.revocationStatuses
                && lhs.validPolicies == rhs.validPolicies && lhs.certificateTransparency == rhs.certificateTransparency
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(result)
        hasher.combine(chain)
        hasher.combine(endsAtAnchor)
        hasher.combine(failures)
        hasher.combine(revocationStatuses)
        hasher.combine(validPolicies)
        hasher.combine(certificateTransparency)
    }
}

/// The error thrown by ``ServerTrust/evaluateWithError()``.
public struct TrustEvaluationError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The full evaluation, including the chain and every failure.
    public let evaluation: TrustEvaluation

    /// The failures, one per line, each naming the certificate and the rule it broke.
    public var description: String { evaluation.description }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// Where to read what to fix.
    public var recoverySuggestion: String? {
        "each failure names the certificate (0 = leaf) and the rule it broke; ChainDiagnostics (trustctl chain) says what to "
            + "fix for each certificate"
    }
}

extension TrustEvaluation {
    /// `self`, rejected because a later step of the same evaluation (a fetching evaluation's
    /// verification of what it fetched) ran out of budget: never a pass.
    func stopped(by exhaustion: BudgetExhausted) -> TrustEvaluation {
        TrustEvaluation(
            result: .fatalTrustFailure, chain: chain, endsAtAnchor: endsAtAnchor,
            failures: failures.contains(exhaustion.failure) ? failures : failures + [exhaustion.failure],
            attempts: attempts, signatureChecks: signatureChecks, revocationStatuses: revocationStatuses,
            enforced: enforced, issuerFetchFailures: issuerFetchFailures)
    }
}

extension TrustEvaluation {
    /// `self`, decided on a chain an earlier pass of the same evaluation found: that pass's
    /// `attempts` are the paths explored, and its signature checks count too.
    func explored(_ attempts: [PathAttempt], signatureChecks earlier: Int) -> TrustEvaluation {
        TrustEvaluation(
            result: result, chain: chain, endsAtAnchor: endsAtAnchor, failures: failures,
            attempts: attempts, signatureChecks: earlier + signatureChecks, revocationStatuses: revocationStatuses,
            validPolicies: validPolicies, certificateTransparency: certificateTransparency, enforced: enforced,
            issuerFetchFailures: issuerFetchFailures)
    }
}
