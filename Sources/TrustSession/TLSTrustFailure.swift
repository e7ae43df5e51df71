import Foundation
import TrustCore
import TrustX509

/// Why a verifier rejected the certificates a TLS peer presented: the typed reason behind the
/// handshake failure, naming the certificate and rule (through ``trustFailures``), the judge's own
/// typed failure (a pin), or the challenge disposition that refused the peer.
///
/// The reason reaches the caller as `TLSTrustError` in the channel pipeline and as
/// ``TLSTrustOutcome/rejected(_:)`` on the connection's ``TLSPeerTrustRecord``.
///
/// Equal when the cases and their values are; an error a case carries (a `ComparableError`)
/// compares by value when its type is `Equatable`, otherwise by its type (never by its text).
public enum TLSTrustFailure: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The peer presented no certificate.
    case noPeerCertificates
    /// The certificate at `index` (0 = leaf, as presented) is not a parseable X.509 certificate:
    /// `error` is what the parser threw.
    case malformedPeerCertificate(index: Int, error: ComparableError)
    /// A plain evaluation (``TLSTrustJudge/evaluate``) did not trust the chain.
    case evaluationFailed(TrustEvaluation)
    /// A custom judge (``TLSTrustJudge/custom(_:)``) rejected the trust for `host`, for the typed
    /// reason `failure` carries: TrustPinning's evaluators (and a `ServerTrustManager`) give a
    /// `ServerTrustFailureReason`, its `SecurityPolicy` a `SecurityPolicyFailure` (read them with
    /// TrustPinning's `serverTrustFailureReason` and `securityPolicyFailure`).
    case judgeRejected(host: String, failure: AnyTLSTrustJudgeFailure)
    /// A challenge handler answered `cancelAuthenticationChallenge`, optionally with its own error
    /// (AFNetworking 4's `authenticationChallengeHandler` returning an `NSError`).
    case challengeCancelled(host: String, error: ComparableError?)
    /// A challenge handler answered `rejectProtectionSpace`. A TLS connection offers exactly one
    /// protection space (the server's trust), so nothing is left to try: the handshake fails.
    case protectionSpaceRejected(host: String)
    /// The judge accepted the peer, but no evaluation that applied the configured `TrustOptions`
    /// (profile, revocation) trusted it: a custom evaluator or a challenge handler that accepts
    /// without evaluating, or one that changed the trust's options. `evaluation` is the evaluation
    /// made under the options to check the acceptance (nil when the judge removed the options).
    case optionsNotEnforced(host: String, options: TrustOptions, evaluation: TrustEvaluation?)
    /// The judge accepted `host`, but no evaluation that applied the configured Certificate
    /// Transparency logs trusted the chain (`evaluation`, under them), or the judge removed the logs
    /// from the trust (nil).
    case certificateTransparencyNotEnforced(host: String, evaluation: TrustEvaluation?)
    /// The verifier cannot verify a peer in this role (``TLSTrustDecider/checkRole(_:)``): every
    /// peer is rejected rather than verified against what was not configured.
    case verifierMisconfigured(TLSTrustConfigurationError)
    /// The chain validated, but the verified leaf does not have the identity
    /// ``TLSTrustSettings/requiredIdentity`` asks for: `rule` is the rule it failed (the member of an
    /// `all(...)` that failed first, or the whole rule). The peer's own names are not in the reason
    /// (they are on the chain), so logging it never prints what the peer chose.
    case identityNotAllowed(IdentityRule)
    /// The ``TLSTrustSettings/anchorProvider`` had no anchors to verify this peer against.
    case anchorsUnavailable(TrustAnchorUnavailable)

    /// The evaluation failures underneath (each names its certificate and the rule it broke);
    /// empty for reasons that are not about the chain (pins, dispositions, malformed input).
    public var trustFailures: [TrustFailure] {
        switch self {
        case let .evaluationFailed(evaluation), let .optionsNotEnforced(_, _, evaluation?),
            let .certificateTransparencyNotEnforced(_, evaluation?):
            return evaluation.failures
        case let .judgeRejected(_, failure):
            return failure.base.trustFailures
        case let .challengeCancelled(_, error?):
            // The authority's reason (a ServerTrustManager's evaluator, a SecurityPolicy).
            return (error.error as? any TLSTrustJudgeFailure)?.trustFailures ?? []
        default:
            return []
        }
    }

    /// One line naming the reason without the underlying ``trustFailures`` (which name the
    /// certificates and rules). Certificate names in it are the peer's choice: their control and
    /// bidi characters are escaped (`\u000a` for a line feed), so logging it cannot forge a line.
    public var summary: String { TerminalText.escaped(unescapedSummary) }

    private var unescapedSummary: String {
        switch self {
        case let .evaluationFailed(evaluation):
            return "not trusted (\(evaluation.result))"
        case let .judgeRejected(host, failure):
            return failure.base.summary(forHost: host)
        case let .challengeCancelled(host, error?):
            let reason = (error.error as? any TLSTrustJudgeFailure)?.summary(forHost: host) ?? "\(error)"
            return "the server trust challenge for \(host) was cancelled: \(reason)"
        default:
            return unescapedDescription
        }
    }

    /// One line naming the reason (and the underlying failures), escaped as ``summary`` is.
    public var description: String { TerminalText.escaped(unescapedDescription) }

    private var unescapedDescription: String {
        switch self {
        case .noPeerCertificates:
            return "the peer presented no certificate"
        case let .malformedPeerCertificate(index, error):
            return "presented certificate \(index) is malformed: \(error)"
        case let .evaluationFailed(evaluation):
            return "not trusted (\(evaluation.result)): " + evaluation.failures.map(\.description).joined(separator: "; ")
        case let .judgeRejected(host, failure):
            return failure.base.description(forHost: host)
        case let .challengeCancelled(host, error):
            return "the server trust challenge for \(host) was cancelled" + (error.map { ": \($0)" } ?? "")
        case let .protectionSpaceRejected(host):
            return "the server trust protection space of \(host) was rejected; a TLS connection has no other to try"
        case let .optionsNotEnforced(host, options, evaluation):
            let lead = "\(host) was accepted by its judge, but not under the configured \(options.summary)"
            guard let evaluation else { return lead + " (the judge changed the trust's options)" }
            return lead + ": not trusted (\(evaluation.result)): " + evaluation.failures.map(\.description).joined(separator: "; ")
        case let .certificateTransparencyNotEnforced(host, evaluation):
            let lead = "\(host) was accepted by its judge, but not under the configured Certificate Transparency logs"
            guard let evaluation else { return lead + " (the judge removed the logs from the trust)" }
            return lead + ": not trusted (\(evaluation.result)): " + evaluation.failures.map(\.description).joined(separator: "; ")
        case let .verifierMisconfigured(error):
            return "the verifier is misconfigured for this peer: \(error)"
        case let .identityNotAllowed(rule):
            return "the peer's verified certificate does not have the required identity: it fails the rule \(rule)"
        case let .anchorsUnavailable(reason):
            return "\(reason)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to change, from the underlying reason when it has one.
    public var recoverySuggestion: String? {
        switch self {
        case .noPeerCertificates, .malformedPeerCertificate:
            return "the peer must present its certificate chain, leaf first, as DER X.509 certificates"
        case .evaluationFailed:
            return "each failure names the certificate (0 = leaf) and the rule it broke"
        case let .judgeRejected(_, failure):
            return (failure.base as? any LocalizedError)?.recoverySuggestion
        case let .challengeCancelled(_, error?):
            return (error.error as? any LocalizedError)?.recoverySuggestion
        case .challengeCancelled, .protectionSpaceRejected:
            return nil
        case .optionsNotEnforced:
            return
                "each failure names the certificate (0 = leaf) and the rule it broke; a judge cannot waive the configured profile or revocation checking"
        case .certificateTransparencyNotEnforced:
            return
                "each failure names the certificate (0 = leaf) and the rule it broke; a judge cannot waive the configured Certificate Transparency logs"
        case let .verifierMisconfigured(error):
            return error.recoverySuggestion
        case .identityNotAllowed:
            return
                "the rule reads the leaf's subjectAltName (or subject, for attribute rules); compare it with the names the peer's certificate carries"
        case .anchorsUnavailable:
            return "check the files the anchor provider reads, or the SPIFFE trust bundles it holds"
        }
    }
}
