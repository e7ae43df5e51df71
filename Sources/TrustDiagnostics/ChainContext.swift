import TrustCore
import TrustDER
import TrustNames
import TrustX509

/// What ``ChainDiagnostics`` and ``ChainFindings`` work from: one evaluation, the certificates in
/// the order the peer sent them, and the extra intermediates supplied locally.
///
/// Every "where is this certificate" question is a hash lookup in indexes built once, so the
/// diagnostics of a list of n certificates cost O(n), not O(n²) equality comparisons: the list may
/// be a peer's, thousands of certificates long.
struct ChainContext {
    let evaluation: TrustEvaluation
    /// The certificates as received (not reordered).
    let presented: [Certificate]
    /// Intermediates supplied locally (not sent by the peer).
    let supplied: [Certificate]
    /// Intermediates a fetching evaluation downloaded from caIssuers URLs, by certificate.
    let fetchedFrom: [Certificate: String]
    let host: String?
    let time: DERTime?
    /// Whether any OCSP response was supplied (what a stapled response would be).
    let hasOCSPResponses: Bool

    /// The first position of each certificate in ``presented``.
    private let presentedPositions: [Certificate: Int]
    /// The first position of each certificate in the built chain.
    private let builtPositions: [Certificate: Int]
    private let suppliedSet: Set<Certificate>
    /// For each certificate, the failed attempts (by number) that contain it and its first position there.
    private let failedAttemptsContaining: [Certificate: [(number: Int, position: Int)]]

    init(
        evaluation: TrustEvaluation, presented: [Certificate], supplied: [Certificate], fetched: [FetchedIssuer] = [],
        host: String?, time: DERTime?, hasOCSPResponses: Bool
    ) {
        self.evaluation = evaluation
        self.presented = presented
        self.supplied = supplied
        fetchedFrom = Dictionary(fetched.map { ($0.certificate, $0.url) }, uniquingKeysWith: { first, _ in first })
        self.host = host
        self.time = time
        self.hasOCSPResponses = hasOCSPResponses
        presentedPositions = ChainContext.firstPositions(presented)
        builtPositions = ChainContext.firstPositions(evaluation.chain)
        suppliedSet = Set(supplied)
        WorkCounter.count(supplied.count)
        var containing: [Certificate: [(number: Int, position: Int)]] = [:]
        for (number, attempt) in evaluation.attempts.enumerated() where attempt.outcome != .valid {
            WorkCounter.count(attempt.chain.count)
            for (position, certificate) in attempt.chain.enumerated() where containing[certificate]?.last?.number != number {
                containing[certificate, default: []].append((number, position))
            }
        }
        failedAttemptsContaining = containing
    }

    private static func firstPositions(_ certificates: [Certificate]) -> [Certificate: Int] {
        WorkCounter.count(certificates.count)
        var positions: [Certificate: Int] = [:]
        positions.reserveCapacity(certificates.count)
        for (position, certificate) in certificates.enumerated() where positions[certificate] == nil {
            positions[certificate] = position
        }
        return positions
    }

    /// The first position of `certificate` in ``presented``.
    func presentedPosition(of certificate: Certificate) -> Int? {
        WorkCounter.count()
        return presentedPositions[certificate]
    }

    /// The first position of `certificate` in the built chain.
    func builtPosition(of certificate: Certificate) -> Int? {
        WorkCounter.count()
        return builtPositions[certificate]
    }

    /// Whether `certificate` is among the supplied intermediates.
    func isSupplied(_ certificate: Certificate) -> Bool {
        WorkCounter.count()
        return suppliedSet.contains(certificate)
    }

    var built: [Certificate] { evaluation.chain }
    var now: Int64 { time?.secondsSince1970 ?? 0 }

    /// The number presented and the cap, when the evaluation refused the list for its length
    /// (``TrustFailureReason/tooManyCertificates(presented:limit:)``): then no certificate was examined.
    var refusedForLength: (presented: Int, limit: Int)? {
        for failure in evaluation.failures {
            if case let .tooManyCertificates(presented, limit) = failure.reason { return (presented, limit) }
        }
        return nil
    }

