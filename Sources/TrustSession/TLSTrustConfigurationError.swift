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
    /// Clients (mutual TLS) would be verified against the system trust store: the settings have no
    /// anchors, or do not make them the only ones, and do not say
    /// ``TLSTrustSettings/systemStoreTrustsClients``. Any publicly trusted certificate allowing
    /// clientAuth would be accepted.
    case clientAnchorsNotExplicit
    /// `judge` accepts peers without evaluating their chain (`DisabledTrustEvaluator`, a pinning
    /// evaluator with default and host validation off, a `SecurityPolicy` allowing invalid
    /// certificates), while the settings ask for what only an evaluation checks: `options`
    /// (``TLSTrustSettings/trustOptions``: a profile other than SSL, revocation checking, or any
    /// other setting `TrustOptions.requiresEvaluation` counts, such as a maximum depth or policy inputs).
    case judgeSkipsEvaluation(judge: String, options: TrustOptions)
    /// `judge` accepts peers without evaluating their chain, while the settings configure
    /// Certificate Transparency logs (`TrustConfiguration.certificateTransparencyLogs`), which only
    /// an evaluation enforces.
    case judgeSkipsCertificateTransparency(judge: String)
    /// `judge` accepts peers without evaluating their chain, while the settings require an identity
    /// (``TLSTrustSettings/requiredIdentity``), which is only worth what the validated chain vouches for.
    case identityRuleNeedsEvaluation(judge: String)
    /// Both ``TLSTrustSettings/anchors`` and ``TLSTrustSettings/anchorProvider`` are set: which one
    /// verifies the peer would be a guess.
    case anchorsAndAnchorProvider

    /// One sentence naming both settings.
    public var description: String {
        switch self {
        case .certificateVerificationDisabled:
            return "the TLS configuration's certificateVerification is .none, so no certificate would be verified; "
                + "use .noHostnameVerification (SwiftTrust checks the host) or .fullVerification"
        case .clientCertificatesNeedPlainEvaluation:
            return "client certificates are judged by TLSTrustJudge.evaluate only"
        case .clientAnchorsNotExplicit:
            return "client certificates would be verified against the system trust store, accepting any publicly trusted "
                + "certificate that allows clientAuth; set the settings' anchors (with anchorsOnly) to the CA that issues them"
        case let .judgeSkipsEvaluation(judge, options):
            return "the judge \(judge) accepts peers without evaluating their chain, so it cannot enforce the configured \(options.summary)"
        case let .judgeSkipsCertificateTransparency(judge):
            return "the judge \(judge) accepts peers without evaluating their chain, so it cannot enforce the configured "
                + "Certificate Transparency logs"
        case let .identityRuleNeedsEvaluation(judge):
            return "the judge \(judge) accepts peers without evaluating their chain, so no verified identity exists for the required identity rule"
        case .anchorsAndAnchorProvider:
            return "both anchors and an anchor provider are set; set one"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to change.
    public var recoverySuggestion: String? {
        switch self {
        case .certificateVerificationDisabled, .clientCertificatesNeedPlainEvaluation:
            return nil
        case .clientAnchorsNotExplicit:
            return "set TLSTrustSettings.anchors to the clients' CA, or systemStoreTrustsClients = true to trust the system store for clients"
        case .identityRuleNeedsEvaluation:
            return "use a judge that evaluates the chain (TLSTrustJudge.evaluate, an evaluator with default validation on)"
        case .anchorsAndAnchorProvider:
            return "put fixed anchors in the provider, or remove the provider"
        case .judgeSkipsEvaluation:
            return
                "turn the judge's default or host validation on (or allowInvalidCertificates off), or remove the options it cannot enforce (profile, revocation, depth, policy inputs, ...)"
        case .judgeSkipsCertificateTransparency:
            return "turn the judge's default or host validation on (or allowInvalidCertificates off), or remove the Certificate Transparency logs"
        }
    }
}
