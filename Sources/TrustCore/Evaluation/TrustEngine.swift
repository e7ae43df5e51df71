import Foundation
import TrustCrypto
import TrustDER
import TrustX509

/// The evaluation engine behind ``ServerTrust``: one snapshot of the configuration in, one
/// ``TrustEvaluation`` out. It resolves the instant and the anchors, derives the validation options
/// from the policies and ``TrustOptions``, builds the ``EvaluationContext`` once, lets the builder
/// propose paths that the validator (and, for complete paths, revocation) decides, and reports
/// the chosen path or the most specific failure.
enum TrustEngine {
    /// Evaluates `config`. `meter`, when given, is the budget already drawn on by this evaluation's
    /// earlier steps (a fetching evaluation's first pass); `systemTrustStore` supplies the system
    /// anchors when they are needed (a parameter so tests can supply an unusable configuration
    /// without changing the process environment).
    static func evaluate(
        _ config: EvaluationSnapshot, meter: BudgetMeter? = nil,
        systemTrustStore: () throws(SystemTrustStoreError) -> SystemTrustStore = { () throws(SystemTrustStoreError) in
            try SystemTrustStore.shared
        }
    ) -> TrustEvaluation {
        withContext(config, meter: meter, systemTrustStore: systemTrustStore) { context, leaf, preFailures in
            search(context, from: leaf, preFailures: preFailures, of: config)
        }
    }

    /// Validates `chain` (leaf first, ending at an anchor: the chain an earlier pass of the same
    /// evaluation chose) under `config`, without searching for paths: the fetching evaluation's
    /// second look, once it has fetched revocation information for that chain. Trusted, or the
    /// failures of that one chain (the caller then searches again, for other paths and the explanation).
    static func revalidate(_ chain: [Certificate], _ config: EvaluationSnapshot, meter: BudgetMeter) -> TrustEvaluation {
        withContext(config, meter: meter, systemTrustStore: { () throws(SystemTrustStoreError) in try SystemTrustStore.shared }) {
            context, _, preFailures in
            let validator = context.validator
            var failures = preFailures
            do throws(BudgetExhausted) {
                failures += try validator.validate(chain, isComplete: true)
                guard failures.isEmpty else {
                    return failed(failures, of: config, chain: chain, anchored: true, checks: validator.signatures.verificationCount)
                }
                return try trusted(chain, attempts: [], validator: validator, of: config)
            } catch {
                return failed(
                    failures + [error.failure], of: config, chain: chain, anchored: true, checks: validator.signatures.verificationCount)
            }
        }
    }

    /// The trusted evaluation of `chain`, which `validator` validated: its revocation statuses and
    /// policies were computed (and remembered) then, so reading them costs nothing more.
    /// With logs configured, Certificate Transparency is evaluated last, on the validated chain (as
    /// trustd's `SecPolicyCheckSystemTrustedCTRequired` runs once the path validated): where CT is
    /// required and the chain is not qualified, the evaluation is a recoverable failure.
    private static func trusted(_ chain: [Certificate], attempts: [PathAttempt], validator: PathValidator, of config: EvaluationSnapshot)
        throws(BudgetExhausted) -> TrustEvaluation
    {
        let statuses = try validator.revocation(of: chain)?.statuses ?? []
        let policies = try validator.validPolicies(of: chain)
        var transparency: CertificateTransparencyReport?
        if let check = validator.transparency, let anchor = chain.last {
            let rootSource = validator.rootClassifier?.source(of: anchor) ?? .caller
            transparency = try check.report(for: chain, rootSource: rootSource, budget: validator.budget)
        }
        if let transparency, transparency.isRequiredButNotQualified {
            let failure = TrustFailure(.certificateTransparencyRequired(transparency.evaluation), certificate: chain[0], index: 0)
            return failed(
                [failure], of: config, chain: chain, anchored: true, attempts: attempts, checks: validator.signatures.verificationCount,
                statuses: statuses, transparency: transparency)
        }
        return TrustEvaluation(
            result: .unspecified, chain: chain, endsAtAnchor: true, failures: [], attempts: attempts,
            signatureChecks: validator.signatures.verificationCount, revocationStatuses: statuses, validPolicies: policies,
            certificateTransparency: transparency, enforced: config.enforced, issuerFetchFailures: config.issuerFetchFailures)
    }

