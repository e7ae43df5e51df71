import TrustX509

/// OCSP (RFC 6960) as a revocation method: responses the caller supplied (stapled) or fetched from
/// the certificate's authorityInfoAccess OCSP URLs, judged by ``OCSPCheck``.
enum OCSPRevocationMethod: RevocationMethodDefinition {
    static let method = RevocationMethod.ocsp
    static let flag = RevocationOptions.ocsp
    static let flagNames = (name: "ocsp", swiftName: "ocsp")
    static let preference: (flag: RevocationOptions, name: String, swiftName: String)? = nil
    /// Largest response asked for: a response about one certificate is a few KiB.
    static let maximumResponseBytes = 64 * 1024

    static func urls(of certificate: Certificate) -> [String] {
        certificate.extensions.authorityInformationAccess?.ocspURIs ?? []
    }

    static func status(of chain: [Certificate], at index: Int, checker: RevocationChecker) throws(BudgetExhausted)
        -> RevocationCheckOutcome
    {
        try OCSPCheck.status(
            of: chain[index], issuer: chain[index + 1], responses: checker.inputs.ocspResponses, checker: checker)
    }

    /// Asks the certificate's OCSP responders in turn until one gives a response that verifies.
    static func fetch(for certificate: Certificate, issuer: Certificate, in session: inout RevocationFetchSession)
        async throws(BudgetExhausted)
    {
        let request = OCSPRequest(certIDs: [OCSPCertID(certificate: certificate, issuer: issuer, hash: .sha1)]).derEncoded
        for url in urls(of: certificate).prefix(RevocationFetchSession.urlsPerMethod) {
            let source = RevocationSource.fetchedOCSP(url: url)
            // The key holds the request, which names the certificate the response was verified for.
            let key = RevocationResponseCache.Key(method, url: url, issuer: issuer, request: request)
            if let response = session.lookUp(key, as: OCSPResponse.self)?.first {
                session.verified.append(response, from: source)
                return
            }
            guard
                let response = await session.fetch(
                    .ocspRequest(request, to: url), parse: { try OCSPResponse(derEncoded: $0) })
            else { continue }
            guard try OCSPCheck.verifies(response, certificate: certificate, issuer: issuer, checker: session.checker) else {
                session.rejected.append(response, from: source)
                continue
            }
            session.verified.append(response, from: source)
            let nextUpdate = response.responses.filter { $0.certID.identifies(certificate, issuedBy: issuer) }
                .compactMap(\.nextUpdate).min { $0.secondsSince1970 < $1.secondsSince1970 }
            session.cache?.store([response], for: key, nextUpdate: nextUpdate)
            return
        }
    }
}

extension RevocationMethod {
    /// OCSP responses (RFC 6960): supplied, stapled or fetched from the AIA OCSP URL.
    public static let ocsp = RevocationMethod(name: "OCSP")
}

extension RevocationOptions {
    /// Check OCSP (`kSecRevocationOCSPMethod`).
    public static let ocsp = RevocationOptions(rawValue: 1 << 0)
}

extension RevocationSource {
    /// An OCSP response supplied by the caller (e.g. stapled: ``ServerTrust/setOCSPResponses(_:)``).
    public static let suppliedOCSP = RevocationSource(.ocsp, url: nil)
    /// An OCSP response fetched from a certificate's AIA responder.
    public static func fetchedOCSP(url: String) -> RevocationSource { RevocationSource(.ocsp, url: url) }
}

extension FetchPurpose {
    /// An OCSP response, from an authorityInfoAccess OCSP URL (RFC 6960 §4.1, Appendix A).
    public static var ocsp: FetchPurpose { .revocation(.ocsp) }
}

extension RevocationFetchRequest {
    /// A POST of the DER OCSP `request` to the responder at `url` (RFC 6960 Appendix A.1).
    public static func ocspRequest(_ request: [UInt8], to url: String) -> RevocationFetchRequest {
        RevocationFetchRequest(
            method: .ocsp, url: url, body: request, contentType: "application/ocsp-request",
            maximumBytes: OCSPRevocationMethod.maximumResponseBytes)
    }
}

extension RevocationFetcher {
    /// POSTs the DER OCSP `request` to the responder at `url` and returns the DER response
    /// (``fetch(_:)`` with ``RevocationFetchRequest/ocspRequest(_:to:)``).
    public func fetchOCSPResponse(from url: String, request: [UInt8]) async throws -> [UInt8] {
        try await fetch(.ocspRequest(request, to: url))
    }
}

extension RevocationInputs {
    /// The OCSP responses, with their sources.
    var ocspResponses: [(OCSPResponse, RevocationSource)] { documents(OCSPResponse.self, of: .ocsp) }
}

extension TrustConfiguration {
    /// OCSP responses to check revocation with, e.g. one stapled in the TLS handshake (`SecTrustSetOCSPResponse`).
    public var ocspResponses: [OCSPResponse] {
        get { revocationInputs.ocspResponses.map(\.0) }
        set { revocationInputs.setDocuments(newValue, of: .ocsp, from: .suppliedOCSP) }
    }
}

extension ServerTrust {
    /// Supplies OCSP responses, e.g. one stapled in the TLS handshake (`SecTrustSetOCSPResponse`).
    public func setOCSPResponses(_ responses: [OCSPResponse]) {
        update { $0.configuration.ocspResponses = responses }
    }

    /// The OCSP responses supplied with ``setOCSPResponses(_:)``.
    public var suppliedOCSPResponses: [OCSPResponse] { snapshot.configuration.ocspResponses }
}
