import Foundation
import TrustCore
import TrustCrypto
import TrustDER
import TrustNames
import TrustTransparency
import TrustX509

/// Everything a person needs to see why a chain is (not) trusted: the certificates as presented,
/// the chain that was built, every path the builder explored, and risks worth fixing even when the
/// chain is trusted. Built from a ``ServerTrust`` evaluation, so it shows exactly what the
/// evaluation saw. `Codable` output is the `--json` form of `trustctl chain`; ``text(style:)`` is
/// its text form.
///
/// ```swift
/// let diagnostics = ChainDiagnostics(trust: trust, host: "www.example.com", verifyDate: Date())
/// diagnostics.paths.forEach { print($0.outcome, $0.reasons) }      // every path explored, and why
/// diagnostics.findings.filter { $0.severity == "error" }.forEach { print($0.message) }
/// print(diagnostics.text(style: .plain))
/// ```
public struct ChainDiagnostics: Codable, Sendable {
    /// One certificate as the peer presented it.
    public struct PresentedCertificate: Codable, Sendable {
        /// Position in the presented list, in the order received (0 should be the leaf).
        public let index: Int
        /// Subject (RFC 4514).
        public let subject: String
        /// Issuer (RFC 4514).
        public let issuer: String
        /// Its position in the built chain (0 = leaf), or nil when the chain does not use it.
        public let chainIndex: Int?
        /// SHA-256 fingerprint (hex with colons).
        public let sha256Fingerprint: String
        /// Observations: role, duplicate, unused (and why), out of order, root sent…
        public let notes: [String]
    }

    /// One certificate of the built chain, with the details people look for.
    public struct Node: Codable, Sendable {
        /// Position in the built chain (0 = leaf).
        public let index: Int
        /// "leaf", "intermediate", "anchor", or "untrusted root" (a self-signed top that is not an anchor).
        public let role: String
        /// Where it came from: "presented #n", "supplied intermediates", "fetched from URL" (a caIssuers
        /// download) or "trust anchors".
        public let origin: String
        /// Subject (RFC 4514).
        public let subject: String
        /// Issuer (RFC 4514).
        public let issuer: String
        /// Serial number (hex).
        public let serialNumber: String
        /// notBefore (ISO 8601).
        public let notBefore: String
        /// notAfter (ISO 8601).
        public let notAfter: String
        /// Whole days from the verify date to notAfter (negative when expired).
        public let daysRemaining: Int
        /// Key type and size, e.g. "ECDSA P-256".
        public let publicKey: String
        /// Signature algorithm name.
        public let signatureAlgorithm: String
        /// SANs (leaf only).
        public let subjectAlternativeNames: [String]?
        /// `sha256/BASE64` SPKI pin.
        public let spkiPin: String
        /// SHA-256 fingerprint (hex with colons).
        public let sha256Fingerprint: String
        /// The SCTs embedded in the certificate (RFC 6962 §3.3), nil when it has none.
        public let signedCertificateTimestamps: [EmbeddedTimestamp]?
    }

    /// One SCT embedded in a certificate, and what Certificate Transparency made of it when logs
    /// were configured.
    public struct EmbeddedTimestamp: Codable, Sendable {
        /// The log's ID (base64), nil when the SCT does not parse.
        public let logID: String?
        /// The log's description, when a configured list knows the log.
        public let log: String?
        /// The SCT's time (ISO 8601), nil when it does not parse.
        public let timestamp: String?
        /// "counted", "not counted: <why>" or "unreadable: <why>"; nil when no logs were configured
        /// and the SCT parses.
        public let status: String?
    }

    /// One certificate of an explored path.
    public struct PathCertificate: Codable, Sendable {
        /// Subject (RFC 4514).
        public let subject: String
        /// Where it came from: "presented #n", "supplied intermediates", "fetched from URL" (a caIssuers
        /// download) or "trust anchors".
        public let origin: String
        /// SHA-256 fingerprint (hex with colons): tells apart certificates with the same subject
        /// (cross-signed and renewed CAs).
        public let sha256Fingerprint: String
    }

    /// One path the builder explored, in exploration order.
    public struct Path: Codable, Sendable {
        /// The certificates, leaf first (for "issuer rejected", the rejected candidate is last).
        public let certificates: [PathCertificate]
        /// "valid", "invalid", "dead end", "issuer rejected", "too deep" or "budget exhausted".
        public let outcome: String
        /// What the outcome means, in words.
        public let explanation: String
        /// Whether this path is the built chain.
        public let isBuiltChain: Bool
        /// Why it was abandoned (empty for a valid path).
        public let reasons: [String]
    }

