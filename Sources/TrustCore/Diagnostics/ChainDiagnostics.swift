import Foundation
import TrustCrypto
import TrustDER
import TrustX509

/// Everything a person needs to see why a chain is (not) trusted: the certificates as presented,
/// the chain that was built, every path the builder explored, and risks worth fixing even when the
/// chain is trusted. Built from a ``ServerTrust`` evaluation, so it shows exactly what the
/// evaluation saw. `Codable` output is the `--json` form of `trustctl chain`.
public struct ChainDiagnostics: Codable, Sendable {
    /// One certificate as the peer presented it.
    public struct PresentedCertificate: Codable, Sendable {
        /// Position in the presented list (0 = leaf).
        public let index: Int
        /// Subject (RFC 4514).
        public let subject: String
        /// Issuer (RFC 4514).
        public let issuer: String
        /// Observations: duplicate, unused, out of order, self-signed root sent…
        public let notes: [String]
    }

    /// One certificate of the built chain, with the details people look for.
    public struct Node: Codable, Sendable {
        /// Position in the built chain (0 = leaf).
        public let index: Int
        /// "leaf", "intermediate" or "anchor".
        public let role: String
        /// Where it came from: "presented #n", "--intermediates", "anchors".
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
    }

    /// One path the builder explored.
    public struct Path: Codable, Sendable {
        /// Subjects from leaf upwards.
        public let subjects: [String]
        /// valid, invalid, dead end, rejected issuer, too deep, budget exhausted.
        public let outcome: String
        /// Why it was abandoned.
        public let reasons: [String]
    }

    /// A problem or risk.
    public struct Finding: Codable, Sendable {
        /// "error" (makes the chain untrusted), "warning" (a risk) or "info".
        public let severity: String
        /// Which certificate, when it is about one (index in the built chain).
        public let certificateIndex: Int?
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
    /// Every explored path.
    public let paths: [Path]
    /// Problems and risks.
    public let findings: [Finding]
    /// The evaluation's failures.
    public let failures: [String]

    /// Runs `trust.evaluate()` and explains it. Certificates from ``ServerTrust/additionalIntermediates``
    /// are reported as not sent by the peer; `verifyDate` is the instant expiry is measured from.
    /// `asReceived` is the order the certificates arrived in, when the trust was created with a
    /// reordered list (see ``LeafOrdering``).
    public init(trust: ServerTrust, host: String?, verifyDate: Date, asReceived: [Certificate]? = nil) {
        let evaluation = trust.evaluate()
        let presentedCertificates = asReceived ?? trust.certificates
        let extra = trust.additionalIntermediates
        let time = DERTime(secondsSince1970: Int64(verifyDate.timeIntervalSince1970.rounded(.down)))
        trusted = evaluation.isTrusted
        result = evaluation.result.description
        self.host = host
        self.verifyDate = time?.description ?? ""
        endsAtAnchor = evaluation.endsAtAnchor
        failures = evaluation.failures.map(\.description)

        let built = evaluation.chain
        presented = ChainDiagnostics.describePresented(presentedCertificates, built: built)
        chain = built.enumerated().map { index, certificate in
            let role = index == 0 ? "leaf" : (index == built.count - 1 && evaluation.endsAtAnchor ? "anchor" : "intermediate")
            let origin: String
            if let position = presentedCertificates.firstIndex(of: certificate) {
                origin = "presented #\(position)"
            } else if extra.contains(certificate) {
                origin = "supplied intermediates"
            } else {
                origin = "trust anchors"
            }
            let seconds = certificate.notAfter.secondsSince1970 - (time?.secondsSince1970 ?? 0)
            return Node(
                index: index, role: role, origin: origin, subject: certificate.subject.description,
                issuer: certificate.issuer.description, serialNumber: certificate.serialNumberHex,
                notBefore: certificate.notBefore.description, notAfter: certificate.notAfter.description,
                daysRemaining: Int(seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)),
                publicKey: certificate.publicKeyDescription?.description ?? certificate.publicKeyInfo.algorithm.description,
                signatureAlgorithm: certificate.signatureAlgorithmIdentifier.description,
                subjectAlternativeNames: index == 0 ? (certificate.extensions.subjectAlternativeNames ?? []).map(\.description) : nil,
                spkiPin: certificate.spkiPin, sha256Fingerprint: Certificate.hex(certificate.sha256Fingerprint, separator: ":"))
        }
        paths = evaluation.attempts.map { attempt in
            Path(subjects: attempt.chain.map { $0.subject.description }, outcome: ChainDiagnostics.describe(attempt.outcome),
                 reasons: attempt.failures.map(\.description))
        }
        findings = ChainFindings.findings(evaluation: evaluation, presented: presentedCertificates, host: host, time: time)
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

    /// Order, duplicates, unused extras and roots in the presented list.
    static func describePresented(_ certificates: [Certificate], built: [Certificate]) -> [PresentedCertificate] {
        certificates.enumerated().map { index, certificate in
            var notes: [String] = []
            if certificate == built.first { notes.append(index == 0 ? "leaf" : "leaf, but not first: the leaf must come first (RFC 8446 §4.4.2)") }
            if let first = certificates.firstIndex(of: certificate), first < index {
                notes.append("duplicate of #\(first)")
            } else if index > 0 && !built.contains(certificate) {
                notes.append("not used in the built chain")
            }
            if index > 0 && certificate.isSelfIssued {
                notes.append("self-signed root sent by the peer: unneeded (anchors come from the trust store)")
            }
            // Wrong order: the certificate that issued an earlier one should come right after it.
            if index > 0, let issued = certificates[..<index].lastIndex(where: { $0.issuer == certificate.subject && $0 != certificate }),
               issued != index - 1 {
                notes.append("out of order: issues #\(issued) but is not right after it")
            }
            if index > 0, let previous = certificates[safeIndex: index - 1], previous.issuer != certificate.subject,
               certificates[(index + 1)...].contains(where: { previous.issuer == $0.subject }) {
                notes.append("out of order: #\(index - 1)'s issuer comes later")
            }
            return PresentedCertificate(index: index, subject: certificate.subject.description, issuer: certificate.issuer.description,
                                        notes: notes)
        }
    }
}

extension Array {
    subscript(safeIndex index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
