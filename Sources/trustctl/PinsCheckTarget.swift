import ArgumentParser

/// A host `trustctl pins check` connects to: `HOST[:PORT][@ADDRESS]`. HOST is the name used for
/// SNI, host validation and the configuration lookup; ADDRESS (an IP address or name) is where the
/// TCP connection goes, so a server can be checked on loopback or before DNS points at it.
struct PinsCheckTarget: Equatable {
    let host: String
    let port: Int
    /// Where to connect, when not HOST itself.
    let address: String?

    /// Parses `text` (`[IPv6]` in brackets, as for `probe`).
    init(parsing text: String, defaultPort: Int) throws {
        var hostPart = Substring(text)
        var address: String?
        if let at = text.lastIndex(of: "@") {
            hostPart = text[..<at]
            let rest = text[text.index(after: at)...]
            guard !rest.isEmpty else { throw ValidationError("\(text): no address after @") }
            address = rest.hasPrefix("[") && rest.hasSuffix("]") ? String(rest.dropFirst().dropLast()) : String(rest)
        }
        let parsed = try ProbeTarget(parsing: String(hostPart))
        self.host = parsed.host
        self.port = parsed.hasExplicitPort ? parsed.port : defaultPort
        self.address = address
    }

    /// A host on a port, connected to at `address` (default: the host itself).
    init(host: String, port: Int, address: String? = nil) {
        (self.host, self.port, self.address) = (host, port, address)
    }

    /// `host:port`, with ` via address` when connecting elsewhere.
    var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "\(name):\(port)" + (address.map { " via \($0)" } ?? "")
    }
}
