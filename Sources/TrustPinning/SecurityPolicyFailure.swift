import Foundation
import TrustCore

/// Why ``SecurityPolicy/evaluate(_:forDomain:)`` returned false: one case per place where
/// AFNetworking's `-evaluateServerTrust:forDomain:` returns `NO`.
public enum SecurityPolicyFailure: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// `allowInvalidCertificates` and `validatesDomainName` with a domain, but nothing pinned:
    /// "In order to validate a domain name for self signed certificates, you MUST use pinning."
    case domainValidationRequiresPinning(domain: String)
    /// The trust failed evaluation under the policy's own anchors (and invalid certificates are not allowed).
    case evaluationFailed(failures: [TrustFailure])
    /// Certificate or public-key pinning with no pinned certificates.
    case noPinnedCertificates
    /// With the pinned certificates as the only anchors, the trust failed evaluation.
    case pinnedAnchorEvaluationFailed(failures: [TrustFailure])
    /// No certificate of the built chain is pinned.
    case certificateNotPinned(pinned: [PinDescription], chain: [PinDescription])
    /// No key of the server's certificates is pinned.
    case publicKeyNotPinned(pinned: [PinDescription], presented: [PinDescription])
    /// ``SecurityPolicy/requiresEntireChainPinned`` (AFNetworking 2.x `validatesCertificateChain`)
    /// is set and these certificates of the chain are not pinned.
    case chainNotEntirelyPinned(unpinned: [PinDescription])
    /// `allowInvalidCertificates` accepts a chain that does not evaluate, but the trust's
    /// ``TrustOptions`` ask for what only an evaluation checks (a profile, revocation): refused
    /// rather than the options dropped.
    case optionsNotEnforceable(options: TrustOptions)
    /// ``SecurityPolicy/allowInvalidCertificates`` would accept without evaluating, while the
    /// trust's configuration has Certificate Transparency logs, which only an evaluation enforces:
    /// refused rather than the logs ignored.
    case certificateTransparencyNotEnforceable

    /// The evaluation failures underlying the reason (empty for reasons that are not about the chain).
    public var trustFailures: [TrustFailure] {
        switch self {
        case let .evaluationFailed(failures), let .pinnedAnchorEvaluationFailed(failures): return failures
        default: return []
        }
    }

    /// One sentence naming the failed rule or pins.
    public var description: String {
        switch self {
        case let .domainValidationRequiresPinning(domain):
            return "validating the domain \(domain) while allowing invalid certificates requires pinned certificates"
        case let .evaluationFailed(failures):
            return "server trust evaluation failed: " + failures.map(\.description).joined(separator: "; ")
        case .noPinnedCertificates:
            return "pinning is enabled but no certificates are pinned"
        case let .pinnedAnchorEvaluationFailed(failures):
            return "server trust evaluation with the pinned certificates as anchors failed: "
                + failures.map(\.description).joined(separator: "; ")
        case let .certificateNotPinned(pinned, chain):
            return "none of the \(pinned.count) pinned certificates \(pinned.listed) is in the chain \(chain.listed)"
        case let .publicKeyNotPinned(pinned, presented):
            return "none of the \(pinned.count) pinned keys \(pinned.listed) matches the server's keys \(presented.listed)"
        case let .chainNotEntirelyPinned(unpinned):
            return "every certificate of the chain must be pinned; not pinned: \(unpinned.listed)"
        case let .optionsNotEnforceable(options):
            return "allowInvalidCertificates accepts chains that do not evaluate, which the configured \(options.summary) requires"
        case .certificateTransparencyNotEnforceable:
            return "allowInvalidCertificates accepts chains that do not evaluate, which the configured Certificate Transparency logs require"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to change: the policy's pins, or (for evaluation failures) what each failure names.
    public var recoverySuggestion: String? {
        switch self {
        case .domainValidationRequiresPinning, .noPinnedCertificates:
            return "give the policy the certificates to pin (pinnedCertificates)"
        case .evaluationFailed, .pinnedAnchorEvaluationFailed:
            return "each failure names the certificate (0 = leaf) and the rule it broke"
        case .certificateNotPinned, .publicKeyNotPinned, .chainNotEntirelyPinned:
            return
                "if the server's certificates changed legitimately, pin the new ones (keep a backup pin); otherwise this is not the expected server"
        case .optionsNotEnforceable:
            return "set allowInvalidCertificates to false, or do not configure a profile or revocation checking"
        case .certificateTransparencyNotEnforceable:
            return "set allowInvalidCertificates to false, or do not configure Certificate Transparency logs"
        }
    }
}
