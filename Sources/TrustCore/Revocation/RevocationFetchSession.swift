import TrustDER
import TrustX509

/// One fetching evaluation's requests, for every method: each method's `fetch(for:issuer:in:)`
/// asks the cache (``lookUp(_:as:)``), else the fetcher (``fetch(_:parse:)``), verifies each answer
/// against the issuer it was fetched for, keeps verified and rejected documents apart, and stores
/// what verified in the cache.
struct RevocationFetchSession {
    let fetcher: any RevocationFetcher
    /// Where verified answers are looked up first and stored (``FetchCache/responses``); nil: none.
    let cache: RevocationResponseCache?
    /// Verifies fetched documents (its own inputs are unused).
    let checker: RevocationChecker
    /// Documents that verified against their issuer (from the network or the cache).
    var verified = RevocationInputs()
    /// Documents that parsed but failed verification: reported, never kept.
    var rejected = RevocationInputs()
    /// Every URL asked (of the network or the cache).
    var asked: Set<String> = []
    /// Every URL asked that gave nothing, and why: never swallowed, so that an unknown status says
    /// why it is unknown (a refused local destination, the deadline, an HTTP error).
    var failures: [FetchFailure] = []

    /// URLs asked per certificate and method.
    static let urlsPerMethod = 2

    /// How many documents verified so far.
    var verifiedCount: Int { verified.documents.count }

    init(fetcher: any RevocationFetcher, cache: RevocationResponseCache?, checker: RevocationChecker) {
        self.fetcher = fetcher
        self.cache = cache
        self.checker = checker
    }

    /// The verified documents the cache holds under `key`, or nil; `key`'s URL counts as asked.
    mutating func lookUp<Document: Sendable>(_ key: RevocationResponseCache.Key, as _: Document.Type) -> [Document]? {
        asked.insert(key.url)
        guard let documents = cache?.documents(for: key) else { return nil }
        let typed = documents.compactMap { $0 as? Document }
        return typed.isEmpty ? nil : typed
    }

    /// What the fetcher answers to `request`, parsed; nil when the fetch or the parse failed, which
    /// is recorded with its reason (``failures``).
    mutating func fetch<Document>(
        _ request: RevocationFetchRequest, parse: ([UInt8]) throws -> Document
    ) async -> Document? {
        asked.insert(request.url)
        do {
            return try parse(try await fetcher.fetch(request))
        } catch {
            failures.append(FetchFailure(url: request.url, purpose: .revocation(request.method), reason: FetchFailureReason(error)))
            return nil
        }
    }
}
