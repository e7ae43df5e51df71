import TrustCore

extension TLSTrustMetrics {
    /// `fetcher`, counting each CRL, OCSP and caIssuers request it makes in
    /// `swifttrust_fetches_total` (`kind`, `result`); its local-address variant counts too. A cache
    /// hit is no request: the cache is the evaluation's (`RevocationFetching.cache`), never asked of
    /// the fetcher. ``TLSTrustVerifier`` wraps its settings' fetcher this way; wrap one yourself
    /// for a `ServerTrust` you evaluate with `evaluate(fetching:)`. ``disabled`` returns `fetcher`
    /// as it is.
    public func meteredFetcher(_ fetcher: any RevocationFetcher) -> any RevocationFetcher {
        guard isEnabled, !(fetcher is MeteredRevocationFetcher) else { return fetcher }
        return MeteredRevocationFetcher(base: fetcher, metrics: self)
    }
}

/// A ``RevocationFetcher`` that counts what another one fetches (``TLSTrustMetrics/meteredFetcher(_:)``).
struct MeteredRevocationFetcher: RevocationFetcher {
    let base: any RevocationFetcher
    let metrics: TLSTrustMetrics

    /// Counted under the method's label (`crl`, `ocsp`).
    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        try await counted(request.method.label) { try await base.fetch(request) }
    }

    func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
        try await counted("ca_issuers") { try await base.fetchIssuerCertificates(from: url) }
    }

    func allowingLocalAddresses() -> any RevocationFetcher {
        MeteredRevocationFetcher(base: base.allowingLocalAddresses(), metrics: metrics)
    }

    /// `fetch`'s bytes, counted `ok`, or its error, counted `failed`; a base that does not fetch
    /// issuers at all (`IssuerFetchError.notSupported`) made no request, and is not counted.
    private func counted(_ kind: String, _ fetch: () async throws -> [UInt8]) async throws -> [UInt8] {
        do {
            let bytes = try await fetch()
            metrics.recordFetch(kind: kind, succeeded: true)
            return bytes
        } catch IssuerFetchError.notSupported {
            throw IssuerFetchError.notSupported
        } catch {
            metrics.recordFetch(kind: kind, succeeded: false)
            throw error
        }
    }
}
