import TrustCore
import TrustCrypto
import TrustDER
import TrustNames
import TrustX509

/// Problems and risks worth flagging in a chain, trusted or not. Each message names the
/// certificate, says what is wrong and what to do about it.
struct ChainFindings {
    /// Certificates expiring within this many days are flagged.
    static let expiryWarningDays: Int64 = 30
    /// RSA keys below this many bits are flagged.
    static let minimumRSABits = 2048

    typealias Finding = ChainDiagnostics.Finding

    let context: ChainContext
    private var found: [Finding] = []

    init(context: ChainContext) {
        self.context = context
    }

    /// Every finding, errors first, then warnings, then information.
    func all() -> [Finding] {
        var collector = self
        collector.collect()
        let rank = ["error": 0, "warning": 1, "info": 2]
        return collector.found.enumerated()
            .sorted { (rank[$0.element.severity] ?? 3, $0.offset) < (rank[$1.element.severity] ?? 3, $1.offset) }
            .map(\.element)
    }

    private mutating func add(_ severity: String, _ code: String, _ certificate: Certificate?, _ message: String) {
        let index = certificate.flatMap(context.builtPosition(of:))
        found.append(
            Finding(
                severity: severity, code: code, certificateIndex: index, subject: certificate?.subject.description,
                message: message))
    }

    private mutating func collect() {
        let built = context.built
        if let refused = context.refusedForLength {
            // Nothing else was looked at: every other finding would be about certificates never examined.
            add(
                "error", "too-many-certificates", nil,
                "the server sent \(refused.presented) certificates, more than the \(refused.limit) an evaluation considers, so "
                    + "none was examined: send the leaf and the intermediates up to (not including) the root, usually 2–4 certificates")
            return
        }
        if let issuer = context.missingIssuer { missingIssuer(issuer) }
        if context.endsAtUntrustedRoot, let top = built.last {
            add(
                "error", "untrusted-root", top,
                built.count == 1
                    ? "the leaf (\(top.subject)) is self-signed and is not a trust anchor: a server needs a certificate issued by a trusted CA"
                    : "the chain ends at the self-signed \(top.subject), which is not among the trust anchors: trust it only if you know it is genuine"
            )
        }
        for (index, certificate) in built.enumerated() { validity(of: certificate, at: index) }
        if let leaf = built.first { leafChecks(leaf) }
        for certificate in examined { strength(of: certificate) }
        for (index, certificate) in built.enumerated() { identifiers(of: certificate, at: index) }
        for (index, certificate) in built.enumerated() { encoding(of: certificate, at: index) }
        presentation()
    }

    // MARK: - Chain building

    private mutating func missingIssuer(_ issuer: DistinguishedName) {
        guard let top = context.built.last else { return }
        let topIndex = context.built.count - 1
        var issuerText = "\(issuer)"
        if let keyID = top.extensions.authorityKeyIdentifier?.keyIdentifier {
            issuerText += " (key identifier \(Certificate.hex(keyID, separator: ":")))"
        }
        var message: String
        if topIndex == 0 {
            let sent = context.presented.count == 1 ? "the server sent only the leaf" : "none of the certificates the server sent issued the leaf"
            message =
                "missing intermediate: \(sent). Its issuer \(issuerText) was not sent and is not among the supplied "
                + "intermediates or trust anchors, so no chain to a trust anchor can be built. The server must send this "
                + "intermediate after the leaf"
        } else {
            let after = context.presentedPosition(of: top).map { "after #\($0)" } ?? "with the chain"
            message =
                "missing issuer: the issuer of \(context.name(of: top)), \(issuerText), was not sent and is not among the "
                + "supplied intermediates or trust anchors, so the chain stops there. If it is an intermediate, the server must "
                + "send it \(after); if it is a root, it is not a trust anchor here"
        }
        if let url = top.extensions.authorityInformationAccess?.caIssuersURIs.first {
            message += " (\(topIndex == 0 ? "the leaf" : "certificate \(topIndex)") says it can be downloaded from \(url))"
        }
        add("error", "missing-intermediate", top, message)
    }

    // MARK: - Validity

    private mutating func validity(of certificate: Certificate, at index: Int) {
        let name = context.name(of: certificate)
        let left = certificate.notAfter.secondsSince1970 - context.now
        let days = context.daysRemaining(certificate)
        let isAnchor = index == context.anchorIndex
        if left < 0 {
            let advice: String
            if index == 0 {
                advice = "renew it"
            } else if isAnchor {
                advice = "the trust anchor itself has expired: update the trust store"
            } else if context.presentedPosition(of: certificate) != nil {
                advice = "the server must send the CA's current intermediate instead"
            } else {
                advice = "use the CA's current intermediate instead"
            }
            add("error", "expired", certificate, "\(name) expired on \(certificate.notAfter) (\(-days) days ago): \(advice)")
        } else if left < ChainFindings.expiryWarningDays * 86_400 {
            let when = days == 0 ? "within a day" : "in \(days) day\(days == 1 ? "" : "s")"
            let advice = isAnchor ? "chains to this trust anchor stop validating then" : "renew it before then"
            add("warning", "expires-soon", certificate, "\(name) expires \(when), on \(certificate.notAfter): \(advice)")
        }
        if context.now < certificate.notBefore.secondsSince1970 {
            add(
                "error", "not-yet-valid", certificate,
                "\(name) is not valid before \(certificate.notBefore): check the clock, or the certificate's dates")
        }
    }

