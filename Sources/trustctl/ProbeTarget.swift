import ArgumentParser

/// What `trustctl probe` connects to: `HOST`, `HOST:PORT`, `[IPv6]:PORT` or `https://HOST[:PORT]/…`.
struct ProbeTarget: Equatable {
    /// The host name or IP address (without brackets).
    let host: String
    /// The TCP port (443 unless given).
    let port: Int
    /// Whether `text` named the port (else it is ``defaultPort``).
    let hasExplicitPort: Bool

    static let defaultPort = 443

    /// Parses `text`; throws a usage error naming what is wrong.
    init(parsing text: String) throws {
        var rest = Substring(text)
        if let scheme = rest.range(of: "://") {
            guard rest[..<scheme.lowerBound].lowercased() == "https" else {
                throw ValidationError("\(text): only https:// URLs can be probed")
            }
            rest = rest[scheme.upperBound...]
            // The authority ends at the path, query or fragment.
            if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
            if rest.contains("@") { throw ValidationError("\(text): user information is not allowed in the URL") }
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw ValidationError("\(text): unterminated [IPv6 address]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ValidationError("\(text): expected :PORT after ]") }
                portText = after.dropFirst()
            }
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            // No colon, or a bare IPv6 address (several colons, no port).
            host = rest
        }
        guard !host.isEmpty else { throw ValidationError("\(text): no host") }
        var port = Self.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw ValidationError("\(text): the port must be a number from 1 to 65535")
            }
            port = value
        }
        self.host = String(host)
        self.port = port
        hasExplicitPort = portText != nil
    }
}