    /// The index of the trust anchor in the built chain, when it reaches one.
    var anchorIndex: Int? { evaluation.endsAtAnchor && !built.isEmpty ? built.count - 1 : nil }

    /// The issuer of the top of the built chain, when no certificate with that name was found.
    var missingIssuer: DistinguishedName? {
        guard let top = built.last,
            evaluation.failures.contains(where: {
                if case .issuerNotFound = $0.reason { $0.certificateIndex == built.count - 1 } else { false }
            })
        else { return nil }
        return top.issuer
    }

    /// Whether the top of the built chain is a self-signed certificate that is not an anchor.
    var endsAtUntrustedRoot: Bool {
        anchorIndex == nil
            && evaluation.failures.contains { if case .untrustedRoot = $0.reason { $0.certificateIndex == built.count - 1 } else { false } }
    }

    func role(at index: Int) -> String {
        if index == 0 { return "leaf" }
        if index == anchorIndex { return "anchor" }
        if index == built.count - 1 && endsAtUntrustedRoot { return "untrusted root" }
        return "intermediate"
    }

    /// Where a certificate came from: the peer, the supplied intermediates, or the trust anchors.
    func origin(of certificate: Certificate, isAnchor: Bool) -> String {
        if isAnchor { return "trust anchors" }
        if let position = presentedPosition(of: certificate) { return "presented #\(position)" }
        if isSupplied(certificate) { return "supplied intermediates" }
        if let url = fetchedFrom[certificate] { return "fetched from \(url)" }
        return "trust anchors"
    }

    /// `certificate 1 (CN=…)` for the built chain, `presented #2 (CN=…)` or
    /// `supplied intermediate (CN=…)` for the others.
    func name(of certificate: Certificate) -> String {
        if let index = builtPosition(of: certificate) { return "certificate \(index) (\(certificate.subject))" }
        if let position = presentedPosition(of: certificate) { return "presented #\(position) (\(certificate.subject))" }
        if let url = fetchedFrom[certificate] { return "intermediate fetched from \(url) (\(certificate.subject))" }
        return "supplied intermediate (\(certificate.subject))"
    }

