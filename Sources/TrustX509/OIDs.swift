import TrustDER

/// Object identifiers used by the X.509 model, with readable names.
public enum OID {
    // Extensions (RFC 5280 §4.2).
    /// subjectKeyIdentifier.
    public static let subjectKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.14"
    /// keyUsage.
    public static let keyUsage: ASN1ObjectIdentifier = "2.5.29.15"
    /// subjectAltName.
    public static let subjectAltName: ASN1ObjectIdentifier = "2.5.29.17"
    /// issuerAltName.
    public static let issuerAltName: ASN1ObjectIdentifier = "2.5.29.18"
    /// basicConstraints.
    public static let basicConstraints: ASN1ObjectIdentifier = "2.5.29.19"
    /// nameConstraints.
    public static let nameConstraints: ASN1ObjectIdentifier = "2.5.29.30"
    /// cRLDistributionPoints.
    public static let crlDistributionPoints: ASN1ObjectIdentifier = "2.5.29.31"
    /// certificatePolicies.
    public static let certificatePolicies: ASN1ObjectIdentifier = "2.5.29.32"
    /// policyMappings.
    public static let policyMappings: ASN1ObjectIdentifier = "2.5.29.33"
    /// authorityKeyIdentifier.
    public static let authorityKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.35"
    /// policyConstraints.
    public static let policyConstraints: ASN1ObjectIdentifier = "2.5.29.36"
    /// extKeyUsage.
    public static let extendedKeyUsage: ASN1ObjectIdentifier = "2.5.29.37"
    /// freshestCRL.
    public static let freshestCRL: ASN1ObjectIdentifier = "2.5.29.46"
    /// inhibitAnyPolicy.
    public static let inhibitAnyPolicy: ASN1ObjectIdentifier = "2.5.29.54"
    /// authorityInfoAccess.
    public static let authorityInfoAccess: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.1.1"
    /// subjectInfoAccess.
    public static let subjectInfoAccess: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.1.11"
    /// TLS feature (RFC 7633), e.g. OCSP must-staple.
    public static let tlsFeature: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.1.24"
    /// Signed certificate timestamp list (RFC 6962).
    public static let sctList: ASN1ObjectIdentifier = "1.3.6.1.4.1.11129.2.4.2"
    /// CT precertificate poison (RFC 6962).
    public static let ctPoison: ASN1ObjectIdentifier = "1.3.6.1.4.1.11129.2.4.3"
    /// Signed certificate timestamp list in an OCSP single response (RFC 6962 §3.3).
    public static let ocspSCTList: ASN1ObjectIdentifier = "1.3.6.1.4.1.11129.2.4.5"

    // CRL and OCSP (RFC 5280 §5, RFC 6960).
    /// cRLNumber.
    public static let crlNumber: ASN1ObjectIdentifier = "2.5.29.20"
    /// reasonCode (CRL entry).
    public static let crlReason: ASN1ObjectIdentifier = "2.5.29.21"
    /// invalidityDate (CRL entry).
    public static let invalidityDate: ASN1ObjectIdentifier = "2.5.29.24"
    /// deltaCRLIndicator.
    public static let deltaCRLIndicator: ASN1ObjectIdentifier = "2.5.29.27"
    /// issuingDistributionPoint.
    public static let issuingDistributionPoint: ASN1ObjectIdentifier = "2.5.29.28"
    /// certificateIssuer (CRL entry).
    public static let certificateIssuer: ASN1ObjectIdentifier = "2.5.29.29"
    /// id-pkix-ocsp-basic.
    public static let ocspBasic: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.1.1"
    /// id-pkix-ocsp-nonce.
    public static let ocspNonce: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.1.2"
    /// id-pkix-ocsp-nocheck.
    public static let ocspNoCheck: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.1.5"

    // Policies.
    /// anyPolicy (RFC 5280 §4.2.1.4).
    public static let anyPolicy: ASN1ObjectIdentifier = "2.5.29.32.0"
    /// CPS pointer qualifier.
    public static let cpsQualifier: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.2.1"
    /// User notice qualifier.
    public static let userNoticeQualifier: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.2.2"

