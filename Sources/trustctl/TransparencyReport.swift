import Foundation
import SwiftTrust

/// The Certificate Transparency part of `verify`'s report (``TrustEvaluation/certificateTransparency``):
/// qualified or not, whether trustd's rule required it, the counts, and each SCT with its fate.
struct TransparencyReport: Encodable {
    struct Timestamp: Encodable {
        let index: Int
        let source: String
        /// The log's description (or its base64 ID) for an SCT that counted.
        let log: String?
        let timestamp: String?
        /// Why it did not count; nil when it counted.
        let notCountedBecause: String?
    }

    let qualified: Bool
    let required: Bool
    /// Why CT was not required of this chain (nil when it was).
    let notRequiredBecause: String?
    /// The rule that qualified the chain: `embedded` or `delivered`.
    let qualifyingRule: String?
    let summary: String
    let requiredEmbeddedLogs: Int
    let embeddedLogs: Int
    let currentLogs: Int
    let timestamps: [Timestamp]
    /// SCT lists that could not be read at all.
    let unreadableLists: [String]

    init(_ report: CertificateTransparencyReport) {
        let evaluation = report.evaluation
        qualified = evaluation.isQualified
        required = report.isEnforced
        notRequiredBecause = report.exemption?.description
        qualifyingRule = evaluation.qualifyingRule.map { $0 == .embedded ? "embedded" : "delivered" }
        summary = evaluation.description
        requiredEmbeddedLogs = evaluation.requiredEmbeddedLogCount
        embeddedLogs = evaluation.embeddedLogCount
        currentLogs = evaluation.currentLogCount
        let counted = evaluation.counted.map {
            Timestamp(
                index: $0.index, source: $0.source.description, log: $0.log.logDescription ?? $0.log.base64ID,
                timestamp: DERTime(timeIntervalSince1970: $0.timestamp.timeIntervalSince1970)?.description, notCountedBecause: nil)
        }
        let others = evaluation.notCounted.map {
            Timestamp(index: $0.index, source: $0.source.description, log: nil, timestamp: nil, notCountedBecause: $0.reason.description)
        }
        timestamps = (counted + others).sorted { $0.index < $1.index }
        unreadableLists = report.unreadableLists.map { "\($0.source) list: \($0.error)" }
    }

    /// `Certificate Transparency: …` and one line per SCT.
    var lines: [String] {
        var lines = ["Certificate Transparency: \(summary)" + (required ? " (required)" : "; not required: \(notRequiredBecause ?? "?")")]
        for sct in timestamps {
            if let reason = sct.notCountedBecause {
                lines.append("  SCT \(sct.index) (\(sct.source)): not counted: \(reason)")
            } else {
                lines.append("  SCT \(sct.index) (\(sct.source)): counted, \(sct.log ?? "?") at \(sct.timestamp ?? "?")")
            }
        }
        lines += unreadableLists.map { "  unreadable \($0)" }
        return lines
    }
}
