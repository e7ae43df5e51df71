import TrustX509

/// Whether a complete CRL covers a certificate, and for which reasons: RFC 5280 §6.3.3 (b) and (d),
/// for one distribution point of the certificate at a time.
///
/// A CRL outside a certificate's scope says nothing about it (neither revoked nor good): a CRL
/// partitioned by distribution point, by certificate kind or by reason only speaks for its part.
enum CRLScope {
    /// A distribution point as §6.3.3 walks them.
    struct Point {
        /// Where the CRL is published (nil when the point names only a cRLIssuer).
        let name: DistributionPointName?
        /// The reasons the point covers (nil: every reason).
        let reasons: RevocationReasons?
        /// Who issues the point's CRL when it is not the certificate's issuer (an indirect CRL).
        let crlIssuer: [GeneralName]?

        /// The CRL issuer names this point accepts: its cRLIssuer's directory names, else the
        /// certificate's issuer (§6.3.3 (b)(1)).
        func crlIssuerNames(certificateIssuer: DistinguishedName) -> [DistinguishedName] {
            guard let crlIssuer else { return [certificateIssuer] }
            return crlIssuer.compactMap { if case let .directoryName(name) = $0 { name } else { nil } }
        }
    }

    /// The points to consult for `certificate`: its cRLDistributionPoints, or without that extension
    /// the one implicit point whose CRLs its issuer publishes for every reason.
    static func points(of certificate: Certificate) -> [Point] {
        guard let listed = certificate.extensions.crlDistributionPoints?.points else {
            return [Point(name: nil, reasons: nil, crlIssuer: nil)]
        }
        return listed.map { Point(name: $0.name, reasons: $0.reasons, crlIssuer: $0.crlIssuer) }
    }

    /// The reasons `crl` covers for `certificate` at `point` (§6.3.3 (d)'s interim_reasons_mask),
    /// or why the CRL does not cover it at all.
    static func coverage(
        of crl: CertificateRevocationList, for certificate: Certificate,
        at point: Point
    ) -> Result<RevocationReasons, CRLOutOfScope> {
        let idp = crl.issuingDistributionPoint
        // (b)(1): the CRL is issued by the point's cRLIssuer (and then must say it is indirect), or
        // by the certificate's issuer.
        guard point.crlIssuerNames(certificateIssuer: certificate.issuer).contains(crl.issuer) else {
            return .failure(.otherIssuer)
        }
        if point.crlIssuer != nil, idp?.indirectCRL != true { return .failure(.notIndirect) }
        if let idp {
            // (b)(2)(i): the CRL's distribution point is one of the certificate's.
            if let crlPoint = idp.distributionPoint {
                let crlNames = crlPoint.fullNames(relativeTo: crl.issuer)
                let certificateNames: [GeneralName]
                if let name = point.name {
                    // A relative name is relative to the point's CRL issuer (its cRLIssuer, else the certificate's issuer).
                    let base = point.crlIssuerNames(certificateIssuer: certificate.issuer).first ?? certificate.issuer
                    certificateNames = name.fullNames(relativeTo: base)
                } else if let crlIssuer = point.crlIssuer {
                    certificateNames = crlIssuer
                } else {
                    // The certificate names no distribution point, the CRL is one partition of many.
                    return .failure(.partitioned(crlNames))
                }
                guard crlNames.contains(where: certificateNames.contains) else {
                    return .failure(.otherDistributionPoint(crl: crlNames, certificate: certificateNames))
                }
            }
            // (b)(2)(ii)–(iv): the kinds of certificate the CRL lists.
            let isCA = certificate.extensions.basicConstraints?.isCA ?? false
            if idp.onlyContainsUserCerts && isCA { return .failure(.onlyEndEntities) }
            if idp.onlyContainsCACerts && !isCA { return .failure(.onlyCAs) }
            if idp.onlyContainsAttributeCerts { return .failure(.onlyAttributeCertificates) }
        }
        // (d): the reasons both the CRL and the point cover.
        let reasons = (idp?.onlySomeReasons ?? .all).intersection(point.reasons ?? .all).intersection(.all)
        return .success(reasons)
    }
}
