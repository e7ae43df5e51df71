/// Why ``HTTPRevocationFetcher`` did not fetch a URL, beyond transport failures.
public enum RevocationFetchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every address `host` resolved to (`address` the last one) is loopback, link-local, private-use
    /// or otherwise not public (`scope`), and the fetcher does not allow local addresses
    /// (``HTTPRevocationFetcher/allowsLocalAddresses``). Nothing was sent.
    case localDestinationRefused(host: String, address: String, scope: String)

    /// One sentence naming the host, the address and why.
    public var description: String {
        switch self {
        case let .localDestinationRefused(host, address, scope):
            return "\(host) resolves to the \(scope) address \(address), which revocation fetching does not connect to unless local addresses are allowed"
        }
    }
}
