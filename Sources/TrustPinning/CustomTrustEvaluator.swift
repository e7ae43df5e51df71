import TrustCore

/// An evaluator defined by a closure, for rules the others do not cover.
///
/// The closure accepts by returning and rejects by throwing. A thrown
/// ``ServerTrustFailureReason`` passes through unchanged (so the closure can reuse other
/// evaluators); any other error is wrapped in
/// ``ServerTrustFailureReason/customEvaluationFailed(host:error:)``.
///
/// ```swift
/// struct ChainTooLong: Error {}
/// let shortChains = CustomTrustEvaluator { trust, host in
///     guard trust.certificates.count <= 3 else { throw ChainTooLong() }
/// }
/// ```
public struct CustomTrustEvaluator: ServerTrustEvaluating {
    private let body: @Sendable (ServerTrust, String) throws -> Void

    /// Creates an evaluator that runs `body(trust, host)`.
    public init(_ body: @escaping @Sendable (_ trust: ServerTrust, _ host: String) throws -> Void) {
        self.body = body
    }

    /// Runs the closure; throws ``ServerTrustFailureReason`` when it throws.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        do {
            try body(trust, host)
        } catch let reason as ServerTrustFailureReason {
            throw reason
        } catch {
            throw ServerTrustFailureReason.customEvaluationFailed(host: host, error: ComparableError(error))
        }
    }
}
