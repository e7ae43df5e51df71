import TrustCore

/// Maps hosts to evaluators: Alamofire 5's `ServerTrustManager`. By default the lookup is
/// Alamofire's, `evaluators[host]` (``HostMatching/exact``); ``HostMatching/hostPatterns`` matches
/// ``HostPattern``s instead (`host`, `*.domain`, `**.domain`; the most specific wins; compared
/// case-insensitively after IDNA normalisation).
///
/// ```swift
/// let manager = try ServerTrustManager(evaluators: [
///     "api.example.com": PinnedCertificatesTrustEvaluator(certificates: pinned),
///     "localhost": DisabledTrustEvaluator(),
/// ])
/// try manager.evaluate(trust, forHost: "api.example.com")
///
/// let patterns = try ServerTrustManager(matching: .hostPatterns, evaluators: [
///     "api.example.com": PinnedCertificatesTrustEvaluator(certificates: pinned),
///     "**.example.com": DefaultTrustEvaluator(),
/// ])
/// ```
///
/// Unlike Alamofire, whose initialiser accepts any key, a key that cannot name a host is refused in
/// both modes, and so is a wildcard key in exact mode, where it could never match.
public struct ServerTrustManager: ServerTrustEvaluating {
    /// Whether a host without an evaluator is rejected (``ServerTrustFailureReason/noRequiredEvaluator(host:)``).
    public let allHostsMustBeEvaluated: Bool
    /// The evaluators by key (host or pattern), as given.
    public let evaluators: [String: any ServerTrustEvaluating]
    /// How hosts find their key.
    public let matching: HostMatching

    /// Patterns with their evaluators, most specific first (``HostMatching/hostPatterns`` only).
    private let entries: [(pattern: HostPattern, evaluator: any ServerTrustEvaluating)]

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - allHostsMustBeEvaluated: Whether hosts without an evaluator are rejected. Default true.
    ///   - matching: How hosts find their key; default ``HostMatching/exact``, Alamofire's
    ///     `evaluators[host]`.
    ///   - evaluators: Evaluators keyed by host (``HostMatching/exact``) or host pattern
    ///     (``HostMatching/hostPatterns``).
    /// - Throws: a key that could never match is a configuration error, not a silently unpinned
    ///   host. Exact: ``PinningConfigurationError/invalidHost(_:reason:)``, or
    ///   ``PinningConfigurationError/wildcardNeedsHostPatterns(_:)`` for a `*.` or `**.` key.
    ///   Patterns: ``PinningConfigurationError/invalidHostPattern(_:reason:)`` or
    ///   ``PinningConfigurationError/duplicateHostPattern(_:normalized:)`` (two keys equal once
    ///   normalised).
    public init(
        allHostsMustBeEvaluated: Bool = true, matching: HostMatching = .exact,
        evaluators: [String: any ServerTrustEvaluating]
    ) throws(PinningConfigurationError) {
        switch matching {
        case .exact:
            for key in evaluators.keys.sorted() { try Self.checkExactKey(key) }
            self.init(allHostsMustBeEvaluated: allHostsMustBeEvaluated, matching: .exact, evaluators: evaluators, entries: [])
        case .hostPatterns:
            try self.init(
                allHostsMustBeEvaluated: allHostsMustBeEvaluated,
                patterns: evaluators.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) })
        }
    }

    /// A key an exact lookup can find: a host name or IP address as ``HostPattern`` reads one (not
    /// a wildcard). SwiftTrust's rule: Alamofire accepts any string and never matches it.
    private static func checkExactKey(_ key: String) throws(PinningConfigurationError) {
        if key.hasPrefix("*.") || key.hasPrefix("**."), (try? HostPattern(key)) != nil { throw .wildcardNeedsHostPatterns(key) }
        if key.contains("*") { throw .invalidHost(key, reason: "a host name has no wildcard") }
        guard HostPattern.normalize(key) != nil else { throw .invalidHost(key, reason: "not a valid host name or IP address") }
    }

    /// Creates a ``HostMatching/hostPatterns`` manager from patterns and evaluators in order; the
    /// same evaluator may serve several patterns.
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
        self.init(
            allHostsMustBeEvaluated: allHostsMustBeEvaluated, matching: .hostPatterns, evaluators: byText,
            entries: entries.sorted { $0.pattern.specificity.lexicographicallyPrecedes($1.pattern.specificity) }.reversed())
    }

    private init(
        allHostsMustBeEvaluated: Bool, matching: HostMatching, evaluators: [String: any ServerTrustEvaluating],
        entries: [(pattern: HostPattern, evaluator: any ServerTrustEvaluating)]
    ) {
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        self.matching = matching
        self.evaluators = evaluators
        self.entries = entries
    }

    /// The pattern that finds `host`'s evaluator, if any: the most specific matching one, or (exact
    /// lookup) the key equal to `host`, as a ``HostPattern``.
    public func matchingPattern(forHost host: String) -> HostPattern? {
        switch matching {
        case .exact:
            return evaluators[host] == nil ? nil : try? HostPattern(host)
        case .hostPatterns:
            guard let normalized = HostPattern.normalize(host) else { return nil }
            return entries.first { $0.pattern.matches(normalized: normalized) }?.pattern
        }
    }

    /// The evaluator for `host`: the one keyed by `host` itself (``HostMatching/exact``, Alamofire's
    /// `serverTrustEvaluator(forHost:)`) or by the most specific matching pattern
    /// (``HostMatching/hostPatterns``); nil when there is none and not all hosts must be evaluated.
    ///
    /// - Throws: ``ServerTrustFailureReason/noRequiredEvaluator(host:)`` when there is none and all
    ///   hosts must be evaluated.
    public func serverTrustEvaluator(forHost host: String) throws(ServerTrustFailureReason) -> (any ServerTrustEvaluating)? {
        switch matching {
        case .exact:
            // Alamofire `ServerTrustManager.serverTrustEvaluator(forHost:)`: `evaluators[host]`.
            if let evaluator = evaluators[host] { return evaluator }
        case .hostPatterns:
            if let normalized = HostPattern.normalize(host),
                let entry = entries.first(where: { $0.pattern.matches(normalized: normalized) })
            {
                return entry.evaluator
            }
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
