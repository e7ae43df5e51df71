import TrustCore

/// Accepts every trust without looking at it: Alamofire 5's `DisabledTrustEvaluator`.
///
/// **Never use it in production.** For test servers, trust their CA instead
/// (``PinnedCertificatesTrustEvaluator`` with `acceptSelfSignedCertificates: true`).
public struct DisabledTrustEvaluator: ServerTrustEvaluating {
    /// Creates the evaluator.
    public init() {}

    /// Accepts every trust, unless its ``ServerTrust/options`` ask for what only an evaluation
    /// checks: then throws ``ServerTrustFailureReason/optionsNotEnforceable(host:evaluator:options:)``.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try refuseSkippingEvaluation(of: trust, forHost: host)
    }
}
