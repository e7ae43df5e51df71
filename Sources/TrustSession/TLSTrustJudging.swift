import TrustCore

/// A judge another module supplies for ``TLSTrustJudge/custom(_:)``: it decides whether the
/// `ServerTrust` that ``TLSTrustSettings`` configured for a server is acceptable for a host.
///
/// TrustPinning's Alamofire-style evaluators and AFNetworking-style `SecurityPolicy` are judges of
/// this kind (`TLSTrustJudge.evaluator(_:)` and `TLSTrustJudge.securityPolicy(_:)` are declared
/// there). A judge may reconfigure the trust (its policies, its anchors), as the evaluators do;
/// whatever it does, ``TLSTrustDecider`` accepts only on an evaluation that enforced the settings'
/// options.
///
/// ```swift
/// /// Trusts only chains of at most three certificates.
/// struct ShortChains: TLSTrustJudging {
///     struct Refusal: TLSTrustJudgeFailure {
///         let trustFailures: [TrustFailure]
///         let length: Int
///         var description: String { trustFailures.isEmpty ? "the chain has \(length) certificates" : "not trusted" }
///     }
///
///     func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)? {
///         let evaluation = trust.evaluate()
///         guard evaluation.isTrusted else { return Refusal(trustFailures: evaluation.failures, length: 0) }
///         return evaluation.chain.count > 3 ? Refusal(trustFailures: [], length: evaluation.chain.count) : nil
///     }
/// }
/// let decider = try TLSTrustDecider(settings: settings, judge: .custom(ShortChains()))
/// ```
public protocol TLSTrustJudging: Sendable {
    /// The judge's name in errors (``TLSTrustConfigurationError``). Default: the type's name.
    var name: String { get }

    /// Whether this judge, as configured, may accept a peer without evaluating its chain (a pinning
    /// evaluator with validation turned off). ``TLSTrustDecider`` then refuses settings that ask for
    /// what only an evaluation checks (a profile, revocation, a required identity). Default: false
    /// (an acceptance is still checked when the judge decides).
    var acceptsWithoutEvaluating: Bool { get }

    /// Whether the judge's own evaluation fetches revocation information for some host (Alamofire's
    /// `RevocationTrustEvaluator`). Default: false.
    var fetchesRevocation: Bool { get }

    /// The revocation flags the judge's evaluation of a trust for `host` would fetch with, which the
    /// decider fetches first (judges never fetch by themselves); nil when it fetches nothing.
    /// Default: nil.
    func revocationToFetch(forHost host: String) -> RevocationOptions?

    /// Judges `trust`, which may be reconfigured: nil to accept, or why the peer is rejected.
    ///
    /// - Parameters:
    ///   - trust: The peer's certificates under the settings' configuration.
    ///   - host: The host connected to (nil when the transport does not know it).
    ///   - port: The port connected to, when the transport knows it.
    func rejection(of trust: ServerTrust, host: String?, port: Int?) -> (any TLSTrustJudgeFailure)?
}

extension TLSTrustJudging {
    /// The type's name.
    public var name: String { String(describing: type(of: self)) }

    /// False: an acceptance is checked when the judge decides.
    public var acceptsWithoutEvaluating: Bool { false }

    /// False: the judge fetches nothing.
    public var fetchesRevocation: Bool { false }

    /// Nil: the judge fetches nothing.
    public func revocationToFetch(forHost host: String) -> RevocationOptions? { nil }
}
