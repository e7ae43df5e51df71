import TrustCrypto
import TrustDER
import TrustX509

/// Reads every view of a parsed document, the way `trustctl inspect` and the validator do: the
/// parse is lazy in places, so a view that is never read is a code path never fuzzed.
enum Views {
    /// Every property, extension view, name rendering, key and fingerprint of `certificate`.
    static func read(_ certificate: Certificate) {
        Sink.keep(certificate.version)
        Sink.keep(certificate.serialNumber)
        Sink.keep(certificate.serialNumberIsNegative)
        Sink.keep(certificate.serialNumberIsZero)
        Sink.keep(certificate.serialNumberIsOverlong)
        Sink.keep(certificate.serialNumberHex)
        Sink.describe(certificate.signatureAlgorithmIdentifier)
        Sink.keep(certificate.tbsSignatureAlgorithmIdentifier.isSameAlgorithm(as: certificate.signatureAlgorithmIdentifier))
        for defect in certificate.semanticDefects {
            Sink.keep(defect.offset)
            Sink.describe(defect)
        }
        read(certificate.issuer)
        read(certificate.subject)
        Sink.keep(certificate.subject.hasPrefix(certificate.issuer))
        Sink.describe(certificate.validity)
        Sink.describe(certificate.notBefore)
        Sink.describe(certificate.notAfter)
        Sink.describe(certificate.publicKeyInfo.algorithm)
        Sink.keep(certificate.publicKeyInfo)
        Sink.describe(certificate.issuerUniqueID as Any)
        Sink.describe(certificate.subjectUniqueID as Any)
        read(certificate.extensions)
        Sink.keep(certificate.signature)
        Sink.keep(certificate.isSelfIssued)
        Sink.keep(certificate.isCA)
        Sink.keep(certificate.dnsNames)
        Sink.keep(certificate.ipAddresses)
        Sink.describe(certificate.publicKeyDescription as Any)
        Sink.keep(certificate.sha256Fingerprint)
        Sink.keep(certificate.sha1Fingerprint)
        Sink.keep(certificate.spkiPin)
        Sink.describe(certificate)
        Sink.keep(certificate)
        // The signature checks a validator makes: algorithm, key, and (for a self-issued
        // certificate) the signature with its own key, through libcrypto.
        do {
            let algorithm = try certificate.signatureAlgorithm()
            let key = try certificate.verificationKey()
            try SignatureVerifier.verify(
                signature: certificate.signature, over: certificate.tbsCertificateBytes,
                algorithm: algorithm, key: key)
        } catch {
            Sink.describe(error)
        }
    }

    /// Every extension and every typed extension view.
    static func read(_ extensions: Extensions) {
        for item in extensions.all {
            Sink.keep(item)
            Sink.keep(item.name)
            Sink.describe(item.kind as Any)
        }
        Sink.describe(extensions.basicConstraints as Any)
        Sink.describe(extensions.keyUsage as Any)
        Sink.describe(extensions.extendedKeyUsage as Any)
        read(extensions.subjectAlternativeNames ?? [])
        read(extensions.issuerAlternativeNames ?? [])
        if let constraints = extensions.nameConstraints {
            read(constraints.permittedSubtrees)
            read(constraints.excludedSubtrees)
            Sink.keep(constraints.hasPermittedSubtrees)
        }
        if let identifier = extensions.authorityKeyIdentifier {
            Sink.keep(identifier)
            read(identifier.authorityCertIssuer ?? [])
        }
        Sink.describe(extensions.subjectKeyIdentifier as Any)
        Sink.keep(extensions.certificatePolicies?.identifiers.map(\.dotted) ?? [])
        Sink.describe(extensions.policyMappings as Any)
        Sink.describe(extensions.policyConstraints as Any)
        Sink.describe(extensions.inhibitAnyPolicy as Any)
        for point in extensions.crlDistributionPoints?.points ?? [] {
            Sink.keep(point.uris)
            read(point.crlIssuer ?? [])
            Sink.describe(point)
        }
        if let access = extensions.authorityInformationAccess {
            Sink.keep(access.ocspURIs)
            Sink.keep(access.caIssuersURIs)
        }
        Sink.keep(extensions.tlsFeature?.requiresOCSPStapling ?? false)
        Sink.keep(extensions.signedCertificateTimestamps ?? [])
        Sink.keep(extensions.criticalExtensions(notIn: []).count)
    }

    /// The renderings and normalised forms of a name.
    static func read(_ name: DistinguishedName) {
        Sink.describe(name)
        Sink.keep(name.normalizedKey)
        Sink.keep(name.rdns)
        Sink.keep(name.commonNames)
        Sink.keep(name.isEmpty)
        Sink.keep(name)
    }

    /// The renderings of general names, with directory names and IP addresses read as such.
    static func read(_ names: [GeneralName]) {
        for name in names {
            Sink.describe(name)
            switch name {
            case .directoryName(let directory): read(directory)
            case .ipAddress(let bytes): Sink.keep(GeneralName.formatIP(bytes))
            default: Sink.keep(name)
            }
        }
    }

    /// Every property of a CRL, its entries, and lookups by serial number.
    static func read(_ crl: CertificateRevocationList) {
        Sink.keep(crl.version)
        Sink.describe(crl.signatureAlgorithmIdentifier)
        Sink.describe(crl.signature)
        read(crl.issuer)
        Sink.describe(crl.thisUpdate)
        Sink.describe(crl.nextUpdate as Any)
        for entry in crl.entries {
            Sink.keep(entry)
            read(entry.certificateIssuer ?? [])
            Sink.keep(crl.entry(forSerialNumber: entry.serialNumber) != nil)
            Sink.keep(crl.entry(forSerialNumber: entry.serialNumber, issuedBy: crl.issuer) != nil)
        }
        Sink.keep(crl.entry(forSerialNumber: [0x01]) != nil)
        for item in crl.extensions { Sink.keep(item.name) }
        Sink.describe(crl.crlNumber as Any)
        Sink.describe(crl.deltaCRLIndicator as Any)
        Sink.keep(crl.isDelta)
        if let point = crl.issuingDistributionPoint {
            Sink.describe(point)
            Sink.keep(point.distributionPoint?.fullNames(relativeTo: crl.issuer).count ?? 0)
        }
        Sink.describe(crl.authorityKeyIdentifier as Any)
        for defect in crl.semanticDefects { Sink.describe(defect) }
        do {
            Sink.describe(try crl.signatureAlgorithm())
        } catch {
            Sink.describe(error)
        }
    }
}
