extension ServerTrustManager {
    /// How a ``ServerTrustManager`` finds the evaluator of a host.
    public enum HostMatching: Hashable, Sendable {
        /// The host string as given is the key: Alamofire's
        /// `ServerTrustManager.serverTrustEvaluator(forHost:)`, which is `evaluators[host]` —
        /// case-sensitive, no IDNA, no trailing-dot or IP normalisation. `API.example.com` and
        /// `example.com.` miss the keys `api.example.com` and `example.com`: with
        /// `allHostsMustBeEvaluated` they are rejected, otherwise they get default evaluation
        /// without the key's pins, as in Alamofire. The default.
        case exact
        /// Keys are ``HostPattern``s (`host`, `*.domain`, `**.domain`), compared after IDNA
        /// normalisation (so case-insensitively, without a trailing dot, IP addresses canonically);
        /// the most specific matching pattern wins. What Alamofire leaves to subclasses ("more
        /// complex mapping implementations such as wildcards"), and what a
        /// ``PinningConfiguration``'s subdomain coverage needs.
        case hostPatterns
    }
}
