import TrustCore

/// Runs several evaluators in order and accepts only if all accept: Alamofire 5's
/// `CompositeTrustEvaluator`. The first failure is thrown. With no evaluators it accepts anything,
/// as Alamofire's does, so always give it at least one.
///
/// ```swift
/// let evaluator = CompositeTrustEvaluator(evaluators: [
///     DefaultTrustEvaluator(),
///     try PinnedSPKIHashesTrustEvaluator(pins: pins, performDefaultValidation: false, validateHost: false),
/// ])
/// ```
public struct CompositeTrustEvaluator: ServerTrustEvaluating {
    /// The evaluators, run in order.
    public let evaluators: [any ServerTrustEvaluating]

    /// Creates the evaluator.
    public init(evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    /// Runs every evaluator; rethrows the first failure.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        for evaluator in evaluators {
            try evaluator.evaluate(trust, forHost: host)
        }
    }

    /// Runs every evaluator with the port; rethrows the first failure.
    public func evaluate(_ trust: ServerTrust, forHost host: String, port: Int?) throws {
        for evaluator in evaluators {
            try evaluator.evaluate(trust, forHost: host, port: port)
        }
    }
}
