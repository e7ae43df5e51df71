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
        let flags = self.flags(of: certificate, at: index, chainCount: chain.count, isAnchor: isAnchor, options: options)
        return violations(of: certificate, flags: flags).map { .profileViolation($0) }
    }

    /// The position and option flags the rules below depend on (see ``ProfileVerdictCache``).
    static func flags(of certificate: Certificate, at index: Int, chainCount: Int, isAnchor: Bool,
                      options: ValidationOptions) -> ProfileVerdictCache.Flags {
        var flags = ProfileVerdictCache.Flags()
        flags.isLeaf = index == 0
        flags.isAnchor = isAnchor
        flags.isSelfSigned = (isAnchor || index == chainCount - 1) && certificate.isSelfIssued
        flags.allowsCommonNameFallback = options.allowsCommonNameFallback
        flags.webPKIProfile = options.webPKIProfile
        flags.minimumRSABits = options.signaturePolicy.allowsLegacyAlgorithms
            ? SignaturePolicy.absoluteMinimumRSAModulusBits : options.signaturePolicy.minimumRSAModulusBits
        return flags
    }

    /// The profile violations of `certificate` in the position `flags` describe: a pure function of
    /// the certificate and the flags (``ProfileVerdictCache`` relies on that).
    static func violations(of certificate: Certificate, flags: ProfileVerdictCache.Flags) -> [String] {
        var reasons: [String] = []
        func violation(_ text: String) { reasons.append(text) }
        let extensions = certificate.extensions
        let critical = ExtensionCriticality(extensions.all)
        let isLeaf = flags.isLeaf
        let isAnchor = flags.isAnchor
        let isSelfSigned = flags.isSelfSigned
        let version = certificate.version
        let isCA = certificate.isCA
        let subjectIsEmpty = certificate.subject.isEmpty

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
        if version != 3 && !isAnchor { violation("v\(version) certificate (the web PKI requires v3)") }

        // RFC 5280 §4.2.1.1: AKI is required except in self-signed certificates, and never critical.
        // A trust anchor is trusted by configuration (§6.1.1 (d)), whoever issued it.
        if let akiIsCritical = critical.authorityKeyIdentifier {
            if akiIsCritical { violation("authorityKeyIdentifier must not be critical (RFC 5280 §4.2.1.1)") }
        } else if !isSelfSigned && !isAnchor && version == 3 {
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
        if critical.subjectKeyIdentifier == true {
            violation("subjectKeyIdentifier must not be critical (RFC 5280 §4.2.1.2)")
        }
        if !isLeaf && version == 3 && extensions.subjectKeyIdentifier == nil {
            violation("CA certificate lacks subjectKeyIdentifier (RFC 5280 §4.2.1.2)")
        }

        // RFC 5280 §4.2.1.9: basicConstraints MUST be critical in CA certificates that sign.
        if !isLeaf, critical.basicConstraints == false {
            violation("basicConstraints must be critical in a CA certificate (RFC 5280 §4.2.1.9)")
        }
        // RFC 5280 §4.2.1.3/§4.2.1.9: keyCertSign only with cA; and cA with a keyUsage that cannot
        // sign certificates is inconsistent (a CA that may not act as one; CABF 7.1.2.7.8 for leaves).
        if let usage = extensions.keyUsage {
            if usage.contains(.keyCertSign) && !isCA {
                violation("keyUsage keyCertSign without basicConstraints cA (RFC 5280 §4.2.1.9)")
            }
            // (For issuers, the path validator already reports the missing keyCertSign.)
            if isLeaf && isCA && !usage.contains(.keyCertSign) {
                violation("basicConstraints cA without keyUsage keyCertSign: inconsistent CA extensions (RFC 5280 §4.2.1.3)")
            }
        }
        // RFC 5280 §4.1.2.6: a CA's subject MUST be non-empty.
        if !isLeaf && subjectIsEmpty { violation("CA certificate has an empty subject (RFC 5280 §4.1.2.6)") }
        // RFC 5280 §4.2.1.10: name constraints only in CA certificates.
        if extensions.nameConstraints != nil && !isCA {
            violation("nameConstraints in a non-CA certificate (RFC 5280 §4.2.1.10)")
        }
        // RFC 5280 §4.2.1.11: policyConstraints MUST be critical.
        if critical.policyConstraints == false {
            violation("policyConstraints must be critical (RFC 5280 §4.2.1.11)")
        }
        // RFC 5280 §4.2.2.1: authorityInfoAccess MUST be non-critical.
        if critical.authorityInfoAccess == true {
            violation("authorityInfoAccess must not be critical (RFC 5280 §4.2.2.1)")
        }

        // RFC 5280 §4.2.1.6: with an empty subject the SAN is critical; CABF 7.1.2.7.12: otherwise not.
        if let sanIsCritical = critical.subjectAltName {
            if subjectIsEmpty && !sanIsCritical {
                violation("subjectAltName must be critical when the subject is empty (RFC 5280 §4.2.1.6)")
            }
            if !subjectIsEmpty && sanIsCritical && isLeaf {
                violation("subjectAltName must not be critical when the subject is not empty (CABF 7.1.2.7.12)")
            }
        } else if subjectIsEmpty {
            violation("empty subject without subjectAltName (RFC 5280 §4.1.2.6)")
        }
        let subjectAlternativeNames = extensions.subjectAlternativeNames
        for name in subjectAlternativeNames ?? [] {
            if let problem = sanSyntaxProblem(name) { violation(problem) }
        }

        if isLeaf {
            // CABF 7.1.2.7.12: subscriber certificates carry a SAN (waived when the caller explicitly
            // opted into legacy common-name matching, which exists for SAN-less certificates).
            if subjectAlternativeNames == nil && !flags.allowsCommonNameFallback {
                violation("leaf has no subjectAltName (CABF 7.1.2.7.12)")
            }
            // CABF 7.1.2.7.10: a subscriber's extKeyUsage is non-critical and never anyExtendedKeyUsage.
            if critical.extendedKeyUsage == true {
                violation("leaf extKeyUsage must not be critical (CABF 7.1.2.7.10)")
            }
            if extensions.extendedKeyUsage?.contains(OID.anyExtendedKeyUsage) == true {
                violation("leaf extKeyUsage must not contain anyExtendedKeyUsage (CABF 7.1.2.7.10)")
            }
        }

        if let problem = keyProblem(certificate, minimumRSABits: flags.minimumRSABits) {
            violation(problem)
        }
        return reasons
    }

    /// RFC 5280 §4.2.1.6: dNSName entries are preferred-name-syntax host names (a leading `*` label
    /// allowed), iPAddress entries are 4 or 16 octets, rfc822Name entries are mailboxes.
    static func sanSyntaxProblem(_ name: GeneralName) -> String? {
        switch name {
        case let .dnsName(value):
            let utf8 = value.utf8
            let isWildcard = utf8.count >= 2 && utf8.first == UInt8(ascii: "*")
                && utf8[utf8.index(after: utf8.startIndex)] == UInt8(ascii: ".")
            let host = isWildcard ? utf8.dropFirst(2) : utf8[...]
            // A valid ASCII host name is LDH labels and dots only, so it is never "*".
            guard IDNA.scanASCIIHostname(host) != nil else {
                return "subjectAltName dNSName \"\(value)\" is not a valid host name (RFC 5280 §4.2.1.6)"
            }
            // An all-numeric last label is an IP address written as a DNS name.
            if lastLabelIsNumeric(host) { return "subjectAltName dNSName \"\(value)\" is an IP address, not a host name" }
            return nil
        case let .ipAddress(bytes):
            return bytes.count == 4 || bytes.count == 16 ? nil : "subjectAltName iPAddress has \(bytes.count) octets (RFC 5280 §4.2.1.6)"
        case let .rfc822Name(value):
            guard EmailAddress(value) != nil else {
                return "subjectAltName rfc822Name \"\(value)\" is not a mailbox (RFC 5280 §4.2.1.6)"
            }
            return nil
        default:
            return nil
        }
    }

    /// Whether the last non-empty label of a valid ASCII host name (one trailing dot allowed) is all
    /// decimal digits (for LDH text, the same as `Character.isNumber` on each character).
    static func lastLabelIsNumeric(_ host: Substring.UTF8View) -> Bool {
        var end = host.endIndex
        if end > host.startIndex, host[host.index(before: end)] == UInt8(ascii: ".") { end = host.index(before: end) }
        var position = end
        while position > host.startIndex {
            let previous = host.index(before: position)
            let byte = host[previous]
            if byte == UInt8(ascii: ".") { break }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            position = previous
        }
        return true
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
