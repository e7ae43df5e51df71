import Foundation
import TrustCore

/// Why a `TLSTrustVerifier` refused its configuration, or cannot be wired to a TLS handler: a
/// combination that cannot be honoured, refused when it is configured instead of one setting being
/// dropped on every handshake.
public enum TLSTrustConfigurationError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The `NIOSSLContext`'s `certificateVerification` is `.none`: swift-nio-ssl would never call
    /// the verifier, and every peer would be accepted unverified.
    case certificateVerificationDisabled
    /// Client certificates (mutual TLS) are judged by a plain evaluation only: the evaluators,
    /// security policies and challenges judge server trust for a host.
    case clientCertificatesNeedPlainEvaluation
    /// `judge` accepts peers without evaluating their chain (`DisabledTrustEvaluator`, a pinning
    /// evaluator with default and host validation off, a `SecurityPolicy` allowing invalid
    /// certificates), while the settings ask for what only an evaluation checks: `options`
    /// (``TLSTrustSettings/trustOptions``: a profile other than SSL, revocation checking).
    case judgeSkipsEvaluation(judge: String, options: TrustOptions)

    /// One sentence naming both settings.
    public var description: String {
        switch self {
        case .certificateVerificationDisabled:
            return "the TLS configuration's certificateVerification is .none, so no certificate would be verified; "
                + "use .noHostnameVerification (SwiftTrust checks the host) or .fullVerification"
        case .clientCertificatesNeedPlainEvaluation:
            return "client certificates are judged by TLSTrustJudge.evaluate only"
        case let .judgeSkipsEvaluation(judge, options):
            return "the judge \(judge) accepts peers without evaluating their chain, so it cannot enforce the configured \(options.summary)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to change.
    public var recoverySuggestion: String? {
        switch self {
        case .certificateVerificationDisabled, .clientCertificatesNeedPlainEvaluation:
            return nil
        case .judgeSkipsEvaluation:
            return "turn the judge's default or host validation on (or allowInvalidCertificates off), or remove the profile and revocation settings"
        }
    }
}
