import TrustCrypto
import TrustDER
import TrustX509

/// Problems and risks worth flagging in a chain, trusted or not.
enum ChainFindings {
    static let expiryWarningDays: Int64 = 30

    static func findings(evaluation: TrustEvaluation, presented: [Certificate], host: String?, time: DERTime?) -> [ChainDiagnostics.Finding] {
        var findings: [ChainDiagnostics.Finding] = []
        func add(_ severity: String, _ index: Int?, _ message: String) {
            findings.append(ChainDiagnostics.Finding(severity: severity, certificateIndex: index, message: message))
        }
        let chain = evaluation.chain
        let now = time?.secondsSince1970 ?? 0
        for (index, certificate) in chain.enumerated() {
            let left = certificate.notAfter.secondsSince1970 - now
            if left < 0 {
                add("error", index, "expired on \(certificate.notAfter)")
            } else if left < expiryWarningDays * 86_400 {
                add("warning", index, "expires in \(left / 86_400) days (\(certificate.notAfter))")
            }
            if now < certificate.notBefore.secondsSince1970 { add("error", index, "not valid before \(certificate.notBefore)") }
            if let algorithm = try? certificate.signatureAlgorithm(), algorithm.isLegacy, index < chain.count - 1 || !evaluation.endsAtAnchor {
                add("warning", index, "signed with SHA-1 (\(certificate.signatureAlgorithmIdentifier)): rejected by default, reissue with SHA-256")
            }
            if case let .rsa(bits)? = certificate.publicKeyDescription?.kind, bits < 2048 {
                add("warning", index, "RSA key of \(bits) bits: below the 2048-bit minimum")
            }
            let isAnchor = evaluation.endsAtAnchor && index == chain.count - 1
            if certificate.extensions.authorityKeyIdentifier == nil && !certificate.isSelfIssued && !isAnchor {
                add("warning", index, "no authorityKeyIdentifier: issuer lookup relies on names only")
            }
            if index > 0 && certificate.extensions.subjectKeyIdentifier == nil {
                add("warning", index, "CA without subjectKeyIdentifier")
            }
        }
        if let leaf = chain.first {
            if leaf.extensions.subjectAlternativeNames == nil {
                add("error", 0, "leaf has no subjectAltName: host names are matched against SANs only (the CN is ignored)")
            }
            if leaf.isCA { add("warning", 0, "leaf is a CA certificate (basicConstraints cA=TRUE)") }
            if let host, let identity = ServerIdentity(host) {
                let ips = leaf.ipAddresses.compactMap { IPAddress(bytes: $0) }
                if !HostnameMatcher.matches(identity, dnsNames: leaf.dnsNames, ipAddresses: ips) {
                    let sans = (leaf.extensions.subjectAlternativeNames ?? []).map(\.description).joined(separator: ", ")
                    add("error", 0, "host \(host) does not match the leaf's SANs [\(sans)]")
                }
            }
            if leaf.extensions.tlsFeature?.requiresOCSPStapling == true {
                add("warning", 0, "must-staple (TLS feature status_request): the server must staple an OCSP response; none was supplied here")
            }
            // The peer should send every intermediate; we found one elsewhere, or none.
            if let issuerIndex = chain.indices.dropFirst().first, !(evaluation.endsAtAnchor && issuerIndex == chain.count - 1),
               !presented.contains(chain[issuerIndex]) {
                add("warning", issuerIndex, "intermediate not sent by the peer (found among supplied intermediates): clients without it will fail")
            }
            if presented.count == 1, !evaluation.isTrusted,
               evaluation.failures.contains(where: { if case .issuerNotFound = $0.reason { true } else { false } }) {
                add("error", 0, "chain sent without its intermediate: the issuer \(leaf.issuer) was not found")
            }
        }
        for (index, certificate) in presented.enumerated() where index > 0 && certificate.isSelfIssued {
            add("info", nil, "presented #\(index) is a self-signed root: servers should not send it")
        }
        return findings
    }
}
