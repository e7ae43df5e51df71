import Foundation
import TrustCore

/// Where one HTTP request goes: an `http://` or `https://` URL, checked for what a request line and
/// a Host header can carry. Both of SwiftTrust's HTTP uses read their URLs here: revocation fetches
/// (``HTTPClient``, plain `http` only, RFC 5280 §4.2.1.13, RFC 6960 Appendix A) and pin-failure
/// reports (TrustNIO's uploader, `http` and `https`).
package struct HTTPTarget: Hashable, Sendable {
    /// The two schemes SwiftTrust speaks.
    package enum Scheme: String, Hashable, Sendable {
        case http, https
    }

    package let scheme: Scheme
    /// The host as connected to: a name or an IP literal (IPv6 without brackets).
    package let host: String
    /// 1–65535; 80 or 443 when the URL names none.
    package let port: Int
    /// The request line's target: the path (at least `/`) and query, percent-encoded as given.
    package let requestTarget: String

    /// Whether the connection is TLS.
    package var usesTLS: Bool { scheme == .https }

    /// The Host header value: the URL's authority (RFC 7230 §5.4), an IPv6 literal in brackets,
    /// and the port unless it is the scheme's default.
    package var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (usesTLS ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// Parses `url`, accepting only `schemes`.
    package init(_ url: String, schemes: Set<Scheme>) throws(HTTPTargetError) {
        guard let parsed = URL(string: url) else { throw HTTPTargetError(url: url, problem: .notAURL) }
        try self.init(parsed, schemes: schemes)
    }

    /// Reads `url`, accepting only `schemes`.
    package init(_ url: URL, schemes: Set<Scheme>) throws(HTTPTargetError) {
        let text = url.absoluteString
        guard let name = url.scheme?.lowercased(), let scheme = Scheme(rawValue: name), schemes.contains(scheme) else {
            throw HTTPTargetError(url: text, problem: .unsupportedScheme(url.scheme, supported: schemes.map(\.rawValue).sorted()))
        }
        // Credentials would be sent nowhere (no Authorization header is ever added): refusing them
        // keeps a misconfiguration from looking like it works.
        guard url.user == nil, url.password == nil else { throw HTTPTargetError(url: text, problem: .credentials) }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else { throw HTTPTargetError(url: text, problem: .noHost) }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard bare.unicodeScalars.allSatisfy(Self.isHostCharacter) else {
            throw HTTPTargetError(url: text, problem: .invalidHostCharacters)
        }
        let port = url.port ?? (scheme == .https ? 443 : 80)
        guard (1...65_535).contains(port) else { throw HTTPTargetError(url: text, problem: .portOutOfRange(port)) }
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        guard target.hasPrefix("/"), target.unicodeScalars.allSatisfy(Self.isVisibleASCII) else {
            throw HTTPTargetError(url: text, problem: .invalidPathCharacters)
        }
        self.scheme = scheme
        self.host = bare
        self.port = port
        requestTarget = target
    }

    private static func isVisibleASCII(_ scalar: Unicode.Scalar) -> Bool { (0x21...0x7E).contains(scalar.value) }

    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", ":", "%", "_": return true
        default: return false
        }
    }
}

/// Why a URL is not an ``HTTPTarget``: the URL as written and the rule it breaks.
package struct HTTPTargetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL's text.
    package let url: String
    /// The rule.
    package let problem: FetchURLProblem

    /// e.g. `no host: http:///crl`.
    package var description: String { "\(problem): \(url)" }
}
