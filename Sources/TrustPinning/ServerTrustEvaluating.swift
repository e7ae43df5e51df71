import TrustCore

/// Decides whether a server's ``ServerTrust`` is acceptable for a host: the Linux counterpart of
/// Alamofire 5's `ServerTrustEvaluating`.
///
/// An evaluator returns normally to accept and throws to reject. The evaluators in this module
/// throw ``ServerTrustFailureReason``; custom ones may throw anything.
///
/// Evaluators may **reconfigure** the trust they are given, exactly as Alamofire's do with
/// `SecTrust`: ``ServerTrust`` is a reference type, and evaluators replace its policies (a TLS
/// server policy with or without the host name, or a revocation policy) and, when asked to accept
/// self-signed certificates, its anchors. Give each connection its own `ServerTrust`, and do not
/// evaluate one trust object with several evaluators at the same time.
///
/// ```swift
/// let evaluator = PinnedCertificatesTrustEvaluator(certificates: pinned)
/// try evaluator.evaluate(trust, forHost: "api.example.com")   // throws ServerTrustFailureReason
/// ```
public protocol ServerTrustEvaluating: Sendable {
    /// Evaluates `trust` for `host` (a DNS name or IP address), throwing when it is not acceptable.
    ///
    /// - Parameters:
    ///   - trust: The server's certificates and trust configuration; may be reconfigured.
    ///   - host: The host the client connected to.
    func evaluate(_ trust: ServerTrust, forHost host: String) throws

    /// Evaluates `trust` for `host` reached on `port`, for evaluators that report failures with
    /// the port (``ConfiguredPinningTrustEvaluator``); `TrustNIO` calls this one.
    ///
    /// The default implementation ignores the port and calls ``evaluate(_:forHost:)``.
    func evaluate(_ trust: ServerTrust, forHost host: String, port: Int?) throws
}

extension ServerTrustEvaluating {
    /// Ignores `port` and calls ``evaluate(_:forHost:)``.
    public func evaluate(_ trust: ServerTrust, forHost host: String, port: Int?) throws {
        try evaluate(trust, forHost: host)
    }
}
