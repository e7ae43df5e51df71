import Foundation
import TrustX509

/// trustd's Certificate Transparency rule (`SecPolicyCheckCT`, `find_validating_logs` and
/// `verify_tls_ct_policy` in `CertificateTransparency.m`), as a pure function.
///
/// A chain is CT-qualified when (A1 and A2) or (B1 and B2):
/// - A1: embedded SCTs from at least ``requiredEmbeddedLogCount(notBefore:notAfter:)`` logs, each
///   current, or retired after both its SCT and the certificate's issuance;
/// - A2: at least one embedded SCT from a current (not retired) log;
/// - B1: SCTs from at least two current logs, from any source;
/// - B2: at least one of the SCTs delivered by TLS or OCSP.
///
/// An SCT counts only if it is v1 with nothing after its signature, not dated after the evaluation
/// time, from a trusted listed log, not dated after the log became read-only, for a leaf whose
/// notAfter is in the log's shard, and signed by the log's key over the precertificate entry
/// (embedded) or the certificate (TLS, OCSP); a delivered SCT from a retired log never counts. Each
/// log counts once, with its earliest SCT. Apple's rule does not require distinct log operators
/// (the policy's per-operator limits are not checked by trustd).
public enum CTPolicy {
    /// Decides whether `leaf` is CT-qualified at `date` with `timestamps` and `logs`.
    ///
    /// - Parameters:
    ///   - leaf: the certificate the SCTs are for.
    ///   - issuer: the leaf's issuer (the chain's second certificate): embedded SCTs are signed
    ///     over its key's hash; without it they cannot count.
    ///   - timestamps: the SCTs from every source (``SCTList``), in any order; the result refers to
    ///     them by index.
    ///   - logs: the trusted logs.
    ///   - date: the evaluation time.
    public static func evaluate(
        leaf: Certificate, issuer: Certificate?, timestamps: [PresentedTimestamp],
        logs: CTLogList, at date: Date
    ) -> CTEvaluation {
        let notBefore = Date(timeIntervalSince1970: Double(leaf.notBefore.secondsSince1970))
        let notAfter = Date(timeIntervalSince1970: Double(leaf.notAfter.secondsSince1970))
        // trustd reads embedded SCTs, then the TLS ones, then OCSP's; ties keep the first read.
        let order = timestamps.indices.sorted { (rank(timestamps[$0].source), $0) < (rank(timestamps[$1].source), $1) }
        var entries = SCTValidation.Entries(leaf: leaf, issuer: issuer)
        var valid: [SCTValidation.Valid] = []
        var notCounted: [CTEvaluation.NotCounted] = []
        for index in order {
            switch SCTValidation.validate(timestamps[index], index: index, logs: logs, at: date, notAfter: notAfter, entries: &entries) {
            case let .success(sct): valid.append(sct)
            case let .failure(reason): notCounted.append(.init(index: index, source: timestamps[index].source, reason: reason))
            }
        }

        // find_validating_logs: the earliest valid SCT per current log (any source), and per log
        // among embedded SCTs (any log).
        let current = earliestPerLog(valid.filter { !$0.log.isRetired })
        let embedded = earliestPerLog(valid.filter { $0.source == .embedded })
        let hasDelivered = valid.contains { $0.source.isDelivered }
        let hasEmbeddedCurrent = valid.contains { $0.source == .embedded && !$0.log.isRetired }
        let required = requiredEmbeddedLogCount(notBefore: notBefore, notAfter: notAfter)
        // verify_tls_ct_policy: the issuance time is the earliest SCT from a current log, if earlier
        // than the evaluation time; set only when an embedded SCT from a current log validated.
        let issuance = hasEmbeddedCurrent ? current.map(\.time).reduce(date) { min($0, $1) } : nil

        var counted: [SCTValidation.Valid]
        let rule: CTEvaluation.Rule
        var qualifying: CTEvaluation.Rule?
        if (hasDelivered && current.count >= 2) || !hasEmbeddedCurrent {
            rule = .delivered
            counted = current
            if hasDelivered && current.count >= 2 { qualifying = .delivered }
            let countedIndices = Set(counted.map(\.index))
            for sct in valid where !countedIndices.contains(sct.index) {
                let reason: SCTRejection =
                    sct.log.isRetired
                    ? .retiredLog(log: name(sct.log), retiredSince: sct.log.retiredSince ?? .distantPast)
                    : .sameLogAlreadyCounted(log: name(sct.log))
                notCounted.append(.init(index: sct.index, source: sct.source, reason: reason))
            }
        } else {
            rule = .embedded
            counted = []
            let issuedAt = issuance ?? date
            for sct in embedded {
                guard sct.log.isRetired else {
                    counted.append(sct)
                    continue
                }
                let retired = sct.log.retiredSince ?? .distantPast
                if sct.time >= retired {
                    notCounted.append(
                        .init(
                            index: sct.index, source: sct.source,
                            reason: .loggedAfterRetirement(log: name(sct.log), timestamp: sct.time, retiredSince: retired)))
                } else if issuedAt >= retired {
                    notCounted.append(
                        .init(
                            index: sct.index, source: sct.source,
                            reason: .issuedAfterRetirement(log: name(sct.log), issuance: issuedAt, retiredSince: retired)))
                } else {
                    counted.append(sct)
                }
            }
            if counted.count >= required { qualifying = .embedded }
            let judged = Set(embedded.map(\.index))
            for sct in valid where !judged.contains(sct.index) {
                let reason: SCTRejection = sct.source.isDelivered ? .notEmbedded : .sameLogAlreadyCounted(log: name(sct.log))
                notCounted.append(.init(index: sct.index, source: sct.source, reason: reason))
            }
        }
        counted.sort { $0.index < $1.index }
        notCounted.sort { $0.index < $1.index }
        return CTEvaluation(
            qualifyingRule: qualifying, countedRule: rule,
            counted: counted.map {
                .init(index: $0.index, source: $0.source, log: $0.log, timestamp: timestampDate(timestamps[$0.index]) ?? $0.time)
            },
            notCounted: notCounted, requiredEmbeddedLogCount: required,
            embeddedLogCount: rule == .embedded ? counted.count : embeddedCount(embedded, issuance: issuance ?? date),
            currentLogCount: current.count, hasEmbeddedSCTFromCurrentLog: hasEmbeddedCurrent, hasDeliveredSCT: hasDelivered,
            issuanceTime: issuance)
    }

