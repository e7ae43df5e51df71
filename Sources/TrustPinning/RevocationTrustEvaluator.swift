import TrustCore

/// Default and host validation followed by a revocation check: Alamofire 5's `RevocationTrustEvaluator`.
///
/// The check evaluates the trust under `.revocation(options)` (as Alamofire applies
/// `SecPolicyCreateRevocation`), so it uses whatever revocation support ``ServerTrust`` has: CRLs and
/// OCSP responses supplied to the trust, never the network (the evaluation is synchronous). Where
/// ``ServerTrust`` cannot check revocation it fails closed, and so does this evaluator: it throws
/// ``ServerTrustFailureReason/revocationCheckFailed(host:options:failures:)`` whose
/// ``ServerTrustFailureReason/isRevocationUnavailable`` is true ("revocation checking unavailable").
/// It never passes a status it could not check.
public struct RevocationTrustEvaluator: ServerTrustEvaluating {
    /// The revocation flags (Apple's `kSecRevocation*` options).
    public typealias Options = RevocationOptions

    private let validation: StandardValidation
    private let options: RevocationOptions

    /// Creates the evaluator.
    ///
    /// - Parameters:
    ///   - performDefaultValidation: Whether to run default validation first. Default true.
    ///   - validateHost: Whether to validate the host name (a full evaluation, see
    ///     ``DefaultTrustEvaluator``). Default true.
    ///   - options: How to check revocation. Default: any available method.
    public init(performDefaultValidation: Bool = true, validateHost: Bool = true,
                options: RevocationOptions = .useAnyAvailableMethod) {
        validation = StandardValidation(performDefaultValidation: performDefaultValidation, validateHost: validateHost)
        self.options = options
    }

    /// Validates, then checks revocation; replaces the trust's policies.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try validation.run(on: trust, forHost: host)
        let evaluation = trust.evaluate(policies: [.revocation(options)])
        guard evaluation.isTrusted else {
            throw ServerTrustFailureReason.revocationCheckFailed(host: host, options: options, failures: evaluation.failures)
        }
    }
}