    // MARK: - Algorithms and keys

    /// The built chain, then every other certificate the peer sent or a path used, each once.
    private var examined: [Certificate] {
        var certificates = context.built
        var seen = Set(certificates)
        for certificate in context.presented + context.evaluation.attempts.flatMap(\.chain) where seen.insert(certificate).inserted {
            WorkCounter.count()
            certificates.append(certificate)
        }
        return certificates
    }

    /// Whether the evaluation failed on `index` of the built chain for a reason matching `matches`.
    private func failed(at index: Int?, _ matches: (TrustFailureReason) -> Bool) -> Bool {
        guard let index, !context.evaluation.isTrusted else { return false }
        return context.evaluation.failures.contains { $0.certificateIndex == index && matches($0.reason) }
    }

    private mutating func strength(of certificate: Certificate) {
        let index = context.builtPosition(of: certificate)
        let name = context.name(of: certificate)
        // An anchor's own signature is never relied on.
        if index != context.anchorIndex, let algorithm = try? certificate.signatureAlgorithm(), algorithm.isLegacy {
            // Refused by the TLS server rule (Apple's), or in every signature under the modern policy.
            let fatal = failed(at: index) { reason in
                switch reason {
                case .signatureUnverifiable(.legacyAlgorithm): return true
                case let .profileViolation(violation): return violation.rule == .signatureHashAlgorithm
                default: return false
                }
            }
            add(
                fatal ? "error" : "warning", "sha1-signature", certificate,
                "\(name) is signed with SHA-1 (\(certificate.signatureAlgorithmIdentifier)): SHA-1 signatures can be forged and are "
                    + "rejected in TLS server chains; reissue it signed with SHA-256 or better")
        }
        if case let .rsa(bits)? = certificate.publicKeyDescription?.kind, bits < ChainFindings.minimumRSABits {
            // Fatal only when the evaluation refused the key's size, not another property of it
            // (a modulus that is not a multiple of 8, an algorithm the profile does not allow).
            let fatal =
                failed(at: index) { reason in
                    guard case let .profileViolation(violation) = reason else { return false }
                    switch violation.detail {
                    case .weakRSAKey, .rsaKeyTooSmall: return true
                    default: return false
                    }
                }
                || failed(at: index.map { $0 - 1 }) { if case .signatureUnverifiable(.weakKey) = $0 { true } else { false } }
            add(
                fatal ? "error" : "warning", "weak-rsa-key", certificate,
                "\(name) has a \(bits)-bit RSA key, below the \(ChainFindings.minimumRSABits)-bit minimum: reissue it with "
                    + "RSA-2048 or larger, or ECDSA P-256")
        }
    }

    private mutating func identifiers(of certificate: Certificate, at index: Int) {
        let name = context.name(of: certificate)
        if certificate.extensions.authorityKeyIdentifier == nil && !certificate.isSelfIssued && index != context.anchorIndex {
            add(
                "warning", "missing-aki", certificate,
                "\(name) has no authorityKeyIdentifier: its issuer can only be found by name, which is ambiguous when a CA "
                    + "has several keys (renewal, cross-signing)")
        }
        if index > 0 && certificate.extensions.subjectKeyIdentifier == nil {
            add(
                "warning", "missing-ski", certificate,
                "\(name) is a CA without subjectKeyIdentifier: certificates it issues cannot identify its key")
        }
    }

    /// Encodings DER or RFC 5280 does not allow (``EncodingFinding``), read as Apple reads them.
    /// DEFAULT values written out: read as omitted, as Apple's SecCertificateParse does; an error
    /// where the profile refused them (``ProfileRule/derDefaultOmitted``). An otherName constraint
    /// without its `[0] EXPLICIT` wrapper: a warning, since the verdict does not depend on it.
    private mutating func encoding(of certificate: Certificate, at index: Int) {
        let all = certificate.encodingFindings
        guard !all.isEmpty else { return }
        let defaults = all.filter(\.isDefaultValueWrittenOut)
        if !defaults.isEmpty {
            let fatal = failed(at: index) { reason in
                if case let .profileViolation(violation) = reason { violation.rule == .derDefaultOmitted } else { false }
            }
            add(
                fatal ? "error" : "warning", "der-default-written", certificate,
                "\(context.name(of: certificate)) writes out DEFAULT values DER omits (X.690 §11.5): "
                    + defaults.map(\.description).joined(separator: "; ")
                    + ". Apple, OpenSSL and Go read them as omitted; strict DER parsers (pyca/cryptography) and the "
                    + "rfc5280-strict and webpki profiles refuse the certificate: have the CA reissue it in DER")
        }
        let otherNames = all.filter { if case .unwrappedOtherNameValue = $0 { true } else { false } }
        if !otherNames.isEmpty {
            add(
                "warning", "othername-constraint-unwrapped", certificate,
                "\(context.name(of: certificate)) has a nameConstraints otherName whose value lacks its [0] EXPLICIT "
                    + "wrapper: " + otherNames.map(\.description).joined(separator: "; ")
                    + ". Apple reads it (its name constraints never decode an otherName) and so does SwiftTrust; Go "
                    + "skips it; OpenSSL cannot decode the extension and refuses to verify through the certificate: "
                    + "have the CA reissue it with the value inside [0] EXPLICIT")
        }
    }

