import TrustCore

/// An evaluator that, as configured, can accept a trust without evaluating it: Alamofire's
/// `DisabledTrustEvaluator`, and its pinning evaluators with `performDefaultValidation` and
/// `validateHost` both false. With a configuration that needs an evaluation
/// (``TrustConfiguration/requiresEvaluation``: a profile, revocation, a maximum depth, policy inputs,
/// Certificate Transparency logs, ...) such an evaluator cannot honour it; the transport refuses the combination when it is
/// configured, and the evaluator itself throws
/// ``ServerTrustFailureReason/optionsNotEnforceable(host:evaluator:options:)`` rather than drop them.
package protocol EvaluationSkipping {
    /// Whether this evaluator accepts some trust without evaluating it.
    var acceptsWithoutEvaluating: Bool { get }
}

extension ServerTrustEvaluating {
    /// Whether this evaluator, as configured, may accept a trust without evaluating it; false for
    /// evaluators this module does not know (a custom type is checked when it decides: a transport
    /// accepts only on an evaluation that applied the options, ``TrustEvaluation/Enforced``).
    package var acceptsWithoutEvaluating: Bool {
        (self as? any EvaluationSkipping)?.acceptsWithoutEvaluating ?? false
    }

    /// The name errors use for this evaluator: its type's.
    package var evaluatorName: String { String(describing: type(of: self)) }

    /// Throws ``ServerTrustFailureReason/optionsNotEnforceable(host:evaluator:options:)`` when this
    /// evaluator would accept `trust` without evaluating it while its options need an evaluation
    /// that has not been made: a current trusted evaluation that applied them (by another member of
    /// a ``CompositeTrustEvaluator``, or the transport's fetching evaluation) is enough.
    package func refuseSkippingEvaluation(of trust: ServerTrust, forHost host: String) throws(ServerTrustFailureReason) {
        let configuration = trust.configuration
        guard acceptsWithoutEvaluating, configuration.requiresEvaluation, !trust.hasTrustedEvaluationEnforcing(configuration) else { return }
        if configuration.options.requiresEvaluation {
            throw .optionsNotEnforceable(host: host, evaluator: evaluatorName, options: configuration.options)
        }
        throw .certificateTransparencyNotEnforceable(host: host, evaluator: evaluatorName)
    }
}

extension ServerTrust {
    /// Whether the last evaluation is current, trusted, and applied `configuration` (this trust's):
    /// its options and its Certificate Transparency logs.
    package func hasTrustedEvaluationEnforcing(_ configuration: TrustConfiguration) -> Bool {
        lastEvaluation?.isTrusted(enforcing: configuration) ?? false
    }
}

extension StandardValidation {
    /// Whether ``run(on:forHost:)`` evaluates the trust at all.
    var evaluates: Bool { performDefaultValidation || validateHost }
}

extension DisabledTrustEvaluator: EvaluationSkipping {
    /// Always: it accepts every trust.
    package var acceptsWithoutEvaluating: Bool { true }
}

extension PinnedCertificatesTrustEvaluator: EvaluationSkipping {
    /// With default and host validation both off.
    package var acceptsWithoutEvaluating: Bool { !validation.evaluates }
}

extension PublicKeysTrustEvaluator: EvaluationSkipping {
    /// With default and host validation both off.
    package var acceptsWithoutEvaluating: Bool { !validation.evaluates }
}

extension PinnedSPKIHashesTrustEvaluator: EvaluationSkipping {
    /// With default and host validation both off.
    package var acceptsWithoutEvaluating: Bool { !validation.evaluates }
}

extension RevocationTrustEvaluator: EvaluationSkipping {
    /// Never: its revocation check is an evaluation (under `.basicX509` when both validations are off).
    package var acceptsWithoutEvaluating: Bool { false }
}

extension CompositeTrustEvaluator: EvaluationSkipping {
    /// When every member may: one member that evaluates applies the options to the whole.
    package var acceptsWithoutEvaluating: Bool { evaluators.allSatisfy(\.acceptsWithoutEvaluating) }
}

extension ServerTrustManager: EvaluationSkipping {
    /// When the evaluator of some host may (a host without one gets ``DefaultTrustEvaluator``).
    package var acceptsWithoutEvaluating: Bool { evaluators.values.contains(where: \.acceptsWithoutEvaluating) }
}

extension SecurityPolicy {
    /// AFNetworking's `allowInvalidCertificates` accepts a chain that does not evaluate (with pinning
    /// mode `.none` without evaluating at all; with pins, on the pins alone).
    package var acceptsWithoutEvaluating: Bool { allowInvalidCertificates }
}
