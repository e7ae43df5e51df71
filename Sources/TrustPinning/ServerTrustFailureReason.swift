import TrustCore

/// Why an evaluator of this module rejected a server trust, in the spirit of Alamofire's
/// `AFError.ServerTrustFailureReason`. Every case names the host and carries what a person needs
/// to act: the underlying ``TrustFailure``s, or the pinned and presented fingerprints.
public enum ServerTrustFailureReason: Error, Sendable, CustomStringConvertible {
    /// A ``ServerTrustManager`` that requires every host to be evaluated has no evaluator for the host.
    case noRequiredEvaluator(host: String)
    /// A ``PinnedCertificatesTrustEvaluator`` was given no certificates to pin.
    case noCertificatesFound
    /// A ``PublicKeysTrustEvaluator`` was given no public keys to pin.
    case noPublicKeysFound
    /// Default validation (a chain to a trusted anchor, fit for TLS server authentication, without
    /// the host name) failed; `failures` are the evaluation's reasons.
    case defaultEvaluationFailed(host: String, failures: [TrustFailure])
    /// Validation with the host name failed; `failures` are the evaluation's reasons.
    case hostValidationFailed(host: String, failures: [TrustFailure])
    /// The revocation check failed: a certificate is revoked, or (while revocation checking is
    /// unavailable, or when a positive response is required) its status could not be established.
    case revocationCheckFailed(host: String, options: RevocationOptions, failures: [TrustFailure])
    /// None of the pinned certificates is among the server's certificates.
    case certificatePinningFailed(host: String, pinned: [PinDescription], presented: [PinDescription])
    /// None of the pinned public keys (or SPKI hashes) is among the server's certificates' keys.
    case publicKeyPinningFailed(host: String, pinned: [PinDescription], presented: [PinDescription])
    /// A configured domain's pin requirements (``DomainPinningPolicy``, matched as `domain`) were
    /// not all met by the validated chain: `unsatisfied` lists the requirements no certificate in
    /// their scope matched, `presented` the keys of the chain's certificates.
    case pinSetMismatch(host: String, domain: String, unsatisfied: [PinRequirement], presented: [PinDescription])
    /// A ``CustomTrustEvaluator``'s closure threw `error`.
    case customEvaluationFailed(host: String, error: any Error)

    /// The evaluation failures underlying the reason (empty for reasons that are not about the chain).
    public var trustFailures: [TrustFailure] {
        switch self {
        case let .defaultEvaluationFailed(_, failures), let .hostValidationFailed(_, failures),
             let .revocationCheckFailed(_, _, failures):
            return failures
        default:
            return []
        }
    }

    /// Whether the reason is that revocation status could not be established (as opposed to a
    /// certificate being revoked): always the case while revocation checking is unavailable.
    public var isRevocationUnavailable: Bool {
        guard case let .revocationCheckFailed(_, _, failures) = self else { return false }
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
        case let .defaultEvaluationFailed(host, _):
            return "default evaluation failed for \(host)"
        case let .hostValidationFailed(host, _):
            return "host validation failed for \(host)"
        case let .revocationCheckFailed(host, options, _):
            let lead = isRevocationUnavailable ? "revocation checking unavailable for \(host)" : "revocation check failed for \(host)"
            return lead + " (options: \(Self.names(of: options)))"
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
        }
    }

    /// The ``summary`` followed by the underlying failures, separated by `; `.
    public var description: String {
        let failures = trustFailures
        return failures.isEmpty ? summary : summary + ": " + failures.map(\.description).joined(separator: "; ")
    }

    private static func names(of options: RevocationOptions) -> String {
        let known: [(RevocationOptions, String)] = [
            (.ocsp, "ocsp"), (.crl, "crl"), (.preferCRL, "preferCRL"),
            (.requirePositiveResponse, "requirePositiveResponse"), (.networkAccessDisabled, "networkAccessDisabled"),
        ]
        let names = known.filter { options.contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