    // MARK: - Leaf

    private mutating func leafChecks(_ leaf: Certificate) {
        let name = context.name(of: leaf)
        if leaf.extensions.subjectAlternativeNames == nil {
            add(
                context.host != nil && !context.evaluation.isTrusted ? "error" : "warning", "missing-san", leaf,
                "\(name) has no subjectAltName: host names are matched against SANs only (RFC 9525), the CN is ignored, "
                    + "so it is valid for no host name\(context.host.map { " (\($0) included)" } ?? ""); reissue it with the host names as SANs")
        }
        if leaf.isCA {
            add(
                "warning", "leaf-is-ca", leaf,
                "\(name) is a CA certificate (basicConstraints cA=TRUE): a server certificate should not be able to issue certificates")
        }
        if let host = context.host, let identity = ServerIdentity(host), leaf.extensions.subjectAlternativeNames != nil {
            let ips = leaf.ipAddresses.compactMap { IPAddress(bytes: $0) }
            if !HostnameMatcher.matches(identity, dnsNames: leaf.dnsNames, ipAddresses: ips) {
                let sans = (leaf.extensions.subjectAlternativeNames ?? []).map(\.description)
                add(
                    "error", "host-mismatch", leaf,
                    "host \(host) does not match the leaf: it is valid only for "
                        + (sans.isEmpty ? "no name at all" : "[\(sans.joined(separator: ", "))]")
                        + "; connect with one of those names or reissue the certificate with \(host) in its SANs")
            }
        }
        if leaf.extensions.tlsFeature?.requiresOCSPStapling == true && !context.hasOCSPResponses {
            add(
                "warning", "must-staple", leaf,
                "\(name) requires OCSP stapling (TLS feature status_request, \"must-staple\"): the server must staple a "
                    + "current OCSP response or clients reject the connection; none was supplied to this check")
        }
    }

    // MARK: - What the peer sent

    private mutating func presentation() {
        let built = context.built
        let presented = context.presented
        let end = context.anchorIndex ?? built.count
        for index in built.indices.dropFirst() where index < end {
            let certificate = built[index]
            guard context.presentedPosition(of: certificate) == nil, context.isSupplied(certificate) else { continue }
            add(
                "warning", "intermediate-not-sent", certificate,
                "\(context.name(of: certificate)) was not sent by the server (it was found among the supplied intermediates): "
                    + "clients that do not already have it cannot build the chain (\"unable to get local issuer certificate\"); "
                    + "configure the server to send it after \(index == 1 ? "the leaf" : "certificate \(index - 1)")")
        }
        if context.isWrongOrder {
            let order = context.chainOrderOfPresented.map { "#\($0)" }.joined(separator: ", ")
            add(
                "warning", "wrong-order", nil,
                "certificates sent in the wrong order: send them as \(order) (the leaf first, then each certificate's issuer; "
                    + "RFC 8446 §4.4.2, RFC 5246 §7.4.2); clients that do not reorder reject the chain")
        }
        for (position, certificate) in presented.enumerated() where position > 0 {
            if let first = context.presentedPosition(of: certificate), first < position {
                add(
                    "info", "duplicate-certificate", certificate,
                    "presented #\(position) is a duplicate of #\(first) (\(certificate.subject)): remove the copy")
            } else if let index = context.builtPosition(of: certificate) {
                if index == context.anchorIndex && certificate.isSelfIssued {
                    add(
                        "info", "root-sent", certificate,
                        "the server sent the root \(certificate.subject) (presented #\(position)): unneeded, clients use their own "
                            + "copy from the trust store and it only adds bytes to every handshake; remove it from the chain")
                }
            } else {
                let (reasons, kind) = context.whyUnused(certificate)
                guard kind != .notItsFault else { continue }
                add(
                    kind == .faulty ? "warning" : "info", "unused-certificate", certificate,
                    "presented #\(position) (\(certificate.subject)) is not used in the chain: \(reasons.joined(separator: "; ")); "
                        + (kind == .faulty
                            ? "remove it from what the server sends"
                            : "remove it unless clients with other trust stores need it"))
            }
        }
    }
}
