/// How a fetching evaluation reaches the network: the ``RevocationFetcher`` that fetches (CRLs, OCSP
/// responses, caIssuers downloads) and the ``FetchCache`` that keeps what was fetched between
/// evaluations, given together so that neither is lost on the way to the engine
/// (``ServerTrust/evaluate(fetching:within:)``). A wrapper around the fetcher (metrics, routing, a
/// test double) replaces ``fetcher`` and leaves ``cache`` as it is: it has nothing to forward.
///
/// ```swift
/// // TrustHTTP's default: HTTPRevocationFetcher.shared with FetchCache.shared.
/// let evaluation = await trust.evaluate(fetching: .shared)
/// // Your own HTTP stack, caching nothing: every evaluation asks every URL.
/// let uncached = await trust.evaluate(fetching: RevocationFetching(fetcher: myFetcher, cache: nil))
/// ```
public struct RevocationFetching: Sendable {
    /// What fetches: bytes for a URL, nothing kept.
    public var fetcher: any RevocationFetcher
    /// Where what was fetched is kept for later evaluations; nil keeps nothing, so every
    /// evaluation fetches every URL it needs.
    public var cache: FetchCache?

    /// `fetcher` with `cache` (nil: no cache). The cache is asked for explicitly: no fetcher comes
    /// with one.
    public init(fetcher: any RevocationFetcher, cache: FetchCache?) {
        self.fetcher = fetcher
        self.cache = cache
    }
}
