import Foundation
import TrustCore
import TrustX509

/// Judges a server for one ``DomainPinningPolicy``: chain and host validation (always enforced,
/// against the policy's anchors when it has any), then the pins, enforced or only reported.
///
/// ``ServerTrustManager/init(configuration:reporter:allHostsMustBeEvaluated:)`` builds one per
/// configured domain.
public struct ConfiguredPinningTrustEvaluator: ServerTrustEvaluating {
    /// The policy applied.
    public let policy: DomainPinningPolicy
    /// Where pin mismatches are reported (in both modes), if anywhere.
    public let reporter: PinningReporter?

    /// Creates the evaluator.
    ///
    /// - Parameters:
    ///   - policy: The domain's policy.
    ///   - reporter: Receives a report (TrustKit's format, result ``PinValidationResult/failed``)
    ///     for each pin mismatch while the pins apply, addressed to the policy's report URIs.
    ///     Chains that do not validate are not reported: that is not a pinning failure, and there
    ///     is no validated chain to report (TrustKit does the same).
    public init(policy: DomainPinningPolicy, reporter: PinningReporter? = nil) {
        self.policy = policy
        self.reporter = reporter
    }

    /// Evaluates without a port.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try evaluate(trust, forHost: host, port: nil)
    }

    /// Configures the policy's anchors on `trust`, validates the chain for `host`, then checks the pins.
    ///
    /// - Throws: ``ServerTrustFailureReason/trustEvaluationFailed(host:stage:failures:)`` when the chain is not
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
        let date = trust.verifyDate ?? Date()
        let check = PinSetCheck(policy: policy, chain: chain, at: date)
        guard check.outcome == .unsatisfied else { return }
        reporter?.report(
            PinValidationReport(
                hostname: host, port: port ?? 0, notedHostname: policy.domain, includeSubdomains: policy.subdomains.includesSubdomains,
                enforcePinning: policy.enforcement == .enforce, validatedChain: chain, knownPins: policy.allPins, result: .failed,
                date: Date(), identity: reporter?.identity ?? PinReportingIdentity(), knownPinsExpirationDate: policy.expirationDate),
            to: policy.reportURIs)
        guard policy.enforcement == .enforce else { return }
        throw ServerTrustFailureReason.pinSetMismatch(
            host: host, domain: policy.domain, unsatisfied: check.unsatisfiedRequirements,
            presented: chain.map(PinDescription.publicKey))
    }
}