    /// A rejection of `config`: fatal when any failure is.
    private static func failed(
        _ failures: [TrustFailure], of config: EvaluationSnapshot, chain: [Certificate] = [], anchored: Bool = false,
        attempts: [PathAttempt] = [], checks: Int = 0, statuses: [CertificateRevocationStatus] = [],
        transparency: CertificateTransparencyReport? = nil
    ) -> TrustEvaluation {
        let fatal = failures.contains { $0.reason.severity == .fatal }
        return TrustEvaluation(
            result: fatal ? .fatalTrustFailure : .recoverableTrustFailure, chain: chain,
            endsAtAnchor: anchored, failures: failures, attempts: attempts, signatureChecks: checks, revocationStatuses: statuses,
            certificateTransparency: transparency, enforced: config.enforced, issuerFetchFailures: config.issuerFetchFailures)
    }

    /// Resolves `config` (the instant, the validation options, the anchors, the pool, the system
    /// anchors) into the evaluation's context and hands it to `body` with the leaf and the failures
    /// found on the way (reference identities that are not valid names); or returns the failure that
    /// ends the evaluation before any path is looked at.
    private static func withContext(
        _ config: EvaluationSnapshot, meter: BudgetMeter?,
        systemTrustStore: () throws(SystemTrustStoreError) -> SystemTrustStore,
        _ body: (consuming EvaluationContext, Certificate, [TrustFailure]) -> TrustEvaluation
    ) -> TrustEvaluation {
        guard let leaf = config.certificates.first else {
            return failed([TrustFailure(.noCertificates, certificate: nil, index: nil)], of: config)
        }
        // A peer's list longer than any real chain is refused before it is indexed (docs/robustness.md).
        let presentedLimit = config.options.budget.maximumPresentedCertificates
        guard config.certificates.count <= presentedLimit else {
            return failed(
                [
                    TrustFailure(
                        .tooManyCertificates(presented: config.certificates.count, limit: presentedLimit),
                        certificate: nil, index: nil)
                ], of: config)
        }

        // Policies and options → the validation request (every field given, none defaulted).
        let date = config.configuration.verifyDate ?? Date()
        guard let time = DERTime(timeIntervalSince1970: date.timeIntervalSince1970) else {
            return failed(
                [TrustFailure(.verifyDateOutOfRange("\(date.timeIntervalSince1970)"), certificate: nil, index: nil)], of: config)
        }
        let prepared = config.policies
        let options = ValidationRequest(
            verifyTime: time,
            rules: config.options.enforcesAnchorConstraints ? config.rules.union(ProfileRuleRegistry.anchorConstraintRules) : config.rules,
            purposes: prepared.purposes, identities: prepared.identities, emailAddresses: prepared.emailAddresses,
            revocation: config.revocation, options: config.options)
        let preFailures = prepared.invalidHostnames.map {
            TrustFailure(.invalidReferenceIdentity($0), certificate: leaf, index: 0)
        }

        // Anchors: custom ones (plus the system store unless anchorsOnly), else the system store.
        // An unusable explicit system configuration fails closed: never the distribution bundle instead.
        var anchors: CertificateStore
        if let custom = config.configuration.anchorStore, config.configuration.anchorsOnly {
            anchors = custom
        } else {
            let system: SystemTrustStore
            do { system = try systemTrustStore() } catch {
                return failed([TrustFailure(.systemTrustStoreUnavailable(error), certificate: nil, index: nil)], of: config)
            }
            if let custom = config.configuration.anchorStore {
                anchors = custom
                for certificate in system.store.certificates { anchors.insert(certificate) }
            } else {
                anchors = system.store
            }
        }
        var intermediates = CertificateStore()
        for certificate in config.certificates.dropFirst() { intermediates.insert(certificate) }
        for certificate in config.configuration.additionalIntermediates { intermediates.insert(certificate) }

        // Apple scopes some TLS server rules, and Certificate Transparency, by how the root is trusted (AnchorSource): trustd asks its
        // system and user anchor sources whatever the caller's anchors were, so the system store is
        // consulted (never trusted) even when the caller trusts only their own anchors.
        var rootClassifier: SystemTrustStore?
        if options.purposes.contains(.serverAuth),
            config.transparency != nil || !options.rules.intersection(ProfileRuleRegistry.anchorSourceRules).isEmpty
        {
            // An unusable system store holds no root (and, as an anchor source, has failed the evaluation already).
            rootClassifier = try? systemTrustStore()
        }

        // Configuration -> context (built once) -> builder -> validator -> revocation -> result.
        let context = EvaluationContext(
            options: options, anchors: anchors, intermediates: intermediates,
            signatures: SignatureChecker(policy: config.options.signaturePolicy),
            budget: meter ?? BudgetMeter(config.options.budget),
            revocationInputs: config.configuration.revocationInputs, maximumIntermediates: config.options.maximumDepth,
            rootClassifier: rootClassifier)
        if var transparency = config.transparency {
            transparency.date = date // the evaluation's one instant (an SCT from after it does not count)
            context.validator.transparency = transparency
        }
        return body(context, leaf, preFailures)
    }

