import Foundation
import TrustCrypto
import TrustDER
import TrustX509

extension ServerTrust {
    /// Evaluates trust, fetching CRLs and OCSP responses over the network when revocation is
    /// checked (a `.revocation` policy or ``TrustOptions/revocation``) without `.networkAccessDisabled`, the built chain is valid in every other
    /// respect, and the supplied information leaves some certificate's status unknown. Only the
    /// URLs of that chain's certificates are asked. `evaluate()` never uses the network; this does,
    /// through `fetching`'s fetcher (TrustHTTP's `RevocationFetching.shared`:
    /// `HTTPRevocationFetcher.shared` with ``FetchCache/shared``; or your own).
    ///
    /// `fetching`'s ``RevocationFetching/cache`` is asked before the fetcher, and keeps what verified
    /// (and what caIssuers URLs served) for later evaluations; with no cache, every evaluation asks
    /// the fetcher for every URL it needs. Either way the verdict is the same: a cached answer is
    /// checked as a fetched one is.
    ///
    /// Fetch failures are not errors by themselves: they leave the status unknown, which fails only
    /// under `.requirePositiveResponse` (hard fail); otherwise unknown is accepted (soft fail). Each
    /// is recorded, with a typed reason, on the certificate's status
    /// (``CertificateRevocationStatus/fetchFailures``, and the notes of an unknown status) and in
    /// ``TrustEvaluation/fetchFailures``, and kept on the trust for later evaluations. A
    /// fetched CRL or OCSP response that fails verification against the issuer is no information
    /// either: it is named in the status's notes, never kept. What verified is kept on the trust for
    /// later `evaluate()` calls (replacing what an earlier fetching evaluation kept for the same
    /// URLs) and in the cache.
    ///
    /// All fetching ends `within` the given time of the call (``defaultRevocationFetchDeadline``,
    /// 5 s, by default): every request of this evaluation, CRLs and OCSP, every URL, waiting for a
    /// free request slot and resolving host names included. The evaluation stops waiting then even
    /// if a fetcher does not stop, and decides with what it fetched so far: an unanswered status is
    /// unknown, so a timeout is accepted only in soft-fail mode and rejected under
    /// `.requirePositiveResponse`. Cancelling the calling task ends the fetching the same way
    /// (in-flight requests are cancelled). A zero or negative duration fetches nothing (what the
    /// cache holds is still used: it is no fetch).
    /// Before that, when ``TrustOptions/fetchesMissingIssuers`` (the default) and network access is
    /// not disabled, a chain that stops at a certificate whose issuer is missing gets that issuer from
    /// the certificate's `http://` caIssuers URL (``RevocationFetcher/fetchIssuerCertificates(from:)``;
    /// at most ``VerificationBudget/issuerFetches`` downloads), as Apple's trustd does; what was
    /// downloaded is kept on the trust as untrusted intermediates (``fetchedIssuers``).
    public func evaluate(
        fetching: RevocationFetching,
        within deadline: Duration = ServerTrust.defaultRevocationFetchDeadline
    ) async -> TrustEvaluation {
        let config = snapshot
        let end = ContinuousClock.now.advanced(by: max(deadline, .zero))
        return await FetchingEvaluation.run(
            config, fetching: fetching, deadline: end,
            evaluate: { inputs, meter, kept in
                evaluate(inputs, generation: config.generation, keepingFetched: kept, meter: meter)
            },
            record: { evaluation, kept in
                record(evaluation, generation: config.generation, keepingFetched: kept)
            },
            keepIssuers: { issuers, failures in
                keepFetchedIssuers(issuers, failures: failures, generation: config.generation)
            })
    }

    /// ``evaluate(fetching:within:)`` with `fetcher` and `cache` (nil: nothing kept, every URL
    /// fetched each time). The cache is named at every call: no fetcher brings one of its own.
    public func evaluate(
        fetchingWith fetcher: any RevocationFetcher, cache: FetchCache?,
        within deadline: Duration = ServerTrust.defaultRevocationFetchDeadline
    ) async -> TrustEvaluation {
        await evaluate(fetching: RevocationFetching(fetcher: fetcher, cache: cache), within: deadline)
    }
}

extension ServerTrust {
    /// How long ``evaluate(fetching:within:)`` may spend fetching by default: 5 seconds for all
    /// fetches of one evaluation. Our choice, not a platform's: long enough for a few round trips to
    /// a distant responder, short enough that a handshake against a responder that never answers
    /// fails (or soft-fails) in a time a person waits for.
    public static let defaultRevocationFetchDeadline: Duration = .seconds(5)
}

extension ServerTrust {
    /// Keeps on this trust the revocation information a fetching evaluation kept on `other`, when
    /// both are for the same certificates: a fresh trust for the same peer (the challenge flow's
    /// default handling) then sees what the connection already fetched and verified, instead of
    /// judging the peer as if nothing had been fetched (soft fail would accept a revoked leaf).
    package func keepFetchedRevocationInformation(of other: ServerTrust) {
        let snapshot = other.snapshot
        let fetched = snapshot.fetchedRevocationInputs
        let issuers = snapshot.fetchedIssuers
        let issuerFailures = snapshot.issuerFetchFailures
        guard
            !fetched.isEmpty || !issuers.isEmpty
                || !issuerFailures.isEmpty,
            other.certificates == certificates
        else { return }
        update { config in
            config.fetchedRevocationInputs = fetched
            config.fetchedIssuers = issuers
            config.issuerFetchFailures = issuerFailures
        }
    }

    /// The intermediates the last fetching evaluation downloaded from caIssuers URLs because the
    /// peer left them out, with their URLs (empty when none was).
    public var fetchedIssuers: [FetchedIssuer] { snapshot.fetchedIssuers }

    /// What the last fetching evaluation failed to fetch, and why: its CRL, OCSP and caIssuers URLs
    /// that gave nothing (kept for the URLs of its chain, as what it fetched is). Later evaluations
    /// report them too (``TrustEvaluation/fetchFailures``).
    public var fetchFailures: [FetchFailure] {
        let config = snapshot
        return config.issuerFetchFailures + config.fetchedRevocationInputs.fetchFailures
    }
}
