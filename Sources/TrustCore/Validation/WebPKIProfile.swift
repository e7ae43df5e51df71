import TrustCrypto
import TrustDER
import TrustX509

/// Certificate-profile rules of RFC 5280 §4 and the CA/Browser Forum Baseline Requirements that
/// browsers, rustls-webpki and pyca/cryptography enforce when validating TLS chains.
///
/// Each rule is a few lines citing its source; a certificate may break several.
enum WebPKIProfile {
    static func violations(of certificate: Certificate, at index: Int, in chain: [Certificate], isAnchor: Bool,
                           options: ValidationOptions) -> [TrustFailureReason] {
        var reasons: [TrustFailureReason] = []
        func violation(_ text: String) { reasons.append(.profileViolation(text)) }
        let extensions = certificate.extensions
        let isLeaf = index == 0
        let isSelfSigned = certificate.isSelfIssued && (isAnchor || index == chain.count - 1)

        // RFC 5280 §4.1.2.2: serial numbers are positive and at most 20 octets. Not applied to trust
        // anchors: long-standing roots (e.g. Starfield G2) have serial 0 and are trusted by configuration.
        // A leaf that is itself trusted is still a leaf.
        if !isAnchor || isLeaf {
            if certificate.serialNumberIsNegative || certificate.serialNumberIsZero {
                violation("serial number must be positive (RFC 5280 §4.1.2.2)")
            }
            if certificate.serialNumberIsOverlong { violation("serial number longer than 20 octets (RFC 5280 §4.1.2.2)") }
        }

        // RFC 5280 §4.1.2.4: the issuer field MUST contain a non-empty name.
        if certificate.issuer.isEmpty { violation("issuer name is empty (RFC 5280 §4.1.2.4)") }

        // Only v3 certificates carry the extensions the web PKI relies on; v1 only as an anchor.
        if certificate.version != 3 && !isAnchor { violation("v\(certificate.version) certificate (the web PKI requires v3)") }

        // RFC 5280 §4.2.1.1: AKI is required except in self-signed certificates, and never critical.
        // A trust anchor is trusted by configuration (§6.1.1 (d)), whoever issued it.
        if let aki = extensions[OID.authorityKeyIdentifier] {
            if aki.isCritical { violation("authorityKeyIdentifier must not be critical (RFC 5280 §4.2.1.1)") }
        } else if !isSelfSigned && !isAnchor && certificate.version == 3 {
            violation("authorityKeyIdentifier missing (RFC 5280 §4.2.1.1)")
        }
        // CABF 7.1.2.1.3: a root's AKI, if present, holds only keyIdentifier, equal to its SKI.
        if isSelfSigned, let aki = extensions.authorityKeyIdentifier {
            if aki.keyIdentifier == nil || aki.authorityCertIssuer != nil || aki.authorityCertSerialNumber != nil {
                violation("self-signed certificate's authorityKeyIdentifier must hold only keyIdentifier (CABF 7.1.2.1.3)")
            } else if let keyID = aki.keyIdentifier, let ski = extensions.subjectKeyIdentifier?.keyIdentifier, !keyID.elementsEqual(ski) {
                violation("self-signed certificate's authorityKeyIdentifier differs from its subjectKeyIdentifier (CABF 7.1.2.1.3)")
            }
        }

        // RFC 5280 §4.2.1.2: SKI is required in CA certificates and never critical.
        if let ski = extensions[OID.subjectKeyIdentifier], ski.isCritical {
            violation("subjectKeyIdentifier must not be critical (RFC 5280 §4.2.1.2)")
        }
        if !isLeaf && certificate.version == 3 && extensions.subjectKeyIdentifier == nil {
            violation("CA certificate lacks subjectKeyIdentifier (RFC 5280 §4.2.1.2)")
        }

        // RFC 5280 §4.2.1.9: basicConstraints MUST be critical in CA certificates that sign.
        if !isLeaf, let bc = extensions[OID.basicConstraints], !bc.isCritical {
            violation("basicConstraints must be critical in a CA certificate (RFC 5280 §4.2.1.9)")
        }
        // RFC 5280 §4.2.1.3/§4.2.1.9: keyCertSign only with cA; and cA with a keyUsage that cannot
        // sign certificates is inconsistent (a CA that may not act as one; CABF 7.1.2.7.8 for leaves).
        if let usage = extensions.keyUsage {
            if usage.contains(.keyCertSign) && !certificate.isCA {
                violation("keyUsage keyCertSign without basicConstraints cA (RFC 5280 §4.2.1.9)")
            }
            // (For issuers, the path validator already reports the missing keyCertSign.)
            if isLeaf && certificate.isCA && !usage.contains(.keyCertSign) {
                violation("basicConstraints cA without keyUsage keyCertSign: inconsistent CA extensions (RFC 5280 §4.2.1.3)")
            }
        }
        // RFC 5280 §4.1.2.6: a CA's subject MUST be non-empty.
        if !isLeaf && certificate.subject.isEmpty { violation("CA certificate has an empty subject (RFC 5280 §4.1.2.6)") }
        // RFC 5280 §4.2.1.10: name constraints only in CA certificates.
        if extensions.nameConstraints != nil && !certificate.isCA {
            violation("nameConstraints in a non-CA certificate (RFC 5280 §4.2.1.10)")
        }
        // RFC 5280 §4.2.1.11: policyConstraints MUST be critical.
        if let pc = extensions[OID.policyConstraints], !pc.isCritical {
            violation("policyConstraints must be critical (RFC 5280 §4.2.1.11)")
        }
        // RFC 5280 §4.2.2.1: authorityInfoAccess MUST be non-critical.
        if let aia = extensions[OID.authorityInfoAccess], aia.isCritical {
            violation("authorityInfoAccess must not be critical (RFC 5280 §4.2.2.1)")
        }

        // RFC 5280 §4.2.1.6: with an empty subject the SAN is critical; CABF 7.1.2.7.12: otherwise not.
        if let san = extensions[OID.subjectAltName] {
            if certificate.subject.isEmpty && !san.isCritical {
                violation("subjectAltName must be critical when the subject is empty (RFC 5280 §4.2.1.6)")
            }
            if !certificate.subject.isEmpty && san.isCritical && isLeaf {
                violation("subjectAltName must not be critical when the subject is not empty (CABF 7.1.2.7.12)")
            }
        } else if certificate.subject.isEmpty {
            violation("empty subject without subjectAltName (RFC 5280 §4.1.2.6)")
        }
        for name in extensions.subjectAlternativeNames ?? [] {
            if let problem = sanSyntaxProblem(name) { violation(problem) }
        }

        if isLeaf {
            // CABF 7.1.2.7.12: subscriber certificates carry a SAN (waived when the caller explicitly
            // opted into legacy common-name matching, which exists for SAN-less certificates).
            if extensions.subjectAlternativeNames == nil && !options.allowsCommonNameFallback {
                violation("leaf has no subjectAltName (CABF 7.1.2.7.12)")
            }
            // CABF 7.1.2.7.10: a subscriber's extKeyUsage is non-critical and never anyExtendedKeyUsage.
            if let eku = extensions[OID.extendedKeyUsage], eku.isCritical {
                violation("leaf extKeyUsage must not be critical (CABF 7.1.2.7.10)")
            }
            if extensions.extendedKeyUsage?.contains(OID.anyExtendedKeyUsage) == true {
                violation("leaf extKeyUsage must not contain anyExtendedKeyUsage (CABF 7.1.2.7.10)")
            }
        }

        if let problem = keyProblem(certificate, minimumRSABits: options.signaturePolicy.allowsLegacyAlgorithms
            ? SignaturePolicy.absoluteMinimumRSAModulusBits : options.signaturePolicy.minimumRSAModulusBits) {
            violation(problem)
        }
        return reasons
    }

