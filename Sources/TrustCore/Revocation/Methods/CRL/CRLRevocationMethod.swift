import TrustX509

/// CRLs (RFC 5280 §5, §6.3) as a revocation method: lists the caller supplied or fetched from the
/// certificate's http:// cRLDistributionPoints, judged by ``CRLCheck``.
enum CRLRevocationMethod: RevocationMethodDefinition {
    static let method = RevocationMethod.crl
    static let flag = RevocationOptions.crl
    static let flagNames = (name: "crl", swiftName: "crl")
    static let preference: (flag: RevocationOptions, name: String, swiftName: String)? = (
        .preferCRL, "prefer-crl", "preferCRL"
    )
    /// Largest list asked for: large CAs publish CRLs of several MiB.
    static let maximumResponseBytes = 20 * 1024 * 1024

    static func urls(of certificate: Certificate) -> [String] {
        certificate.extensions.crlDistributionPoints?.points.flatMap(\.uris) ?? []
    }

    static func status(of chain: [Certificate], at index: Int, checker: RevocationChecker) throws(BudgetExhausted)
        -> RevocationCheckOutcome
    {
        try CRLCheck.status(of: chain, at: index, crls: checker.inputs.crls, checker: checker)
    }

    /// Asks the certificate's http:// CRL distribution points in turn until one gives a CRL that
    /// verifies (plain HTTP is how CRLs are published: RFC 5280 §4.2.1.13; the CRL's signature,
    /// not the transport, is what is trusted).
    static func fetch(for certificate: Certificate, issuer: Certificate, in session: inout RevocationFetchSession)
        async throws(BudgetExhausted)
    {
        let points = urls(of: certificate).filter { $0.lowercased().hasPrefix("http://") }
        for url in points.prefix(RevocationFetchSession.urlsPerMethod) {
            let source = RevocationSource.fetchedCRL(url: url)
            let key = RevocationResponseCache.Key(method, url: url, issuer: issuer)
            if let crls = session.lookUp(key, as: CertificateRevocationList.self) {
                for crl in crls { session.verified.append(crl, from: source) }
                return
            }
            guard
                let crls = await session.fetch(
                    .crlDownload(from: url), parse: { try CertificateRevocationList.loadAll(from: $0) })
            else { continue }
            var verifies: [Bool] = []
            for crl in crls { verifies.append(try CRLCheck.verifies(crl, certificate: certificate, issuer: issuer, checker: session.checker)) }
            let good = zip(crls, verifies).filter { $0.1 }.map(\.0)
            // Those naming the issuer but failing their checks are reported; CRLs of other CAs are dropped.
            for (crl, verified) in zip(crls, verifies) where !verified && crl.issuer == certificate.issuer {
                session.rejected.append(crl, from: source)
            }
            guard !good.isEmpty else { continue }
            for crl in good { session.verified.append(crl, from: source) }
            // Cached until the earliest nextUpdate; a CRL without one is not cached at all.
            let updates = good.map(\.nextUpdate)
            let nextUpdate = updates.contains { $0 == nil } ? nil : updates.compactMap { $0 }.min { $0.secondsSince1970 < $1.secondsSince1970 }
            session.cache?.store(good, for: key, nextUpdate: nextUpdate)
            return
        }
    }
}

extension RevocationMethod {
    /// CRLs (RFC 5280 §5): supplied or fetched from the CRL distribution points.
    public static let crl = RevocationMethod(name: "CRL")
}

extension RevocationOptions {
    /// Check CRLs (`kSecRevocationCRLMethod`).
    public static let crl = RevocationOptions(rawValue: 1 << 1)
    /// Prefer CRLs over OCSP when both are available (`kSecRevocationPreferCRL`).
    public static let preferCRL = RevocationOptions(rawValue: 1 << 2)
}

extension RevocationSource {
    /// A CRL supplied by the caller (``ServerTrust/setCRLs(_:)``).
    public static let suppliedCRL = RevocationSource(.crl, url: nil)
    /// A CRL fetched from a certificate's distribution point.
    public static func fetchedCRL(url: String) -> RevocationSource { RevocationSource(.crl, url: url) }
}

extension FetchPurpose {
    /// A CRL, from a cRLDistributionPoints URL (RFC 5280 §4.2.1.13).
    public static var crl: FetchPurpose { .revocation(.crl) }
}

extension RevocationFetchRequest {
    /// A GET of the CRL at `url`.
    public static func crlDownload(from url: String) -> RevocationFetchRequest {
        RevocationFetchRequest(method: .crl, url: url, maximumBytes: CRLRevocationMethod.maximumResponseBytes)
    }
}

extension RevocationFetcher {
    /// Downloads the DER (or PEM) CRL at `url` (``fetch(_:)`` with ``RevocationFetchRequest/crlDownload(from:)``).
    public func fetchCRL(from url: String) async throws -> [UInt8] {
        try await fetch(.crlDownload(from: url))
    }
}

extension RevocationInputs {
    /// The CRLs, with their sources.
    var crls: [(CertificateRevocationList, RevocationSource)] { documents(CertificateRevocationList.self, of: .crl) }
}

extension TrustConfiguration {
    /// CRLs to check revocation with when it is checked (a `.revocation` policy or ``TrustOptions/revocation``).
    public var crls: [CertificateRevocationList] {
        get { revocationInputs.crls.map(\.0) }
        set { revocationInputs.setDocuments(newValue, of: .crl, from: .suppliedCRL) }
    }
}

extension ServerTrust {
    /// Supplies CRLs to use when revocation is checked (a `.revocation` policy or ``TrustOptions/revocation``) (replacing earlier ones).
    public func setCRLs(_ crls: [CertificateRevocationList]) {
        update { $0.configuration.crls = crls }
    }

    /// The CRLs supplied with ``setCRLs(_:)``.
    public var suppliedCRLs: [CertificateRevocationList] { snapshot.configuration.crls }
}
