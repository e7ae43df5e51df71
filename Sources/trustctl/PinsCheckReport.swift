import Foundation
import SwiftTrust
import TrustNIO

/// What `trustctl pins check` found for one host.
struct PinsCheckReport: Encodable {
    /// The verdict, most severe first.
    enum Verdict: String, Encodable {
        /// No configured domain covers the host.
        case notConfigured
        /// The served chain does not validate for the host (the connection fails whatever the pins).
        case chainInvalid
        /// An enforced pin set matches nothing served: connections would be rejected.
        case pinMismatch
        /// A report-only pin set matches nothing served: connections proceed, failures are reported.
        case pinMismatchReportOnly
        /// The pins expired: they are no longer enforced.
        case pinsExpired
        /// The chain is anchored at an anchor that overrides pins.
        case pinsOverridden
        /// The domain configures anchors only.
        case noPins
        /// Every pin requirement is met.
        case pass
    }

    /// One served or validated certificate.
    struct ChainEntry: Encodable {
        let index: Int
        let subject: String
        let spkiPin: String
        /// Whether the server sent it (false for an anchor found in the trust store).
        let served: Bool
    }

    /// One pin and the chain indices it matched.
    struct PinEntry: Encodable {
        let pin: String
        let scope: String
        let matches: [Int]
    }

    let host: String
    let port: Int
    let address: String?
    let domain: String?
    let subdomains: String?
    let enforcement: String?
    let expires: String?
    let daysUntilExpiry: Int?
    let verdict: Verdict
    let reason: String?
    let chain: [ChainEntry]
    let pins: [PinEntry]

    /// A host no domain covers.
    init(target: PinsCheckTarget, notConfigured: Void) {
        (host, port, address) = (target.host, target.port, target.address)
        (domain, subdomains, enforcement, expires, daysUntilExpiry) = (nil, nil, nil, nil, nil)
        verdict = .notConfigured
        reason = "no configured domain covers \(target.host)"
        (chain, pins) = ([], [])
    }

    /// The report of a connection judged under `policy`.
    init(target: PinsCheckTarget, policy: DomainPinningPolicy, connection: ProbeConnection, settings: TLSTrustSettings, date: Date) {
        (host, port, address) = (target.host, target.port, target.address)
        domain = policy.domain
        subdomains = policy.subdomains.rawValue
        enforcement = policy.enforcement.rawValue
        expires = policy.expirationDate.map {
            ISO8601DateFormatter.string(from: $0, timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withFullDate])
        }
        daysUntilExpiry = policy.expirationDate.map { Int(($0.timeIntervalSince(date) / 86_400).rounded(.down)) }

        // Judge offline what the handshake judged: validation with the domain's anchors, then the pins.
        let presented = connection.record.presentedCertificates
        let trust = ServerTrust(certificates: presented)
        if let anchors = settings.anchors {
            trust.setAnchorCertificates(anchors)
            trust.anchorsOnly = settings.anchorsOnly
        }
        trust.verifyDate = date
        let enforcing =
            (try? DomainPinningPolicy(
                domain: policy.domain, subdomains: policy.subdomains, requirements: policy.requirements,
                expirationDate: policy.expirationDate, enforcement: .enforce,
                reportURIs: policy.reportURIs, trustAnchors: policy.trustAnchors)) ?? policy
        var failure: (any Error)?
        do { try ConfiguredPinningTrustEvaluator(policy: enforcing).evaluate(trust, forHost: target.host, port: target.port) } catch {
            failure = error
        }
        let evaluation = trust.lastEvaluation
        let validated = evaluation?.isTrusted == true ? evaluation?.chain ?? presented : presented
        let served = Set(presented.map(\.derEncoded))
        chain = validated.enumerated().map { index, certificate in
            ChainEntry(
                index: index, subject: certificate.subject.description, spkiPin: certificate.spkiPin,
                served: served.contains(certificate.derEncoded))
        }
        let check = PinSetCheck(policy: policy, chain: validated, at: date)
        pins = check.requirements.flatMap { requirement in
            requirement.matches.map { PinEntry(pin: $0.pin.description, scope: requirement.requirement.scope.rawValue, matches: $0.chainIndices) }
        }
        if let failure, case let reason as ServerTrustFailureReason = failure, case .pinSetMismatch = reason {
            verdict = policy.enforcement == .enforce ? .pinMismatch : .pinMismatchReportOnly
            self.reason = reason.summary
        } else if let failure {
            verdict = .chainInvalid
            reason = String(describing: failure)
        } else {
            switch check.outcome {
            case .pinsExpired: verdict = .pinsExpired
            case .overriddenByAnchor: verdict = .pinsOverridden
            case .noPins: verdict = .noPins
            case .satisfied, .unsatisfied: verdict = .pass
            }
            reason = nil
        }
    }

    /// Whether this host makes the command exit 1.
    var fails: Bool { [.notConfigured, .chainInvalid, .pinMismatch].contains(verdict) }

    var lines: [String] {
        var out = ["\(PinsCheckTarget(host: host, port: port).description)" + (address.map { " (connected to \($0))" } ?? "")]
        guard let domain else {
            return out + ["  FAIL: \(reason ?? "not configured")"]
        }
        var settings = "  configured domain \(domain) (subdomains: \(subdomains ?? "none"), \(enforcement ?? "enforce")"
        if let expires, let daysUntilExpiry {
            settings +=
                daysUntilExpiry >= 0
                ? ", pins expire \(expires): in \(daysUntilExpiry) day\(daysUntilExpiry == 1 ? "" : "s")"
                : ", pins expired \(expires)"
        }
        out.append(settings + ")")
        out.append("  chain:")
        for entry in chain {
            let matched = pins.filter { $0.matches.contains(entry.index) }.map(\.pin)
            let note = (entry.served ? "" : " (anchor, not served)") + (matched.isEmpty ? "" : "  ← pinned")
            out.append("    [\(entry.index)] \(entry.subject.isEmpty ? "(empty subject)" : entry.subject)")
            out.append("        \(entry.spkiPin)\(note)")
        }
        if !pins.isEmpty { out.append("  pins:") }
        for pin in pins {
            let matches =
                pin.matches.isEmpty
                ? "matches nothing served (a backup key, or a dead pin)"
                : "matches " + pin.matches.map { "[\($0)]" }.joined(separator: ", ")
            out.append("    \(pin.scope.padding(toLength: 5, withPad: " ", startingAt: 0)) \(pin.pin)  \(matches)")
        }
        switch verdict {
        case .pass: out.append("  PASS: the pins match what is served")
        case .pinMismatch: out.append("  FAIL: enforced pins match nothing served; connections would be rejected (\(reason ?? ""))")
        case .pinMismatchReportOnly: out.append("  WARN: report-only pins match nothing served; failures would be reported")
        case .pinsExpired: out.append("  WARN: the pins have expired and are not enforced")
        case .pinsOverridden: out.append("  PASS: anchored at an anchor that overrides pins")
        case .noPins: out.append("  PASS: the domain configures anchors only, no pins")
        case .chainInvalid: out.append("  FAIL: the served chain does not validate: \(reason ?? "")")
        case .notConfigured: out.append("  FAIL: \(reason ?? "")")
        }
        return out
    }
}
