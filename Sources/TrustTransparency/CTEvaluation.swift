import Foundation

/// What trustd's Certificate Transparency rule decided for one leaf (`SecPolicyCheckCT`): whether
/// the chain is CT-qualified (`kSecTrustCertificateTransparency`), which SCTs counted and why each
/// other one did not.
public struct CTEvaluation: Hashable, Sendable, CustomStringConvertible {
    /// The half of trustd's rule, `(A1 and A2) or (B1 and B2)`, that decided.
    public enum Rule: Hashable, Sendable, CustomStringConvertible {
        /// A1 and A2: embedded SCTs from enough logs qualified at issuance
        /// (``CTEvaluation/requiredEmbeddedLogCount``), one of them from a log qualified now.
        case embedded
        /// B1 and B2: SCTs from two currently qualified logs, from any source, one of them
        /// delivered by TLS or OCSP.
        case delivered

        /// The rule in words.
        public var description: String {
            switch self {
            case .embedded: return "embedded SCTs from enough logs"
            case .delivered: return "SCTs from two current logs, one delivered by TLS or OCSP"
            }
        }
    }

    /// An SCT that counted: its position in the SCTs evaluated, its source, its log and time.
    public struct Counted: Hashable, Sendable {
        /// Index in the timestamps passed to ``CTPolicy/evaluate(leaf:issuer:timestamps:logs:at:)``.
        public let index: Int
        /// Where it came from.
        public let source: SCTSource
        /// The log that signed it.
        public let log: CTLog
        /// Its timestamp.
        public let timestamp: Date
    }

    /// An SCT that did not count, and why.
    public struct NotCounted: Hashable, Sendable {
        /// Index in the timestamps passed to ``CTPolicy/evaluate(leaf:issuer:timestamps:logs:at:)``.
        public let index: Int
        /// Where it came from.
        public let source: SCTSource
        /// Why it did not count.
        public let reason: SCTRejection
    }

    /// The rule that qualified the chain, nil when it is not CT-qualified.
    public let qualifyingRule: Rule?
    /// The rule the counts below were made for: the qualifying one, or else the embedded rule when
    /// an embedded SCT from a current log validated (A2), the delivered rule otherwise.
    public let countedRule: Rule
    /// The SCTs that counted toward ``countedRule``, one per log.
    public let counted: [Counted]
    /// Every other SCT, with its reason.
    public let notCounted: [NotCounted]
    /// A1's threshold: logs the leaf's lifetime requires (``CTPolicy/requiredEmbeddedLogCount(notBefore:notAfter:)``).
    public let requiredEmbeddedLogCount: Int
    /// A1's count: logs with a valid embedded SCT, current, or retired after the SCT and after issuance.
    public let embeddedLogCount: Int
    /// B1's count: current (not retired) logs with a valid SCT from any source.
    public let currentLogCount: Int
    /// A2: a valid embedded SCT from a current log.
    public let hasEmbeddedSCTFromCurrentLog: Bool
    /// B2: a valid SCT delivered by TLS or OCSP (from a current log: retired logs' are invalid).
    public let hasDeliveredSCT: Bool
    /// The issuance time trustd derives: the earliest SCT from a current log, or the evaluation
    /// time when there is none earlier (used to judge retired logs; nil when no embedded SCT from a
    /// current log validated).
    public let issuanceTime: Date?

    /// Whether the chain is CT-qualified.
    public var isQualified: Bool { qualifyingRule != nil }

    /// One line: qualified by which rule, or both halves' counts that fell short.
    public var description: String {
        if let qualifyingRule { return "CT-qualified: \(qualifyingRule) (\(counted.count) logs)" }
        let embedded =
            "embedded SCTs from \(embeddedLogCount) qualifying logs (\(requiredEmbeddedLogCount) required"
            + (hasEmbeddedSCTFromCurrentLog ? ")" : ", one from a current log: none)")
        let delivered =
            "SCTs from \(currentLogCount) current logs (2 required"
            + (hasDeliveredSCT ? ")" : ", one delivered by TLS or OCSP: none)")
        return "not CT-qualified: \(embedded); \(delivered)"
    }
}