    /// Whole days from the verify date to notAfter, rounded towards the past (negative when expired).
    func daysRemaining(_ certificate: Certificate) -> Int {
        let seconds = certificate.notAfter.secondsSince1970 - now
        return Int(seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
    }

    /// The presented indices of the built chain's presented certificates, in chain order (leaf,
    /// then its issuer, …). When this is not increasing, the peer sent them in the wrong order.
    var chainOrderOfPresented: [Int] { built.compactMap { presentedPosition(of: $0) } }

    /// Whether the peer sent the certificates it needed out of order (leaf not first, or an issuer
    /// before the certificate it issued).
    var isWrongOrder: Bool {
        let order = chainOrderOfPresented
        return (order.first.map { $0 != 0 } ?? false) || order != order.sorted()
    }

    /// How a presented certificate that the built chain does not use came to be unused.
    enum Unused {
        /// A path through it failed because of it (expired, wrong key, …): the peer should not send it.
        case faulty
        /// Paths through it failed for reasons that are not its fault (e.g. the certificate below it).
        case notItsFault
        /// No path needed it.
        case unneeded
    }

    /// Why a certificate the peer sent is not in the built chain: the failures of the paths through
    /// it (numbered as in ``ChainDiagnostics/paths``), or that it was not needed.
    func whyUnused(_ certificate: Certificate) -> (reasons: [String], kind: Unused) {
        var reasons: [String] = []
        var kind = Unused.unneeded
        func note(_ text: String, _ newKind: Unused) {
            if !reasons.contains(text) { reasons.append(text) }
            if newKind == .faulty || kind == .unneeded { kind = newKind }
        }
        for (number, position) in failedAttemptsContaining[certificate] ?? [] {
            let attempt = evaluation.attempts[number]
            if attempt.outcome == .rejectedIssuer && position == attempt.chain.count - 1 {
                // The failure names the child whose signature this candidate was tried on.
                let child = attempt.chain[safeIndex: position - 1]?.subject.description ?? "?"
                for failure in attempt.failures {
                    if failure.reason.blamesIssuerCandidate {
                        note("tried as issuer of \(child) and rejected: \(failure.reason.summary) (path \(number + 1))", .faulty)
                    } else {
                        note("tried as issuer of \(child), whose own \(failure.reason.summary) (path \(number + 1))", .notItsFault)
                    }
                }
            } else {
                let own = attempt.failures.filter { $0.certificateIndex == position }
                for failure in own { note("\(failure.reason.summary) (path \(number + 1))", .faulty) }
                if own.isEmpty { note("only on paths that failed for other reasons", .notItsFault) }
            }
        }
        if reasons.isEmpty {
            // The builder tries issuers valid at the verify date first, so an expired twin is often
            // never tried at all: its dates are then why it is unused.
            if now > certificate.notAfter.secondsSince1970 {
                note("expired \(certificate.notAfter), so another issuer was preferred", .faulty)
            } else if now < certificate.notBefore.secondsSince1970 {
                note("not valid before \(certificate.notBefore), so another issuer was preferred", .faulty)
            } else {
                reasons.append(
                    built.contains { $0.issuer == certificate.subject }
                        ? "another issuer with this name was used" : "it issued none of the other certificates")
            }
        }
        return (reasons, kind)
    }

    /// Why the built chain stops short of a trust anchor, in words; nil when it reaches one.
    var chainEnd: String? {
        guard anchorIndex == nil, let top = built.last else { return nil }
        if let issuer = missingIssuer {
            return "MISSING: \(issuer): not sent by the server, not among the supplied intermediates or trust anchors"
        }
        if endsAtUntrustedRoot { return "NOT A TRUST ANCHOR: \(top.subject) is self-signed and not among the trust anchors" }
        let rejected = evaluation.attempts.filter { $0.outcome == .rejectedIssuer && $0.chain.dropLast().elementsEqual(built) }
        let descriptions = rejected.compactMap { attempt -> String? in
            guard let candidate = attempt.chain.last else { return nil }
            let why = attempt.failures.map(\.reason.summary).joined(separator: "; ")
            return "REJECTED issuer \(candidate.subject) [\(origin(of: candidate, isAnchor: attempt.endsAtAnchor))]: \(why)"
        }
        if !descriptions.isEmpty { return descriptions.joined(separator: "; ") }
        return evaluation.failures.first { $0.certificateIndex == nil }.map { "STOPPED: \($0.description)" }
    }

    /// The presented list with its observations.
    func presentedCertificates() -> [ChainDiagnostics.PresentedCertificate] {
        let refused = refusedForLength
        return presented.enumerated().map { index, certificate in
            var notes: [String] = []
            let first = refused == nil ? presentedPosition(of: certificate) : nil
            let chainIndex = first == index ? builtPosition(of: certificate) : nil
            if let refused {
                notes.append("not examined: \(refused.presented) certificates presented, more than the \(refused.limit) an evaluation considers")
            } else if let first, first < index {
                notes.append("duplicate of #\(first): unneeded")
            } else if let chainIndex {
                if chainIndex == 0 {
                    notes.append(index == 0 ? "leaf" : "leaf, but sent as #\(index): the leaf must come first (RFC 8446 §4.4.2)")
                } else if let child = built[safeIndex: chainIndex - 1] {
                    let childIndex = presentedPosition(of: child)
                    notes.append("issuer of \(childIndex.map { "#\($0)" } ?? "certificate \(chainIndex - 1)")")
                    if let childIndex, childIndex > index {
                        notes.append("out of order: sent before #\(childIndex), which it issued")
                    }
                }
                if chainIndex > 0 && certificate.isSelfIssued {
                    notes.append(
                        chainIndex == anchorIndex
                            ? "root sent by the peer: unneeded, clients use their own copy from the trust store"
                            : "self-signed root sent by the peer, not a trust anchor here")
                }
            } else if index > 0 {
                notes.append("not used in the built chain: " + whyUnused(certificate).reasons.joined(separator: "; "))
            }
            return ChainDiagnostics.PresentedCertificate(
                index: index, subject: certificate.subject.description, issuer: certificate.issuer.description,
                chainIndex: chainIndex, sha256Fingerprint: certificate.sha256Hex, notes: notes)
        }
    }
}
