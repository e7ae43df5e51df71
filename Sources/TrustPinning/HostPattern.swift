import TrustCore

/// A host pattern a ``ServerTrustManager`` maps to an evaluator.
///
/// - `api.example.com` (or an IP address): that host only.
/// - `*.example.com`: exactly one label before `example.com` (`a.example.com`, not
///   `a.b.example.com`, not `example.com`), like a certificate wildcard.
/// - `**.example.com`: `example.com` and its subdomains at any depth, the way TrustKit's
///   `includeSubdomains` extends a pinned domain.
///
/// Patterns and hosts are compared after normalisation: IDNA to ASCII (`IDNA.toASCII(_:allowingUnderscores:)`, so
/// case-insensitive, and `bücher.example` equals `xn--bcher-kva.example`), no trailing dot, and
/// IP addresses in canonical form (`[2001:DB8::1]` equals `2001:db8::1`). Wildcards never match
/// IP addresses.
public struct HostPattern: Hashable, Sendable, CustomStringConvertible {
    /// How a pattern matches.
    public enum Kind: Hashable, Sendable {
        /// The host itself.
        case exact
        /// `*.domain`: one label, then the domain.
        case singleLabelWildcard
        /// `**.domain`: the domain and every subdomain.
        case anyDepthWildcard
    }

    /// How the pattern matches.
    public let kind: Kind
    /// The normalised host, or the domain after the wildcard.
    public let domain: String

    /// Parses and normalises a pattern.
    ///
    /// - Throws: ``PinningConfigurationError/invalidHostPattern(_:reason:)``.
    public init(_ pattern: String) throws(PinningConfigurationError) {
        let kind: Kind
        let rest: Substring
        if pattern.hasPrefix("**.") {
            (kind, rest) = (.anyDepthWildcard, pattern.dropFirst(3))
        } else if pattern.hasPrefix("*.") {
            (kind, rest) = (.singleLabelWildcard, pattern.dropFirst(2))
        } else {
            (kind, rest) = (.exact, Substring(pattern))
        }
        if rest.contains("*") {
            throw .invalidHostPattern(pattern, reason: "a wildcard is allowed only as the whole first label, * or **")
        }
        if kind != .exact, IPAddress(String(rest)) != nil {
            throw .invalidHostPattern(pattern, reason: "wildcards apply to DNS names, not IP addresses")
        }
        guard let normalized = HostPattern.normalize(String(rest)) else {
            throw .invalidHostPattern(pattern, reason: "\"\(rest)\" is not a valid host name or IP address")
        }
        self.kind = kind
        domain = normalized
    }

    /// The normalised form of a host (ASCII, lower case, no trailing dot; canonical IP text), or nil
    /// when it is neither a valid host name nor an IP address. Underscores are allowed in ASCII
    /// labels, as in the reference identities trust evaluation accepts (`ServerIdentity`, after
    /// Apple's `SecDNSMatch`): a host such as `_srv.pinned.example` that evaluation can trust must
    /// find the pins of a pattern covering it, never pass without them.
    package static func normalize(_ host: String) -> String? {
        if let address = IPAddress(host) { return address.description }
        return IDNA.toASCII(host, allowingUnderscores: true)
    }

    /// Whether the pattern matches `host` (normalised first).
    public func matches(_ host: String) -> Bool {
        HostPattern.normalize(host).map(matches(normalized:)) ?? false
    }

    /// Whether the pattern matches an already normalised host.
    func matches(normalized host: String) -> Bool {
        switch kind {
        case .exact:
            return host == domain
        case .singleLabelWildcard:
            guard IPAddress(host) == nil, host.hasSuffix("." + domain) else { return false }
            let label = host.dropLast(domain.count + 1)
            return !label.isEmpty && !label.contains(".")
        case .anyDepthWildcard:
            guard IPAddress(host) == nil else { return false }
            return host == domain || host.hasSuffix("." + domain)
        }
    }

    /// Orders matching patterns, most specific last: any exact pattern beats every wildcard; then
    /// the wildcard naming more labels; then `*.` before `**.` for the same domain.
    var specificity: [Int] {
        let labels = domain.split(separator: ".").count
        switch kind {
        case .exact: return [1, labels, 0]
        case .singleLabelWildcard: return [0, labels, 1]
        case .anyDepthWildcard: return [0, labels, 0]
        }
    }

    /// The normalised pattern: `host`, `*.domain` or `**.domain`.
    public var description: String {
        switch kind {
        case .exact: return domain
        case .singleLabelWildcard: return "*." + domain
        case .anyDepthWildcard: return "**." + domain
        }
    }
}
