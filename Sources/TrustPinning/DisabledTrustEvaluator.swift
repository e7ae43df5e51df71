import TrustCore

/// Accepts every trust without looking at it: Alamofire 5's `DisabledTrustEvaluator`.
///
/// **Never use it in production.** For test servers, trust their CA instead
/// (``PinnedCertificatesTrustEvaluator`` with `acceptSelfSignedCertificates: true`).
public struct DisabledTrustEvaluator: ServerTrustEvaluating {
    /// Creates the evaluator.
    public init() {}

    /// Does nothing: every trust is accepted.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {}
}
