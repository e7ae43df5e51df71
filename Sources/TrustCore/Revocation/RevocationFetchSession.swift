import TrustDER
import TrustX509

/// One fetching evaluation's requests: asks the cache, else the fetcher, verifies each answer against
/// the issuer it was fetched for, keeps verified and rejected documents apart, and stores what
/// verified in the cache.
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

    var verifiedCount: Int { verified.crls.count + verified.ocspResponses.count }

    init(fetcher: any RevocationFetcher, cache: RevocationResponseCache?, checker: RevocationChecker) {
        self.fetcher = fetcher
        self.cache = cache
        self.checker = checker
    }

    /// Asks the certificate's OCSP responders in turn until one gives a response that verifies.
    /// Verifying what was fetched draws on the evaluation's budget: running out throws.
    mutating func fetchOCSP(for certificate: Certificate, issuer: Certificate) async throws(BudgetExhausted) {
        let urls = certificate.extensions.authorityInformationAccess?.ocspURIs ?? []
        let request = OCSPRequest(certIDs: [OCSPCertID(certificate: certificate, issuer: issuer, hash: .sha1)]).derEncoded
        for url in urls.prefix(Self.urlsPerMethod) {
            asked.insert(url)
            let source = RevocationSource.fetchedOCSP(url: url)
            let key = RevocationResponseCache.Key(.ocsp, url: url, issuer: issuer, request: request)
            if case let .ocsp(response)? = cache?.documents(for: key) {
                verified.ocspResponses.append((response, source))
                return
            }
            let response: OCSPResponse
            do {
                response = try OCSPResponse(derEncoded: try await fetcher.fetchOCSPResponse(from: url, request: request))
            } catch {
                failures.append(FetchFailure(url: url, purpose: .ocsp, reason: FetchFailureReason(error)))
                continue
            }
            guard try OCSPCheck.verifies(response, certificate: certificate, issuer: issuer, checker: checker) else {
                rejected.ocspResponses.append((response, source))
                continue
            }
            verified.ocspResponses.append((response, source))
            let nextUpdate = response.responses.filter { $0.certID.identifies(certificate, issuedBy: issuer) }
                .compactMap(\.nextUpdate).min { $0.secondsSince1970 < $1.secondsSince1970 }
            cache?.store(.ocsp(response), for: key, nextUpdate: nextUpdate)
            return
        }
    }

    /// Asks the certificate's http:// CRL distribution points in turn until one gives a CRL that verifies.
    /// Verifying what was fetched draws on the evaluation's budget: running out throws.
    mutating func fetchCRLs(for certificate: Certificate, issuer: Certificate) async throws(BudgetExhausted) {
        let points = certificate.extensions.crlDistributionPoints?.points.flatMap(\.uris) ?? []
        for url in points.filter({ $0.lowercased().hasPrefix("http://") }).prefix(Self.urlsPerMethod) {
            asked.insert(url)
            let source = RevocationSource.fetchedCRL(url: url)
            let key = RevocationResponseCache.Key(.crl, url: url, issuer: issuer)
            if case let .crls(crls)? = cache?.documents(for: key) {
                verified.crls.append(contentsOf: crls.map { ($0, source) })
                return
            }
            let crls: [CertificateRevocationList]
            do {
                crls = try CertificateRevocationList.loadAll(from: try await fetcher.fetchCRL(from: url))
            } catch {
                failures.append(FetchFailure(url: url, purpose: .crl, reason: FetchFailureReason(error)))
                continue
            }
            var verifies: [Bool] = []
            for crl in crls { verifies.append(try CRLCheck.verifies(crl, certificate: certificate, issuer: issuer, checker: checker)) }
            let good = zip(crls, verifies).filter { $0.1 }.map(\.0)
            // Those naming the issuer but failing their checks are reported; CRLs of other CAs are dropped.
            rejected.crls.append(
                contentsOf: zip(crls, verifies).filter { !$0.1 && $0.0.issuer == certificate.issuer }
                    .map { ($0.0, source) })
            guard !good.isEmpty else { continue }
            verified.crls.append(contentsOf: good.map { ($0, source) })
            // Cached until the earliest nextUpdate; a CRL without one is not cached at all.
            let updates = good.map(\.nextUpdate)
            let nextUpdate = updates.contains { $0 == nil } ? nil : updates.compactMap { $0 }.min { $0.secondsSince1970 < $1.secondsSince1970 }
            cache?.store(.crls(good), for: key, nextUpdate: nextUpdate)
            return
        }
    }
}
