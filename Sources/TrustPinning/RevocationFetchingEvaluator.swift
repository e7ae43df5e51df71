import TrustCore

/// An evaluator whose evaluation Apple's trustd lets fetch revocation information. Alamofire's
/// `RevocationTrustEvaluator` evaluates under `SecPolicyCreateRevocation`, which clears BasicX509's
/// `NoNetworkAccess` unless `kSecRevocationNetworkAccessDisabled` is given (SecPolicy.c), so
/// `SecTrustEvaluateWithError` sends OCSP requests (`SecPathBuilderCheckRevocation`). Evaluators here
/// are synchronous and never fetch themselves: the caller that may wait (`TLSTrustDecider.decide`)
/// fetches first with ``revocationToFetch(forHost:)``, and the evaluator's own evaluation then uses
/// what was kept on the trust.
package protocol RevocationFetchingEvaluator: ServerTrustEvaluating {
    /// The revocation flags to fetch with before evaluating for `host`; nil: nothing to fetch.
    func revocationToFetch(forHost host: String) -> RevocationOptions?
    /// Whether the evaluator fetches for some host (so a decision with it may use the network).
    var fetchesRevocation: Bool { get }
}

extension ServerTrustEvaluating {
    /// What this evaluator would fetch before evaluating for `host` (nil for evaluators that never fetch).
    package func revocationToFetch(forHost host: String) -> RevocationOptions? {
        (self as? any RevocationFetchingEvaluator)?.revocationToFetch(forHost: host)
    }

    /// Whether this evaluator fetches revocation information for some host.
    package var fetchesRevocation: Bool {
        (self as? any RevocationFetchingEvaluator)?.fetchesRevocation ?? false
    }
}

extension RevocationTrustEvaluator: RevocationFetchingEvaluator {
    /// Its options, unless they disable network access.
    package func revocationToFetch(forHost host: String) -> RevocationOptions? {
        fetchesRevocation ? revocationOptions : nil
    }

    package var fetchesRevocation: Bool { !revocationOptions.contains(.networkAccessDisabled) }
}

extension CompositeTrustEvaluator: RevocationFetchingEvaluator {
    /// What its evaluators fetch, together.
    package func revocationToFetch(forHost host: String) -> RevocationOptions? {
        let wanted = evaluators.compactMap { $0.revocationToFetch(forHost: host) }
        return wanted.isEmpty ? nil : wanted.reduce(into: RevocationOptions()) { $0.formUnion($1) }
    }

    package var fetchesRevocation: Bool { evaluators.contains { $0.fetchesRevocation } }
}

extension ServerTrustManager: RevocationFetchingEvaluator {
    /// What the evaluator for `host` fetches.
    package func revocationToFetch(forHost host: String) -> RevocationOptions? {
        guard let evaluator = try? serverTrustEvaluator(forHost: host) else { return nil }
        return evaluator.revocationToFetch(forHost: host)
    }

    package var fetchesRevocation: Bool { evaluators.values.contains { $0.fetchesRevocation } }
}
