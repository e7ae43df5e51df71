import Foundation
import SwiftTrust

/// Everything `inspect` shows about one certificate, as text or JSON.
struct CertificateReport: Encodable {
    struct ExtensionReport: Encodable {
        let name: String
        let oid: String
        let critical: Bool
        let value: String
    }

    let file: String
    let index: Int
    let version: Int
    let serialNumber: String
    let subject: String
    let issuer: String
    let notBefore: String
    let notAfter: String
    let publicKey: String
    let signatureAlgorithm: String
    let subjectAlternativeNames: [String]
    let isCA: Bool
    let selfIssued: Bool
    let extensions: [ExtensionReport]
    let sha256Fingerprint: String
    let sha1Fingerprint: String
    let spkiPin: String
    /// Semantic defects (the certificate parses, validation rejects it for these).
    let findings: [String]
    /// Encodings DER or RFC 5280 does not allow (``EncodingFinding``), read as Apple reads them:
    /// DEFAULT values written out (only the strict profiles, rfc5280-strict and webpki, reject the
    /// certificate for them) and otherName constraints without their `[0] EXPLICIT` wrapper.
    let encodingFindings: [String]

    init(_ certificate: Certificate, file: String, index: Int) {
        self.file = file
        self.index = index
        version = certificate.version
        serialNumber = certificate.serialNumberHex
        subject = certificate.subject.description
        issuer = certificate.issuer.description
        notBefore = certificate.notBefore.description
        notAfter = certificate.notAfter.description
        publicKey = certificate.publicKeyDescription?.description ?? certificate.publicKeyInfo.algorithm.description
        signatureAlgorithm = certificate.signatureAlgorithmIdentifier.description
        subjectAlternativeNames = (certificate.extensions.subjectAlternativeNames ?? []).map(\.description)
        isCA = certificate.isCA
        selfIssued = certificate.isSelfIssued
        extensions = certificate.extensions.all.map { ext in
            ExtensionReport(
                name: ext.name, oid: ext.oid.dotted, critical: ext.isCritical,
                value: ExtensionFormatter.describe(ext, in: certificate.extensions))
        }
        sha256Fingerprint = Certificate.hex(certificate.sha256Fingerprint, separator: ":")
        sha1Fingerprint = Certificate.hex(certificate.sha1Fingerprint, separator: ":")
        spkiPin = certificate.spkiPin
        findings = certificate.semanticDefects.map(\.description)
        encodingFindings = certificate.encodingFindings.map(\.description)
    }

    /// One line for bundle listings: index, CA or leaf, subject, issuer, notAfter, key and the
    /// start of the SHA-256 fingerprint.
    var summaryLine: String {
        "  \(index)  \(isCA ? "CA  " : "leaf")  \(subject)  (\(selfIssued ? "self-issued" : "issuer \(issuer)"))  notAfter \(notAfter)  "
            + "\(publicKey)  "
            + "SHA-256 \(sha256Fingerprint.prefix(23))…"
            + (findings.isEmpty ? "" : "  [\(findings.count) defect\(findings.count == 1 ? "" : "s"): \(findings.joined(separator: "; "))]")
            + (encodingFindings.isEmpty
                ? ""
                : "  [\(encodingFindings.count) encoding finding\(encodingFindings.count == 1 ? "" : "s"): \(encodingFindings.joined(separator: "; "))]")
    }

    /// The human-readable form: every field, one per line.
    var lines: [String] {
        var lines: [String] = []
        func row(_ label: String, _ value: String) { lines.append("  " + (label + ":").padding(toLength: 20, withPad: " ", startingAt: 0) + value) }
        lines.append("Certificate \(index) (\(file))")
        row("Subject", subject)
        row("Issuer", issuer)
        row("Serial", serialNumber)
        row("Version", "v\(version)")
        row("Not before", notBefore)
        row("Not after", notAfter)
        row("Public key", publicKey)
        row("Signature", signatureAlgorithm)
        row("SANs", subjectAlternativeNames.isEmpty ? "(none)" : subjectAlternativeNames.joined(separator: ", "))
        row("CA", isCA ? "yes" : "no")
        if !extensions.isEmpty {
            lines.append("  Extensions:")
            for ext in extensions {
                lines.append("    \(ext.name)\(ext.critical ? " (critical)" : ""): \(ext.value)")
            }
        }
        row("SHA-256", sha256Fingerprint)
        row("SHA-1", sha1Fingerprint)
        row("SPKI pin", spkiPin)
        if !findings.isEmpty {
            lines.append("  Findings (validation rejects this certificate):")
            for finding in findings { lines.append("    \(finding)") }
        }
        if !encodingFindings.isEmpty {
            lines.append("  Encoding findings (read as Apple reads them; the rfc5280-strict and webpki profiles reject DEFAULT values written out):")
            for finding in encodingFindings { lines.append("    \(finding)") }
        }
        return lines
    }
}

