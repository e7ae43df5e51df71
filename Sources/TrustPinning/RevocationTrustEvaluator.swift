import TrustCore

/// Default and host validation followed by a revocation check: Alamofire 5's `RevocationTrustEvaluator`.
///
/// The revocation check is one more evaluation of the trust under the policies the validation used
/// (`.ssl` with the host when `validateHost`, without it when only `performDefaultValidation`,
/// `.basicX509` when neither) plus `.revocation(options)`, so it checks the very chain that
/// validation accepts: same purpose, host and profile. The evaluation is synchronous and uses what
/// revocation information the trust has (CRLs and OCSP responses supplied to it, e.g. a stapled
/// response, and what an earlier ``ServerTrust/evaluate(fetching:within:)`` kept). As with Apple's
/// `SecPolicyCreateRevocation`, whose evaluation sends OCSP requests unless the options disable
/// network access, a TLS decision that may wait (`TLSTrustDecider.decide`) fetches for it first.
///
/// What fails follows `options`, as with Apple's `SecPolicyCreateRevocation`:
/// - a revoked certificate (from any valid source) always throws
///   ``ServerTrustFailureReason/trustEvaluationFailed(host:stage:failures:)`` at stage
///   ``TrustEvaluationStage/revocation(_:)``;
/// - a certificate whose status is unknown throws only under `.requirePositiveResponse` (hard fail:
///   ``ServerTrustFailureReason/isRevocationUnavailable`` is then true); with the default options an
///   unknown status is accepted (soft fail);
/// - a CRL the caller supplied that names the issuer but fails its integrity checks always throws.
public struct RevocationTrustEvaluator: ServerTrustEvaluating {
    /// The revocation flags (Apple's `kSecRevocation*` options).
    public typealias Options = RevocationOptions

    let validation: StandardValidation
    private let options: RevocationOptions

    /// The revocation flags it checks with.
    var revocationOptions: RevocationOptions { options }

    /// Creates the evaluator.
    ///
    /// - Parameters:
    ///   - performDefaultValidation: Whether to run default validation first. Default true.
    ///   - validateHost: Whether to validate the host name (a full evaluation, see
    ///     ``DefaultTrustEvaluator``). Default true.
    ///   - options: How to check revocation. Default: any available method, soft fail.
    public init(
        performDefaultValidation: Bool = true, validateHost: Bool = true,
        options: RevocationOptions = .useAnyAvailableMethod
    ) {
        validation = StandardValidation(performDefaultValidation: performDefaultValidation, validateHost: validateHost)
        self.options = options
    }

    /// Validates, then checks revocation on the validated chain; replaces the trust's policies.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try validation.run(on: trust, forHost: host)
        let evaluation = trust.evaluate(policies: validationPolicies(forHost: host) + [.revocation(options)])
        guard evaluation.isTrusted else {
            throw ServerTrustFailureReason.trustEvaluationFailed(host: host, stage: .revocation(options), failures: evaluation.failures)
        }
    }

    /// The policies the validation step evaluated with (the strictest of its evaluations).
    private func validationPolicies(forHost host: String) -> [TrustPolicy] {
        if validation.validateHost { return [.ssl(server: true, hostname: host)] }
        if validation.performDefaultValidation { return [.ssl(server: true, hostname: nil)] }
        return [.basicX509]
    }
}