    /// A problem or risk.
    public struct Finding: Codable, Sendable {
        /// "error" (makes the chain untrusted), "warning" (a risk) or "info".
        public let severity: String
        /// A stable identifier of the kind of finding, for tools: "missing-intermediate",
        /// "expired", "expires-soon", "not-yet-valid", "sha1-signature", "weak-rsa-key",
        /// "missing-aki", "missing-ski", "missing-san", "leaf-is-ca", "host-mismatch",
        /// "must-staple", "untrusted-root", "intermediate-not-sent", "root-sent", "wrong-order",
        /// "unused-certificate", "duplicate-certificate", "too-many-certificates",
        /// "der-default-written" or "othername-constraint-unwrapped".
        public let code: String
        /// Which certificate, when it is about one of the built chain (index in the built chain).
        public let certificateIndex: Int?
        /// The certificate's subject, when it is about one certificate.
        public let subject: String?
        /// What is wrong and what to do.
        public let message: String
    }

    /// Whether the chain is trusted.
    public let trusted: Bool
    /// Apple-style result.
    public let result: String
    /// The host or IP checked, if any.
    public let host: String?
    /// The verify date (ISO 8601).
    public let verifyDate: String
    /// The certificates as presented.
    public let presented: [PresentedCertificate]
    /// The built chain, leaf first.
    public let chain: [Node]
    /// Whether the built chain reaches an anchor.
    public let endsAtAnchor: Bool
    /// The issuer (RFC 4514) of the top of the built chain when no certificate with that name was
    /// found: the intermediate the server should have sent.
    public let missingIssuer: String?
    /// Why the built chain stops short of a trust anchor (missing issuer, self-signed root that is
    /// not an anchor, rejected issuer candidates, exhausted budget); nil when it reaches one.
    public let chainEnd: String?
    /// Every explored path, in exploration order.
    public let paths: [Path]
    /// Problems and risks, errors first.
    public let findings: [Finding]
    /// The evaluation's failures.
    public let failures: [String]
    /// The Certificate Transparency result of the built chain, when logs were configured and it validated.
    public let certificateTransparency: String?
    /// The fetches the trust's last fetching evaluation made that gave nothing, and why (a caIssuers
    /// URL refused as a local destination, a CRL past the deadline, …); nil when there were none.
    public let fetchFailures: [String]?

    /// Runs `trust.evaluate()` and explains it. Certificates from ``ServerTrust/additionalIntermediates``
    /// are reported as not sent by the peer; `verifyDate` is the instant expiry is measured from.
    /// `asReceived` is the order the certificates arrived in, when the trust was created with a
    /// reordered list (see `LeafOrdering.leafFirst(_:limit:)`).
    public init(trust: ServerTrust, host: String?, verifyDate: Date, asReceived: [Certificate]? = nil) {
        let evaluation = trust.evaluate()
        let time = DERTime(timeIntervalSince1970: verifyDate.timeIntervalSince1970)
        let context = ChainContext(
            evaluation: evaluation, presented: asReceived ?? trust.certificates,
            supplied: trust.additionalIntermediates, fetched: trust.fetchedIssuers, host: host, time: time,
            hasOCSPResponses: !trust.suppliedOCSPResponses.isEmpty)
        trusted = evaluation.isTrusted
        result = evaluation.result.description
        self.host = host
        self.verifyDate = time?.description ?? ""
        endsAtAnchor = evaluation.endsAtAnchor
        failures = evaluation.failures.map(\.description)
        fetchFailures = evaluation.fetchFailures.isEmpty ? nil : evaluation.fetchFailures.map(\.description)
        certificateTransparency = evaluation.certificateTransparency?.description
        missingIssuer = context.missingIssuer?.description
        chainEnd = context.chainEnd

        let built = evaluation.chain
        presented = context.presentedCertificates()
        chain = built.enumerated().map { index, certificate in
            Node(
                index: index, role: context.role(at: index), origin: context.origin(of: certificate, isAnchor: index == context.anchorIndex),
                subject: certificate.subject.description, issuer: certificate.issuer.description,
                serialNumber: certificate.serialNumberHex,
                notBefore: certificate.notBefore.description, notAfter: certificate.notAfter.description,
                daysRemaining: context.daysRemaining(certificate),
                publicKey: certificate.publicKeyDescription?.description ?? certificate.publicKeyInfo.algorithm.description,
                signatureAlgorithm: certificate.signatureAlgorithmIdentifier.description,
                subjectAlternativeNames: index == 0 ? (certificate.extensions.subjectAlternativeNames ?? []).map(\.description) : nil,
                spkiPin: certificate.spkiPin, sha256Fingerprint: certificate.sha256Hex,
                signedCertificateTimestamps: ChainDiagnostics.embeddedTimestamps(
                    of: certificate, report: index == 0 ? evaluation.certificateTransparency : nil, trust: trust))
        }
        paths = evaluation.attempts.map { attempt in
            let certificates = attempt.chain.enumerated().map { position, certificate in
                PathCertificate(
                    subject: certificate.subject.description,
                    origin: context.origin(of: certificate, isAnchor: attempt.endsAtAnchor && position == attempt.chain.count - 1),
                    sha256Fingerprint: certificate.sha256Hex)
            }
            return Path(
                certificates: certificates, outcome: ChainDiagnostics.describe(attempt.outcome),
                explanation: ChainDiagnostics.explain(attempt), isBuiltChain: attempt.outcome == .valid && attempt.chain == built,
                reasons: attempt.failures.map { ChainDiagnostics.describe($0, in: attempt.chain) })
        }
        findings = ChainFindings(context: context).all()
    }

