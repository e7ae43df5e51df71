import Foundation
import TrustCore
import TrustX509

/// Judges a server for one ``DomainPinningPolicy``: chain and host validation (always enforced,
/// against the policy's anchors when it has any), then the pins, enforced or only reported.
///
/// ``ServerTrustManager/init(configuration:allHostsMustBeEvaluated:)`` builds one per
/// configured domain.
public struct ConfiguredPinningTrustEvaluator: ServerTrustEvaluating {
    /// The policy applied.
    public let policy: DomainPinningPolicy

    /// Creates the evaluator.
    public init(policy: DomainPinningPolicy) {
        self.policy = policy
    }

    /// Evaluates without a port.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try evaluate(trust, forHost: host, port: nil)
    }

    /// Configures the policy's anchors on `trust`, validates the chain for `host`, then checks the pins.
    ///
    /// - Throws: ``ServerTrustFailureReason/defaultEvaluationFailed(host:failures:)`` or
    ///   ``ServerTrustFailureReason/hostValidationFailed(host:failures:)`` when the chain is not
    ///   trusted for the host (in either mode), and ``ServerTrustFailureReason/pinSetMismatch(host:domain:unsatisfied:presented:)``
    ///   when an enforced pin requirement is not matched.
    public func evaluate(_ trust: ServerTrust, forHost host: String, port: Int?) throws {
        if let anchors = policy.trustAnchors {
            trust.setAnchorCertificates(anchors.allCertificates)
            trust.anchorsOnly = !anchors.includesSystemStore
        }
        let validation = StandardValidation(performDefaultValidation: true, validateHost: true)
        let evaluation = try validation.run(on: trust, forHost: host)
        let chain = trust.certificatesForPinning(evaluation)
        let check = PinSetCheck(policy: policy, chain: chain, at: trust.verifyDate ?? Date())
        guard check.outcome == .unsatisfied else { return }
        guard policy.enforcement == .enforce else { return }
        throw ServerTrustFailureReason.pinSetMismatch(
            host: host, domain: policy.domain, unsatisfied: check.unsatisfiedRequirements,
            presented: chain.map(PinDescription.publicKey))
    }
}