    /// Searches paths from `leaf` (builder, validator, revocation) and reports the chosen path or the
    /// most specific failure.
    private static func search(
        _ context: consuming EvaluationContext, from leaf: Certificate,
        preFailures: [TrustFailure], of config: EvaluationSnapshot
    ) -> TrustEvaluation {
        let validator = context.validator
        let signatures = validator.signatures
        var context = context
        let result = context.build(from: leaf)
        // The one exhaustion of this evaluation, if the budget ran out (while building, or below).
        var exhaustion = result.exhaustion

        if let chain = result.validChain, preFailures.isEmpty, exhaustion == nil {
            do throws(BudgetExhausted) {
                return try trusted(chain, attempts: result.attempts, validator: validator, of: config)
            } catch {
                exhaustion = error
            }
        }
        var failures = preFailures
        var chain = result.validChain ?? []
        var anchored = result.validChain != nil
        var statuses: [CertificateRevocationStatus] = []
        if result.validChain == nil, let best = result.bestFailedAttempt {
            anchored = best.outcome == .invalid
            chain = best.outcome == .rejectedIssuer ? Array(best.chain.dropLast()) : best.chain
            failures.append(contentsOf: best.failures)
        }
        // The explanation's extra work (the rest of a path whose issuer was rejected, an anchored
        // path's statuses) draws on the same budget; running out there is one more exhaustion.
        if exhaustion == nil {
            do throws(BudgetExhausted) {
                if result.validChain == nil, result.bestFailedAttempt?.outcome == .rejectedIssuer {
                    failures.append(contentsOf: try validator.validate(chain, isComplete: false))
                }
                if anchored { statuses = try validator.revocation(of: chain)?.statuses ?? [] }
            } catch {
                exhaustion = error
            }
        }
        // An evaluation that could not finish its checks is rejected for it, whatever else it found.
        if let exhaustion, !failures.contains(exhaustion.failure) { failures.append(exhaustion.failure) }
        if failures.isEmpty { failures.append(TrustFailure(.untrustedRoot, certificate: leaf, index: 0)) }
        return failed(
            failures, of: config, chain: chain, anchored: anchored, attempts: result.attempts, checks: signatures.verificationCount,
            statuses: statuses)
    }
}
