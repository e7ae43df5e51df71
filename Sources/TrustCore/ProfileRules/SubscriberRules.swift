import TrustCrypto
import TrustX509

/// CA/Browser Forum Baseline Requirements for subscriber certificates and keys (web PKI only): the
/// leaf's extendedKeyUsage, a CA certificate never serving as a leaf, the allowed key algorithms and
/// sizes, and extendedKeyUsage chaining up to the trust anchor.
enum SubscriberRules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .leafExtendedKeyUsage, profiles: [.webPKI],
            source: "CABF 7.1.2.7.6, 7.1.2.7.10",
            summary:
                "A subscriber's extKeyUsage is present, non-critical and never anyExtendedKeyUsage (not required of a leaf the caller trusts directly).",
            scope: .certificate),
        ProfileRuleSpecification(
            .caCertificateAsLeaf, profiles: [.webPKI],
            source: "CABF 7.1.2.7.8",
            summary: "A CA certificate is never a TLS leaf (unless the caller trusts it as an anchor itself).",
            scope: .certificate),
        ProfileRuleSpecification(
            .keyAlgorithm, profiles: [.webPKI],
            source: "CABF 6.1.5, 7.1.3.1",
            summary:
                "RSA moduli of at least 2048 bits and a multiple of 8; keys are RSA, ECDSA P-256/384/521 or EdDSA (EdDSA is a deliberate extension).",
            scope: .certificate),
        ProfileRuleSpecification(
            .anchorExtendedKeyUsage, profiles: [.webPKI],
            source: "RFC 5937 §3; Chrome, Mozilla, Go, pyca",
            summary: "A trust anchor that carries extendedKeyUsage lists the purpose or anyExtendedKeyUsage.",
            scope: .issuer, reads: .anchorConstraint),
    ]

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {
        if subject.isLeaf {
            let ekuCriticality = subject.critical(.extendedKeyUsage)
            if ekuCriticality == true { report.check(.leafExtendedKeyUsage, .leafExtendedKeyUsageCritical) }
            if ekuCriticality == nil && !subject.isAnchor { report.check(.leafExtendedKeyUsage, .leafExtendedKeyUsageMissing) }
            if subject.extensions.extendedKeyUsage?.contains(OID.anyExtendedKeyUsage) == true {
                report.check(.leafExtendedKeyUsage, .leafAnyExtendedKeyUsage)
            }
            // CABF 7.1.2.7.8: subscriber certificates are not CAs; a self-signed certificate the caller
            // trusts directly (`openssl req -x509` sets cA) is the caller's business.
            if subject.isCA && !subject.isAnchor { report.check(.caCertificateAsLeaf, .caCertificateAsLeaf) }
        }
        report.check(.keyAlgorithm, keyAlgorithmProblem(subject.certificate, minimumRSABits: subject.flags.minimumRSABits))
    }

    /// CABF 6.1.5 / 7.1.3.1: RSA moduli of at least 2048 bits and divisible by 8; ECDSA on P-256/384/521.
    /// Ed25519 and Ed448 are accepted too (a deliberate extension beyond the Baseline Requirements).
    static func keyAlgorithmProblem(_ certificate: Certificate, minimumRSABits: Int) -> ProfileViolationDetail? {
        guard let description = certificate.publicKeyDescription else {
            do { _ = try PublicKeyDescription(spki: certificate.publicKeyInfo.der) } catch { return .publicKeyRejected(error) }
            return .publicKeyRejected(nil)
        }
        switch description.kind {
        case let .rsa(bits):
            if bits < minimumRSABits { return .rsaKeyTooSmall(bits: bits, minimumBits: minimumRSABits) }
            if bits % 8 != 0 { return .rsaModulusNotMultipleOf8(bits: bits) }
            return nil
        case let .ec(curve) where curve.bits < 256:
            return .curveNotAllowed(curve.description)
        case .ec, .ed25519, .ed448:
            return nil
        case let .unknown(oid):
            return .publicKeyAlgorithmNotAllowed(algorithmOID: oid)
        }
    }
}
