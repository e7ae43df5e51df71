import Foundation
import TrustCore

/// Why an evaluator of this module rejected a server trust, in the spirit of Alamofire's
/// `AFError.ServerTrustFailureReason`. Every case names the host and carries what a person needs
/// to act: the underlying ``TrustFailure``s, or the pinned and presented fingerprints.
///
/// Equal when the cases and their values are; the error of
/// ``customEvaluationFailed(host:error:)`` (a `ComparableError`) compares by value when its type is
/// `Equatable`, otherwise by its type (never by its text).
public enum ServerTrustFailureReason: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// A ``ServerTrustManager`` that requires every host to be evaluated has no evaluator for the host.
    case noRequiredEvaluator(host: String)
    /// A ``PinnedCertificatesTrustEvaluator`` was given no certificates to pin.
    case noCertificatesFound
    /// A ``PublicKeysTrustEvaluator`` was given no public keys to pin.
    case noPublicKeysFound
    /// An evaluation of the trust failed: the one reason Alamofire 5 throws for every failed
    /// `SecTrust` evaluation on current Apple systems (`.trustEvaluationFailed(error:)`, from
    /// `SecTrust.af.evaluate()`). `stage` says which evaluation: default validation (a chain to a
    /// trusted anchor, fit for TLS server authentication, without the host name), host validation,
    /// or the revocation check (a certificate is revoked, or, while revocation checking is
    /// unavailable or when a positive response is required, its status could not be established).
    /// `failures` are the evaluation's reasons, each naming the certificate and the rule.
    case trustEvaluationFailed(host: String, stage: TrustEvaluationStage, failures: [TrustFailure])
    /// None of the pinned certificates is among the server's certificates.
    case certificatePinningFailed(host: String, pinned: [PinDescription], presented: [PinDescription])
    /// None of the pinned public keys (or SPKI hashes) is among the server's certificates' keys.
    case publicKeyPinningFailed(host: String, pinned: [PinDescription], presented: [PinDescription])
    /// A configured domain's pin requirements (``DomainPinningPolicy``, matched as `domain`) were
    /// not all met by the validated chain: `unsatisfied` lists the requirements no certificate in
    /// their scope matched, `presented` the keys of the chain's certificates.
    case pinSetMismatch(host: String, domain: String, unsatisfied: [PinRequirement], presented: [PinDescription])
    /// A ``CustomTrustEvaluator``'s closure threw `error` (or a custom `ServerTrustEvaluating`
    /// conformer judging a TLS peer threw it: ``PinningTrustJudge`` wraps it so).
    case customEvaluationFailed(host: String, error: ComparableError)
    /// `evaluator` accepts without evaluating the trust (``DisabledTrustEvaluator``, or a pinning
    /// evaluator with default and host validation off), but the trust's ``TrustOptions`` ask for
    /// what only an evaluation checks (a profile, revocation): the combination cannot be honoured,
    /// so it is refused rather than the options dropped.
    case optionsNotEnforceable(host: String, evaluator: String, options: TrustOptions)
    /// `evaluator` would accept `host` without evaluating the chain while the trust's configuration
    /// has Certificate Transparency logs (``TrustConfiguration/certificateTransparencyLogs``), which
    /// only an evaluation enforces: refused rather than the logs ignored.
    case certificateTransparencyNotEnforceable(host: String, evaluator: String)

    /// The evaluation failures underlying the reason (empty for reasons that are not about the chain).
    public var trustFailures: [TrustFailure] {
        switch self {
        case let .trustEvaluationFailed(_, _, failures):
            return failures
        default:
            return []
        }
    }

    /// Whether the reason is that revocation status could not be established (as opposed to a
    /// certificate being revoked): always the case while revocation checking is unavailable.
    public var isRevocationUnavailable: Bool {
        guard case let .trustEvaluationFailed(_, .revocation, failures) = self else { return false }
        return failures.contains { if case .revocationUnavailable = $0.reason { true } else { false } }
    }

    /// One sentence naming the host and the failed rule or pin, without the underlying failures.
    public var summary: String {
        switch self {
        case let .noRequiredEvaluator(host):
            return "no server trust evaluator is configured for host \(host), and all hosts must be evaluated"
        case .noCertificatesFound:
            return "certificate pinning is configured with no certificates"
        case .noPublicKeysFound:
            return "public-key pinning is configured with no keys"
        case let .trustEvaluationFailed(host, .revocation(options), _):
            let lead = isRevocationUnavailable ? "revocation checking unavailable" : "revocation check failed"
            return "trust evaluation failed for \(host): \(lead) (options: \(options.swiftNames))"
        case let .trustEvaluationFailed(host, stage, _):
            return "trust evaluation failed for \(host): \(stage) failed"
        case let .certificatePinningFailed(host, pinned, presented):
            return "certificate pinning failed for \(host): none of the \(pinned.count) pinned certificates \(pinned.listed) "
                + "is among the server's certificates \(presented.listed)"
        case let .publicKeyPinningFailed(host, pinned, presented):
            return "public-key pinning failed for \(host): none of the \(pinned.count) pinned keys \(pinned.listed) "
                + "matches the keys of the server's certificates \(presented.listed)"
        case let .pinSetMismatch(host, domain, unsatisfied, presented):
            let wanted = unsatisfied.map { requirement in
                "\(requirement.scope.phrase) matching one of \(requirement.pins.map { PinDescription(value: $0.description, subject: nil) }.listed)"
            }
            return "pinning failed for \(host) (configured domain \(domain)): no \(wanted.joined(separator: ", and no "))"
                + " among the server's chain \(presented.listed)"
        case let .customEvaluationFailed(host, error):
            return "custom evaluation failed for \(host): \(error)"
        case let .optionsNotEnforceable(host, evaluator, options):
            return "\(evaluator) accepts \(host) without evaluating the chain, which the configured \(options.summary) requires"
        case let .certificateTransparencyNotEnforceable(host, evaluator):
            return "\(evaluator) accepts \(host) without evaluating the chain, which the configured Certificate Transparency logs require"
        }
    }

    /// The ``summary`` followed by the underlying failures, separated by `; `.
    public var description: String {
        let failures = trustFailures
        return failures.isEmpty ? summary : summary + ": " + failures.map(\.description).joined(separator: "; ")
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to change: the configuration, the pins, or what each underlying failure names.
    public var recoverySuggestion: String? {
        switch self {
        case .noRequiredEvaluator:
            return "add an evaluator for the host to the ServerTrustManager, or do not require every host to be evaluated"
        case .noCertificatesFound, .noPublicKeysFound:
            return "give the evaluator the certificates or keys to pin"
        case .trustEvaluationFailed:
            return "each failure names the certificate (0 = leaf) and the rule it broke"
        case .certificatePinningFailed, .publicKeyPinningFailed, .pinSetMismatch:
            return
                "if the server's certificates changed legitimately, pin the new ones (keep a backup pin); otherwise this is not the expected server"
        case .customEvaluationFailed:
            return nil
        case .optionsNotEnforceable:
            return "turn default or host validation on, or do not configure a profile or revocation checking for this host"
        case .certificateTransparencyNotEnforceable:
            return "turn default or host validation on, or do not configure Certificate Transparency logs for this host"
        }
    }
}