    /// The earliest SCT of each log (trustd's `addValidatingLog`: replaced only by a strictly
    /// earlier one), in the order first seen.
    private static func earliestPerLog(_ valid: [SCTValidation.Valid]) -> [SCTValidation.Valid] {
        var chosen: [SCTValidation.Valid] = []
        var position: [[UInt8]: Int] = [:]
        for sct in valid {
            if let existing = position[sct.log.id] {
                if sct.time < chosen[existing].time { chosen[existing] = sct }
            } else {
                position[sct.log.id] = chosen.count
                chosen.append(sct)
            }
        }
        return chosen
    }

    /// A1's count, for a result decided by the other rule.
    private static func embeddedCount(_ embedded: [SCTValidation.Valid], issuance: Date) -> Int {
        embedded.filter { sct in
            guard sct.log.isRetired else { return true }
            let retired = sct.log.retiredSince ?? .distantPast
            return sct.time < retired && issuance < retired
        }.count
    }

    private static func rank(_ source: SCTSource) -> Int {
        switch source {
        case .embedded: return 0
        case .tlsExtension: return 1
        case .ocspResponse: return 2
        }
    }

    private static func name(_ log: CTLog) -> String { log.logDescription ?? log.base64ID }

    private static func timestampDate(_ presented: PresentedTimestamp) -> Date? {
        if case let .success(sct) = presented.timestamp { return sct.date }
        return nil
    }
}