    // Extended key usages (RFC 5280 §4.2.1.12).
    /// anyExtendedKeyUsage.
    public static let anyExtendedKeyUsage: ASN1ObjectIdentifier = "2.5.29.37.0"
    /// id-kp-serverAuth.
    public static let serverAuth: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.1"
    /// id-kp-clientAuth.
    public static let clientAuth: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.2"
    /// id-kp-codeSigning.
    public static let codeSigning: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.3"
    /// id-kp-emailProtection.
    public static let emailProtection: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.4"
    /// id-kp-timeStamping.
    public static let timeStamping: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.8"
    /// id-kp-OCSPSigning.
    public static let ocspSigning: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.9"
    /// Microsoft Server Gated Cryptography (szOID_SERVER_GATED_CRYPTO).
    public static let microsoftServerGatedCryptography: ASN1ObjectIdentifier = "1.3.6.1.4.1.311.10.3.3"
    /// Netscape Server Gated Cryptography (nsSGC).
    public static let netscapeServerGatedCryptography: ASN1ObjectIdentifier = "2.16.840.1.113730.4.1"

    // Access methods.
    /// id-ad-ocsp.
    public static let accessOCSP: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.1"
    /// id-ad-caIssuers.
    public static let accessCAIssuers: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.2"

    // Name attributes (RFC 5280 Appendix A, RFC 4519).
    /// commonName.
    public static let commonName: ASN1ObjectIdentifier = "2.5.4.3"
    /// emailAddress (PKCS #9, legacy).
    public static let emailAddress: ASN1ObjectIdentifier = "1.2.840.113549.1.9.1"

    /// Short names for name attributes as used by RFC 4514 (and OpenSSL for the rest).
    static let attributeShortNames: [ASN1ObjectIdentifier: String] = [
        "2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.9": "STREET",
        "2.5.4.10": "O", "2.5.4.11": "OU", "0.9.2342.19200300.100.1.25": "DC",
        "0.9.2342.19200300.100.1.1": "UID", "2.5.4.5": "serialNumber", "2.5.4.4": "SN",
        "2.5.4.42": "GN", "2.5.4.12": "title", "2.5.4.43": "initials", "2.5.4.44": "generationQualifier",
        "2.5.4.46": "dnQualifier", "2.5.4.65": "pseudonym", "2.5.4.17": "postalCode",
        "1.2.840.113549.1.9.1": "emailAddress", "2.5.4.97": "organizationIdentifier",
        "1.3.6.1.4.1.311.60.2.1.3": "jurisdictionC", "2.5.4.15": "businessCategory",
    ]

    /// Readable names for extensions, key usages and policies, for display.
    static let names: [ASN1ObjectIdentifier: String] = [
        subjectKeyIdentifier: "subjectKeyIdentifier", keyUsage: "keyUsage", subjectAltName: "subjectAltName",
        issuerAltName: "issuerAltName", basicConstraints: "basicConstraints", nameConstraints: "nameConstraints",
        crlDistributionPoints: "cRLDistributionPoints", certificatePolicies: "certificatePolicies",
        policyMappings: "policyMappings", authorityKeyIdentifier: "authorityKeyIdentifier",
        policyConstraints: "policyConstraints", extendedKeyUsage: "extKeyUsage", freshestCRL: "freshestCRL",
        inhibitAnyPolicy: "inhibitAnyPolicy", authorityInfoAccess: "authorityInfoAccess",
        subjectInfoAccess: "subjectInfoAccess", tlsFeature: "tlsFeature", sctList: "signedCertificateTimestampList",
        ctPoison: "ctPrecertificatePoison", ocspSCTList: "ocspSignedCertificateTimestampList", crlNumber: "cRLNumber", crlReason: "reasonCode",
        invalidityDate: "invalidityDate",
        deltaCRLIndicator: "deltaCRLIndicator", issuingDistributionPoint: "issuingDistributionPoint",
        certificateIssuer: "certificateIssuer", ocspNonce: "OCSPNonce", ocspNoCheck: "OCSPNoCheck",
        anyExtendedKeyUsage: "anyExtendedKeyUsage", serverAuth: "serverAuth", clientAuth: "clientAuth",
        codeSigning: "codeSigning", emailProtection: "emailProtection", timeStamping: "timeStamping",
        ocspSigning: "OCSPSigning", microsoftServerGatedCryptography: "msSGC", netscapeServerGatedCryptography: "nsSGC",
        anyPolicy: "anyPolicy", accessOCSP: "OCSP", accessCAIssuers: "caIssuers",
        "2.23.140.1.2.1": "domainValidated", "2.23.140.1.2.2": "organizationValidated",
        "2.23.140.1.2.3": "individualValidated", "2.23.140.1.1": "extendedValidation",
    ]

    /// The readable name of `oid`, or its dotted form.
    public static func name(of oid: ASN1ObjectIdentifier) -> String {
        names[oid] ?? attributeShortNames[oid] ?? oid.dotted
    }
}
