import Foundation
import TrustCrypto
import TrustDER
import TrustX509

extension ServerTrust {
    /// Supplies CRLs to use when a `.revocation` policy is in force (replacing earlier ones).
    public func setCRLs(_ crls: [CertificateRevocationList]) {
        update { $0.revocationInputs.crls = crls.map { ($0, .suppliedCRL) } }
    }

    /// Supplies OCSP responses, e.g. one stapled in the TLS handshake (`SecTrustSetOCSPResponse`).
    public func setOCSPResponses(_ responses: [OCSPResponse]) {
        update { $0.revocationInputs.ocspResponses = responses.map { ($0, .suppliedOCSP) } }
    }

    /// The CRLs supplied with ``setCRLs(_:)``.
    public var suppliedCRLs: [CertificateRevocationList] { snapshot.revocationInputs.crls.map(\.0) }

    /// The OCSP responses supplied with ``setOCSPResponses(_:)``.
    public var suppliedOCSPResponses: [OCSPResponse] { snapshot.revocationInputs.ocspResponses.map(\.0) }

    /// Evaluates trust, fetching CRLs and OCSP responses over the network when a `.revocation`
    /// policy is in force without `.networkAccessDisabled` and the supplied information leaves some
    /// certificate's status unknown. `evaluate()` never uses the network; this does, through `fetcher`
    /// (``HTTPRevocationFetcher/shared`` unless you bring your own).
    ///
    /// Fetch failures are not errors by themselves: they leave the status unknown, which fails only
    /// under `.requirePositiveResponse` (hard fail); otherwise unknown is accepted (soft fail).
    public func evaluate(fetchingWith fetcher: any RevocationFetcher) async -> TrustEvaluation {
        let first = evaluate()
        let config = snapshot
        let flags = config.policies.reduce(into: RevocationOptions?.none) { result, policy in
            if case let .revocation(options) = policy { result = (result ?? []).union(options) }
        }
        guard let flags, !flags.contains(.networkAccessDisabled), first.endsAtAnchor else { return first }
        let unknown = first.revocationStatuses.filter { if case .unknown = $0.status { true } else { false } }
        guard !unknown.isEmpty else { return first }

        let useOCSP = flags.contains(.ocsp) || !flags.contains(.crl)
        let useCRL = flags.contains(.crl) || !flags.contains(.ocsp)
        let preferCRL = flags.contains(.preferCRL)
        var fetched = RevocationInputs()
        // Whether what is known now (supplied, fetched earlier, fetched so far) gives the certificate
        // at `index` a status: a fetched document that parses is not yet an answer (it may say
        // tryLater or unknown, be stale, be about another certificate, or be badly signed).
        let date = config.verifyDate ?? Date()
        let time = DERTime(timeIntervalSince1970: date.timeIntervalSince1970)
        func isAnswered(_ index: Int) -> Bool {
            guard let time else { return true }
            let inputs = RevocationInputs(
                crls: config.revocationInputs.crls + config.fetchedRevocationInputs.crls + fetched.crls,
                ocspResponses: config.revocationInputs.ocspResponses + config.fetchedRevocationInputs.ocspResponses + fetched.ocspResponses)
            let checker = RevocationChecker(options: flags, inputs: inputs, time: time,
                                            signatures: SignatureChecker(policy: config.signaturePolicy))
            guard let status = checker.check(first.chain).statuses.first(where: { $0.index == index })?.status else { return true }
            if case .unknown = status { return false }
            return true
        }
        for status in unknown {
            let index = status.index
            guard index + 1 < first.chain.count else { continue }
            let certificate = first.chain[index]
            let issuer = first.chain[index + 1]
            let order: [Bool] = preferCRL ? [false, true] : [true, false]  // true = OCSP
            for ocsp in order {
                let before = fetched.crls.count + fetched.ocspResponses.count
                if ocsp && useOCSP {
                    await Self.fetchOCSP(for: certificate, issuer: issuer, fetcher: fetcher, into: &fetched)
                } else if !ocsp && useCRL {
                    await Self.fetchCRLs(for: certificate, fetcher: fetcher, into: &fetched)
                }
                // The preferred method answered (good or revoked): do not also ask the other one.
                if fetched.crls.count + fetched.ocspResponses.count > before, isAnswered(index) { break }
            }
        }
        guard !fetched.crls.isEmpty || !fetched.ocspResponses.isEmpty else { return first }
        update { config in
            config.fetchedRevocationInputs.crls.append(contentsOf: fetched.crls)
            config.fetchedRevocationInputs.ocspResponses.append(contentsOf: fetched.ocspResponses)
        }
        return evaluate()
    }

    private static func fetchOCSP(for certificate: Certificate, issuer: Certificate, fetcher: any RevocationFetcher,
                                  into inputs: inout RevocationInputs) async {
        let urls = certificate.extensions.authorityInformationAccess?.ocspURIs ?? []
        let request = OCSPRequest(certIDs: [OCSPCertID(certificate: certificate, issuer: issuer, hash: .sha1)])
        for url in urls.prefix(2) {
            guard let bytes = try? await fetcher.fetchOCSPResponse(from: url, request: request.derEncoded),
                  let response = try? OCSPResponse(derEncoded: bytes) else { continue }
            inputs.ocspResponses.append((response, .fetchedOCSP(url: url)))
            return
        }
    }

    private static func fetchCRLs(for certificate: Certificate, fetcher: any RevocationFetcher, into inputs: inout RevocationInputs) async {
        let urls = (certificate.extensions.crlDistributionPoints?.points.flatMap(\.uris) ?? []).filter { $0.lowercased().hasPrefix("http://") }
        for url in urls.prefix(2) {
            guard let bytes = try? await fetcher.fetchCRL(from: url),
                  let crls = try? CertificateRevocationList.loadAll(from: bytes) else { continue }
            inputs.crls.append(contentsOf: crls.map { ($0, .fetchedCRL(url: url)) })
            return
        }
    }
}
