import TrustCore

/// Accepts a trust that passes default validation, and (unless `validateHost` is false) host-name
/// validation: Alamofire 5's `DefaultTrustEvaluator`.
///
/// Anchors are whatever the ``ServerTrust`` was configured with (the system store by default).
/// Keep `validateHost` on in production; turning it off accepts any trusted certificate for any host.
public struct DefaultTrustEvaluator: ServerTrustEvaluating {
    let validation: StandardValidation

    /// Creates the evaluator.
    ///
    /// - Parameter validateHost: Whether the leaf must be valid for the host. Default true.
    public init(validateHost: Bool = true) {
        validation = StandardValidation(performDefaultValidation: true, validateHost: validateHost)
    }

    /// Throws ``ServerTrustFailureReason/trustEvaluationFailed(host:stage:failures:)`` (stage
    /// ``TrustEvaluationStage/defaultValidation`` or ``TrustEvaluationStage/hostValidation``);
    /// replaces the trust's policies.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try validation.run(on: trust, forHost: host)
    }
}
