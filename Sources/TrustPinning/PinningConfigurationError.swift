import Foundation

/// A pinning configuration that cannot be used: thrown when an evaluator or
/// ``ServerTrustManager`` is created, never during evaluation.
public enum PinningConfigurationError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// A pin is not `sha256/` followed by the base64 of a 32-byte digest.
    case malformedPin(String, reason: String)
    /// Fewer than two distinct pins: one pin must be a backup (a key not yet in use), or a key
    /// rotation locks clients out.
    case tooFewPins(count: Int)
    /// A host pattern is not an exact host, `*.domain` or `**.domain`.
    case invalidHostPattern(String, reason: String)
    /// Two host patterns are the same after normalisation (case, IDNA, trailing dot).
    case duplicateHostPattern(String, normalized: String)
    /// A key of a ``ServerTrustManager`` that looks hosts up exactly
    /// (``ServerTrustManager/HostMatching/exact``) is neither a host name nor an IP address.
    case invalidHost(String, reason: String)
    /// A wildcard key (`*.domain`, `**.domain`) given to a ``ServerTrustManager`` that looks hosts
    /// up exactly, where it would never match (Alamofire's `evaluators[host]`).
    case wildcardNeedsHostPatterns(String)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case let .malformedPin(pin, reason):
            return "malformed SPKI pin \"\(pin)\": \(reason) (expected sha256/BASE64 of a 32-byte SHA-256 digest)"
        case let .tooFewPins(count):
            return "\(count) distinct SPKI pin\(count == 1 ? "" : "s"): at least two are required, one of them a backup key not yet in use"
        case let .invalidHostPattern(pattern, reason):
            return "invalid host pattern \"\(pattern)\": \(reason) (expected host, *.domain or **.domain)"
        case let .duplicateHostPattern(pattern, normalized):
            return "host pattern \"\(pattern)\" duplicates another pattern (both are \(normalized))"
        case let .invalidHost(host, reason):
            return "invalid host \"\(host)\": \(reason) (expected a host name or IP address, looked up exactly)"
        case let .wildcardNeedsHostPatterns(pattern):
            return
                "\"\(pattern)\" is a wildcard, and ServerTrustManager(evaluators:) looks hosts up exactly, as Alamofire's evaluators[host] (it would never match): create the manager with matching: .hostPatterns"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
