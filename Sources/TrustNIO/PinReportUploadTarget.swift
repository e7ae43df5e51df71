import Foundation

/// Where one report upload goes: a report URI checked and split into what the connection and the
/// request line need. Only `http` and `https` are accepted; anything that an HTTP/1.1 request line
/// or Host header cannot carry verbatim is refused rather than escaped, so what is requested is
/// exactly what was configured.
struct PinReportUploadTarget: Sendable {
    /// Whether the connection uses TLS (`https`).
    let usesTLS: Bool
    /// The host to connect to and validate the certificate for (IPv6 without brackets).
    let host: String
    /// The port to connect to.
    let port: Int
    /// The request target: the URI's path (`/` when empty) and query, percent-encoded as given.
    let requestTarget: String

    init(_ uri: URL) throws(PinReportUploadError) {
        switch uri.scheme?.lowercased() {
        case "http": usesTLS = false
        case "https": usesTLS = true
        default: throw .unsupportedScheme(uri.scheme)
        }
        // Credentials in a report URI would be sent nowhere (we never add Authorization); refusing
        // them keeps a misconfiguration from looking like it works.
        guard uri.user == nil, uri.password == nil else { throw .invalidURI(reason: "report URIs must not carry credentials") }
        guard let host = uri.host(percentEncoded: false), !host.isEmpty else { throw .invalidURI(reason: "no host") }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard bare.unicodeScalars.allSatisfy(Self.isHostCharacter) else {
            throw .invalidURI(reason: "host has characters a Host header cannot carry")
        }
        let port = uri.port ?? (usesTLS ? 443 : 80)
        guard (1...65_535).contains(port) else { throw .invalidURI(reason: "port \(port) is outside 1-65535") }
        var target = uri.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = uri.query(percentEncoded: true) { target += "?" + query }
        guard target.hasPrefix("/"), target.unicodeScalars.allSatisfy(Self.isVisibleASCII) else {
            throw .invalidURI(reason: "path has characters a request line cannot carry")
        }
        self.host = bare
        self.port = port
        self.requestTarget = target
    }

    /// The Host header (RFC 9110 §7.2): the host, an IPv6 literal in brackets, and the port unless
    /// it is the scheme's default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (usesTLS ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// The whole HTTP/1.1 request: a POST of `body` as `application/json`, closing the connection
    /// after the response.
    func request(body: [UInt8]) -> [UInt8] {
        let head = "POST \(requestTarget) HTTP/1.1\r\n"
            + "Host: \(hostHeader)\r\n"
            + "User-Agent: SwiftTrust\r\n"
            + "Content-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Printable ASCII without space (RFC 9112 §3.2: the request target has no whitespace).
    private static func isVisibleASCII(_ scalar: Unicode.Scalar) -> Bool { (0x21...0x7E).contains(scalar.value) }

    /// Letters, digits and the punctuation of DNS names, IPv4 and IPv6 literals (and zone ids).
    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", ":", "%", "_": return true
        default: return false
        }
    }
}
