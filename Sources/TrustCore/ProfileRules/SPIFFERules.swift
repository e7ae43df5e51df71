import TrustNames
import TrustX509

/// SPIFFE X.509-SVIDs (spiffe/spiffe standards/X509-SVID.md; the spiffe profile only): the leaf's one
/// URI SAN is a SPIFFE ID, the leaf is no CA and only signs, signing certificates have keyUsage.
enum SPIFFERules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .svidSingleURI, profiles: [.spiffe],
            source: "SPIFFE X509-SVID §2, §5.2",
            summary: "The leaf (an X.509-SVID) has exactly one URI subjectAltName.",
            scope: .certificate),
        ProfileRuleSpecification(
            .svidSPIFFEID, profiles: [.spiffe],
            source: "SPIFFE X509-SVID §3.1, §5.2; SPIFFE-ID §2",
            summary:
                "The leaf's URI subjectAltName is a valid SPIFFE ID (scheme, trust domain and path characters, no empty or dot segments, lengths) with a path.",
            scope: .certificate),
        ProfileRuleSpecification(
            .svidLeafNotCA, profiles: [.spiffe],
            source: "SPIFFE X509-SVID §4.1, §5.2",
            summary: "The leaf is not a CA (basicConstraints cA false or absent).",
            scope: .certificate),
        ProfileRuleSpecification(
            .svidLeafDigitalSignature, profiles: [.spiffe],
            source: "SPIFFE X509-SVID §4.3",
            summary: "The leaf has keyUsage with digitalSignature.",
            scope: .certificate),
        ProfileRuleSpecification(
            .svidLeafNotSigner, profiles: [.spiffe],
            source: "SPIFFE X509-SVID §4.3, §5.2",
            summary: "The leaf's keyUsage sets neither keyCertSign nor cRLSign.",
            scope: .certificate),
        ProfileRuleSpecification(
            .svidSigningCertificateKeyUsage, profiles: [.spiffe],
            source: "SPIFFE X509-SVID §3.2, §4.3",
            summary:
                "Every signing certificate, the trust anchor included, has keyUsage (keyCertSign in it is RFC 5280 §6.1.4 (n)'s check, and anchorIsCA's for the anchor).",
            scope: .certificate),
    ]

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {
        let certificate = subject.certificate
        let usage = subject.extensions.keyUsage
        guard subject.isLeaf else {
            // §3.2, §4.3: a signing certificate sets keyCertSign, so it has keyUsage (a keyUsage without
            // keyCertSign is RFC 5280 §6.1.4 (n)'s failure, and anchorIsCA's for the anchor).
            if usage == nil { report.check(.svidSigningCertificateKeyUsage, .svidSigningCertificateWithoutKeyUsage) }
            return
        }
        // §2, §5.2: exactly one URI SAN, and (SPIFFE-ID §2; X509-SVID §3.1, §5.2) it is a SPIFFE ID with a path.
        let uris = certificate.uriSubjectAltNames
        if uris.isEmpty {
            report.check(.svidSingleURI, .svidWithoutURI)
        } else if uris.count > 1 {
            report.check(.svidSingleURI, .svidWithSeveralURIs(count: uris.count))
        } else {
            do throws(SPIFFEIDError) {
                let id = try SPIFFEID(uris[0])
                if id.isTrustDomainID { report.check(.svidSPIFFEID, .svidSPIFFEIDWithoutPath(id)) }
            } catch {
                report.check(.svidSPIFFEID, .invalidSPIFFEID(uri: uris[0], error: error))
            }
        }
        // §4.1, §5.2: the leaf is not a CA.
        if subject.isCA { report.check(.svidLeafNotCA, .svidLeafIsCA) }
        // §4.3: keyUsage with digitalSignature; §4.3, §5.2: neither keyCertSign nor cRLSign.
        guard let usage else { return report.check(.svidLeafDigitalSignature, .svidLeafWithoutKeyUsage) }
        if !usage.contains(.digitalSignature) { report.check(.svidLeafDigitalSignature, .svidLeafWithoutDigitalSignature) }
        if usage.contains(.keyCertSign) { report.check(.svidLeafNotSigner, .svidLeafKeyCertSign) }
        if usage.contains(.cRLSign) { report.check(.svidLeafNotSigner, .svidLeafCRLSign) }
    }
}