    /// RFC 5280 §4.2.1.6: dNSName entries are preferred-name-syntax host names (a leading `*` label
    /// allowed), iPAddress entries are 4 or 16 octets, rfc822Name entries are mailboxes.
    static func sanSyntaxProblem(_ name: GeneralName) -> String? {
        switch name {
        case let .dnsName(value):
            let host = value.hasPrefix("*.") ? String(value.dropFirst(2)) : value
            guard IDNA.isValidASCIIHostname(host), host != "*" else {
                return "subjectAltName dNSName \"\(value)\" is not a valid host name (RFC 5280 §4.2.1.6)"
            }
            // An all-numeric last label is an IP address written as a DNS name.
            let last = host.split(separator: ".").last ?? ""
            if last.allSatisfy(\.isNumber) { return "subjectAltName dNSName \"\(value)\" is an IP address, not a host name" }
            return nil
        case let .ipAddress(bytes):
            return bytes.count == 4 || bytes.count == 16 ? nil : "subjectAltName iPAddress has \(bytes.count) octets (RFC 5280 §4.2.1.6)"
        case let .rfc822Name(value):
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, IDNA.isValidASCIIHostname(parts[1]) else {
                return "subjectAltName rfc822Name \"\(value)\" is not a mailbox (RFC 5280 §4.2.1.6)"
            }
            return nil
        default:
            return nil
        }
    }

    /// CABF 6.1.5 / 7.1.3.1: RSA moduli of at least 2048 bits and divisible by 8; ECDSA on P-256/384/521.
    /// Ed25519 and Ed448 are accepted too (a deliberate extension beyond the Baseline Requirements).
    static func keyProblem(_ certificate: Certificate, minimumRSABits: Int) -> String? {
        guard let description = certificate.publicKeyDescription else {
            do { _ = try PublicKeyDescription(spki: certificate.publicKeyInfo.der) } catch { return "public key rejected: \(error)" }
            return "public key rejected"
        }
        switch description.kind {
        case let .rsa(bits):
            if bits < minimumRSABits { return "RSA key of \(bits) bits (at least \(minimumRSABits) required; the web PKI requires 2048)" }
            if bits % 8 != 0 { return "RSA modulus of \(bits) bits is not a multiple of 8 (CABF 6.1.5)" }
            return nil
        case .ec, .ed25519, .ed448:
            return nil
        case let .unknown(oid):
            return "public key algorithm \(oid) is not allowed"
        }
    }
}
