import TrustCore

/// Maps hosts to evaluators: Alamofire 5's `ServerTrustManager`, with host patterns beyond
/// Alamofire's exact match (see ``HostPattern``: `host`, `*.domain`, `**.domain`; the most
/// specific matching pattern wins; comparison is case-insensitive after IDNA normalisation).
///
/// ```swift
/// let manager = try ServerTrustManager(evaluators: [
///     "api.example.com": PinnedCertificatesTrustEvaluator(certificates: pinned),
///     "**.example.com": DefaultTrustEvaluator(),
///     "localhost": DisabledTrustEvaluator(),
/// ])
/// try manager.evaluate(trust, forHost: "api.example.com")
/// ```
public struct ServerTrustManager: ServerTrustEvaluating {
    /// Whether a host without an evaluator is rejected (``ServerTrustFailureReason/noRequiredEvaluator(host:)``).
    public let allHostsMustBeEvaluated: Bool
    /// The evaluators by pattern, as given.
    public let evaluators: [String: any ServerTrustEvaluating]

    /// Patterns with their evaluators, most specific first.
    private let entries: [(pattern: HostPattern, evaluator: any ServerTrustEvaluating)]

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - allHostsMustBeEvaluated: Whether hosts matching no pattern are rejected. Default true.
    ///   - evaluators: Evaluators keyed by host pattern.
    /// - Throws: ``PinningConfigurationError/invalidHostPattern(_:reason:)`` or
    ///   ``PinningConfigurationError/duplicateHostPattern(_:normalized:)``: a pattern that could never
    ///   match is a configuration error, not a silently unpinned host.
    public init(allHostsMustBeEvaluated: Bool = true,
                evaluators: [String: any ServerTrustEvaluating]) throws(PinningConfigurationError) {
        try self.init(allHostsMustBeEvaluated: allHostsMustBeEvaluated,
                      patterns: evaluators.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) })
    }

    /// Creates a manager from patterns and evaluators in order; the same evaluator may serve
    /// several patterns.
    init(allHostsMustBeEvaluated: Bool, patterns: [(String, any ServerTrustEvaluating)]) throws(PinningConfigurationError) {
        var entries: [(pattern: HostPattern, evaluator: any ServerTrustEvaluating)] = []
        var seen: [HostPattern: String] = [:]
        var byText: [String: any ServerTrustEvaluating] = [:]
        for (text, evaluator) in patterns {
            let pattern = try HostPattern(text)
            if seen[pattern] != nil { throw .duplicateHostPattern(text, normalized: pattern.description) }
            seen[pattern] = text
            entries.append((pattern, evaluator))
            byText[text] = evaluator
        }
        self.entries = entries.sorted { $0.pattern.specificity.lexicographicallyPrecedes($1.pattern.specificity) }.reversed()
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        self.evaluators = byText
    }

    /// The most specific pattern matching `host`, if any.
    public func matchingPattern(forHost host: String) -> HostPattern? {
        guard let normalized = HostPattern.normalize(host) else { return nil }
        return entries.first { $0.pattern.matches(normalized: normalized) }?.pattern
    }

    /// The evaluator for `host`: that of the most specific matching pattern, or nil when none
    /// matches and not all hosts must be evaluated.
    ///
    /// - Throws: ``ServerTrustFailureReason/noRequiredEvaluator(host:)`` when none matches and all
    ///   hosts must be evaluated.
    public func serverTrustEvaluator(forHost host: String) throws(ServerTrustFailureReason) -> (any ServerTrustEvaluating)? {
        if let normalized = HostPattern.normalize(host),
           let entry = entries.first(where: { $0.pattern.matches(normalized: normalized) }) {
            return entry.evaluator
        }
        if allHostsMustBeEvaluated { throw .noRequiredEvaluator(host: host) }
        return nil
    }

    /// Evaluates `trust` with the evaluator for `host`. A host without an evaluator (allowed when
    /// not all hosts must be evaluated) gets ``DefaultTrustEvaluator`` — what Alamofire's
    /// `URLSession` default handling does — never a free pass.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try evaluate(trust, forHost: host, port: nil)
    }

    /// Evaluates `trust` with the evaluator for `host`, passing the port on (for reports).
    public func evaluate(_ trust: ServerTrust, forHost host: String, port: Int?) throws {
        let evaluator = try serverTrustEvaluator(forHost: host) ?? DefaultTrustEvaluator()
        try evaluator.evaluate(trust, forHost: host, port: port)
    }
}
