import TrustX509

/// The first stage of a fetching evaluation: missing intermediates taken from caIssuers URLs, as
/// Apple's trustd takes them (`kSecCAIssuerSource`: when the path it builds has no issuer for its
/// last certificate, `SecCAIssuerCopyParents` fetches that certificate's caIssuers URLs).
///
/// Only while the best chain stops at a certificate whose issuer is nowhere (``TrustFailureReason/issuerNotFound``),
/// only that certificate's `http://` caIssuers URLs (each asked once), at most
/// ``VerificationBudget/issuerFetches`` fetches, within the evaluation's fetch deadline. What a URL
/// serves must be a DER certificate or a certs-only PKCS #7 bundle; each certificate becomes an
/// untrusted intermediate, which path building then verifies like any other (a wrong or forged
/// download is simply not an issuer).
package enum IssuerFetching {
    /// The evaluation after fetching what was missing (`first` when nothing was fetched), the
    /// inputs with the fetched intermediates (and the URLs that gave nothing, with why, in
    /// `issuerFetchFailures`), and what was fetched. A URL `downloads` holds is not asked of
    /// `fetcher` again (it still counts as one of the budget's fetches); what `fetcher` returns is
    /// stored there.
    static func complete(
        _ first: TrustEvaluation, inputs: inout EvaluationSnapshot, fetcher: any RevocationFetcher,
        downloads: IssuerDownloadCache?, meter: BudgetMeter,
        evaluate: (EvaluationSnapshot, BudgetMeter) -> TrustEvaluation
    ) async -> (TrustEvaluation, [FetchedIssuer]) {
        var evaluation = first
        var fetched: [FetchedIssuer] = []
        var asked: Set<String> = []
        var fetches = 0
        inputs.issuerFetchFailures = []
        while fetches < inputs.options.budget.issuerFetches, let url = nextURL(for: evaluation, inputs: inputs, asked: asked) {
            asked.insert(url)
            fetches += 1
            let downloaded: [Certificate]
            do {
                downloaded = try certificates(in: try await download(url, fetcher: fetcher, downloads: downloads), from: url)
            } catch {
                // Recorded, never swallowed: the chain's missing issuer then says why it is still missing.
                inputs.issuerFetchFailures.append(FetchFailure(url: url, purpose: .caIssuers, reason: FetchFailureReason(error)))
                evaluation.issuerFetchFailures = inputs.issuerFetchFailures
                continue
            }
            let new = downloaded.filter { certificate in !inputs.configuration.additionalIntermediates.contains(certificate) }
            guard !new.isEmpty else { continue }
            fetched += new.map { FetchedIssuer(certificate: $0, url: url) }
            inputs.configuration.additionalIntermediates += new
            evaluation = evaluate(inputs, meter)
            if evaluation.isTrusted { break }
        }
        return (evaluation, fetched)
    }

    /// What `url` serves: the bytes `downloads` kept, else `fetcher`'s, which are kept there (before
    /// they are read: the bytes, not a verdict, are what the download depends on).
    private static func download(_ url: String, fetcher: any RevocationFetcher, downloads: IssuerDownloadCache?) async throws -> [UInt8] {
        if let kept = downloads?.bytes(for: url) { return kept }
        let bytes = try await fetcher.fetchIssuerCertificates(from: url)
        downloads?.store(bytes, for: url)
        return bytes
    }

    /// The next caIssuers URL to ask: the first not yet asked `http://` URL of the certificate the
    /// best chain stops at, when that certificate's issuer was not found.
    static func nextURL(for evaluation: TrustEvaluation, inputs: EvaluationSnapshot, asked: Set<String>) -> String? {
        guard !evaluation.isTrusted, !evaluation.endsAtAnchor, let top = evaluation.chain.last ?? inputs.certificates.first,
            lacksIssuer(evaluation.failures)
        else { return nil }
        return fetchableURLs(of: top).first { !asked.contains($0) }
    }

    /// Whether `failures` say that a chain stops at a certificate whose issuer is nowhere.
    package static func lacksIssuer(_ failures: [TrustFailure]) -> Bool {
        failures.contains { if case .issuerNotFound = $0.reason { true } else { false } }
    }

    /// The caIssuers URLs of `certificate` that are fetched: `http://` only (RFC 5280 §4.2.2.1 also
    /// allows LDAP, which neither Apple nor SwiftTrust asks).
    package static func fetchableURLs(of certificate: Certificate) -> [String] {
        (certificate.extensions.authorityInformationAccess?.caIssuersURIs ?? []).filter { $0.lowercased().hasPrefix("http://") }
    }

    /// The certificates of a caIssuers download: one DER certificate, or a certs-only PKCS #7 bundle.
    static func certificates(in bytes: [UInt8], from url: String) throws(IssuerFetchError) -> [Certificate] {
        if let certificate = try? Certificate(derEncoded: bytes) { return [certificate] }
        do {
            return try CertsOnlyPKCS7.certificates(derEncoded: bytes)
        } catch {
            throw .unreadable(url: url, error: error)
        }
    }
}
