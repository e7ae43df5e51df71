import TrustCore

extension RevocationFetching {
    /// ``HTTPRevocationFetcher/shared`` with `FetchCache.shared`: what `TLSTrustSettings` and
    /// trustctl fetch with unless told otherwise.
    public static let shared = RevocationFetching(fetcher: HTTPRevocationFetcher.shared, cache: .shared)

    /// ``shared`` allowing local addresses, with the same cache.
    package static let sharedAllowingLocalAddresses = RevocationFetching(
        fetcher: HTTPRevocationFetcher.sharedAllowingLocalAddresses,
        cache: .shared)
}
