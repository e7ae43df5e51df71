import TrustCore

/// What the per-host fetch limit counts requests by. A peer chooses the host names of its
/// caIssuers URLs (`a1.evil.example`, `a2.evil.example`, … on as many ports as it likes), so the
/// name and port as written would give it a fresh limit per URL. The limit is per registrable domain
/// (the public suffix and one more label, after the Public Suffix List's ICANN and private
/// sections: `evil.example`, `example.co.uk`, one `github.io` user), and per address for an IP
/// literal; for caIssuers the port never counts. CRL and OCSP URLs, which a CA signed into a
/// validated chain, add the port: two services the CA runs on one address are two hosts.
enum FetchHostKey {
    /// The Public Suffix List snapshot TrustCore ships, both sections: a private-section suffix
    /// (`github.io`) separates its registrants as the ICANN ones do.
    private static let suffixes: PublicSuffixList = {
        var list = PublicSuffixList.snapshot
        list.consultedSections = .all
        return list
    }()

    /// The key of `host` (a name or an IP literal without brackets) for `pool`, on `port`.
    static func key(for host: String, port: Int, pool: HTTPClient.Pool) -> String {
        switch pool {
        case .issuers: return key(for: host)
        case .revocation: return "\(key(for: host)) \(port)"
        }
    }

    /// The registrable domain of `host`, or its address.
    static func key(for host: String) -> String {
        if let address = IPAddress(host) { return address.description }
        let name = host.lowercased().hasSuffix(".") ? String(host.lowercased().dropLast()) : host.lowercased()
        // A public suffix itself, a single label or an invalid name has no registrable domain: itself.
        return suffixes.registrableDomain(of: name) ?? name
    }
}