    /// The SCTs embedded in `certificate`, with the fate `report` (the leaf's CT result) gave each.
    static func embeddedTimestamps(
        of certificate: Certificate, report: CertificateTransparencyReport?,
        trust: ServerTrust
    ) -> [EmbeddedTimestamp]? {
        let timestamps: [PresentedTimestamp]
        do { timestamps = try SCTList.embedded(in: certificate) } catch {
            return [EmbeddedTimestamp(logID: nil, log: nil, timestamp: nil, status: "unreadable: \(error)")]
        }
        guard !timestamps.isEmpty else { return nil }
        let logs = trust.configuration.certificateTransparencyLogs?.logs
        return timestamps.enumerated().map { index, presented in
            guard case let .success(sct) = presented.timestamp else {
                if case let .failure(error) = presented.timestamp {
                    return EmbeddedTimestamp(logID: nil, log: nil, timestamp: nil, status: "unreadable: \(error)")
                }
                return EmbeddedTimestamp(logID: nil, log: nil, timestamp: nil, status: nil)
            }
            // The report lists the leaf's embedded SCTs first, in this order.
            var status: String?
            if let report, index < report.timestamps.count, report.timestamps[index].source == .embedded {
                if report.evaluation.counted.contains(where: { $0.index == index }) {
                    status = "counted"
                } else if let other = report.evaluation.notCounted.first(where: { $0.index == index }) {
                    status = "not counted: \(other.reason)"
                }
            }
            return EmbeddedTimestamp(
                logID: Data(sct.logID).base64EncodedString(), log: logs?.log(id: sct.logID)?.logDescription,
                timestamp: DERTime(timeIntervalSince1970: sct.date.timeIntervalSince1970)?.description,
                status: status)
        }
    }

    static func describe(_ outcome: PathAttempt.Outcome) -> String {
        switch outcome {
        case .valid: return "valid"
        case .invalid: return "invalid"
        case .deadEnd: return "dead end"
        case .rejectedIssuer: return "issuer rejected"
        case .tooDeep: return "too deep"
        case .budgetExhausted: return "budget exhausted"
        }
    }

    static func explain(_ attempt: PathAttempt) -> String {
        switch attempt.outcome {
        case .valid:
            return "reached a trust anchor and passed validation"
        case .invalid:
            return "reached a trust anchor but failed validation"
        case .deadEnd:
            let untrusted = attempt.failures.contains { if case .untrustedRoot = $0.reason { true } else { false } }
            return untrusted ? "ends at a self-signed certificate that is not a trust anchor" : "no issuer found for the last certificate"
        case .rejectedIssuer:
            return "the last certificate was tried as the issuer of the one before it and rejected"
        case .tooDeep:
            return "longer than the maximum depth"
        case .budgetExhausted:
            return "the path-building budget ran out"
        }
    }

    /// A failure of `path` in words; "issuer not found" also names the issuer that was looked for.
    static func describe(_ failure: TrustFailure, in path: [Certificate]) -> String {
        if case .issuerNotFound = failure.reason, let index = failure.certificateIndex, let certificate = path[safeIndex: index] {
            return "\(failure.description) (looked for \(certificate.issuer))"
        }
        return failure.description
    }
}

extension Certificate {
    /// The SHA-256 fingerprint as colon-separated hex.
    var sha256Hex: String { Certificate.hex(sha256Fingerprint, separator: ":") }
}

extension Array {
    subscript(safeIndex index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