/// One-line values for known extensions.
enum ExtensionFormatter {
    static func describe(_ ext: Extension, in extensions: Extensions) -> String {
        switch ext.oid {
        case OID.basicConstraints:
            guard let bc = extensions.basicConstraints else { break }
            return "CA:\(bc.isCA ? "TRUE" : "FALSE")" + (bc.pathLengthConstraint.map { ", pathlen:\($0)" } ?? "")
        case OID.keyUsage:
            return extensions.keyUsage?.description ?? ""
        case OID.extendedKeyUsage:
            return extensions.extendedKeyUsage?.purposes.map { OID.name(of: $0) }.joined(separator: ", ") ?? ""
        case OID.subjectAltName:
            return extensions.subjectAlternativeNames?.map(\.description).joined(separator: ", ") ?? ""
        case OID.issuerAltName:
            return extensions.issuerAlternativeNames?.map(\.description).joined(separator: ", ") ?? ""
        case OID.subjectKeyIdentifier:
            return extensions.subjectKeyIdentifier.map { Certificate.hex($0.keyIdentifier, separator: ":") } ?? ""
        case OID.authorityKeyIdentifier:
            guard let aki = extensions.authorityKeyIdentifier else { break }
            var parts: [String] = []
            if let id = aki.keyIdentifier { parts.append("keyid:" + Certificate.hex(id, separator: ":")) }
            if let issuer = aki.authorityCertIssuer { parts.append("issuer:" + issuer.map(\.description).joined(separator: ";")) }
            if let serial = aki.authorityCertSerialNumber { parts.append("serial:" + Certificate.hex(serial, separator: ":")) }
            return parts.joined(separator: ", ")
        case OID.nameConstraints:
            guard let nc = extensions.nameConstraints else { break }
            var parts: [String] = []
            if nc.hasPermittedSubtrees { parts.append("permitted: " + nc.permittedSubtrees.map(\.description).joined(separator: ", ")) }
            if !nc.excludedSubtrees.isEmpty { parts.append("excluded: " + nc.excludedSubtrees.map(\.description).joined(separator: ", ")) }
            return parts.joined(separator: "; ")
        case OID.certificatePolicies:
            return extensions.certificatePolicies?.identifiers.map { OID.name(of: $0) }.joined(separator: ", ") ?? ""
        case OID.policyMappings:
            return extensions.policyMappings?.mappings.map { "\($0.issuerDomainPolicy.dotted)→\($0.subjectDomainPolicy.dotted)" }.joined(
                separator: ", ") ?? ""
        case OID.policyConstraints:
            guard let pc = extensions.policyConstraints else { break }
            return [pc.requireExplicitPolicy.map { "requireExplicitPolicy:\($0)" }, pc.inhibitPolicyMapping.map { "inhibitPolicyMapping:\($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
        case OID.inhibitAnyPolicy:
            return extensions.inhibitAnyPolicy.map { "skipCerts:\($0.skipCerts)" } ?? ""
        case OID.crlDistributionPoints:
            return extensions.crlDistributionPoints?.points.flatMap(\.uris).joined(separator: ", ") ?? ""
        case OID.authorityInfoAccess:
            guard let aia = extensions.authorityInformationAccess else { break }
            return aia.descriptions.map { "\(OID.name(of: $0.method)) - \($0.location)" }.joined(separator: ", ")
        case OID.tlsFeature:
            guard let feature = extensions.tlsFeature else { break }
            return feature.requiresOCSPStapling ? "status_request (OCSP must-staple)" : feature.features.map(String.init).joined(separator: ", ")
        case OID.sctList:
            return "\(extensions.signedCertificateTimestamps?.count ?? 0) octets (not decoded)"
        default:
            break
        }
        return "\(ext.value.count) octets: " + Certificate.hex(ext.value.prefix(32), separator: ":") + (ext.value.count > 32 ? "…" : "")
    }
}
