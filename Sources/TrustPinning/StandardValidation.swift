import TrustCore
import TrustX509

/// The `performDefaultValidation` / `validateHost` pair shared by the pinning evaluators, with
/// Alamofire 5's semantics on ``ServerTrust``.
///
/// - Default validation evaluates under `.ssl(server: true, hostname: nil)`: a chain to a trusted
///   anchor, fit for TLS server authentication, with no host-name check.
/// - Host validation evaluates under `.ssl(server: true, hostname: host)`. As in Alamofire (whose
///   host validation applies `SecPolicyCreateSSL(true, host)`), that is a *full* evaluation: the
///   chain is validated too, even when default validation is off.
///
/// A failure is reported as ``ServerTrustFailureReason/defaultEvaluationFailed(host:failures:)``
/// when the chain itself is not trusted (and default validation was asked for), else as
/// ``ServerTrustFailureReason/hostValidationFailed(host:failures:)``.
struct StandardValidation: Hashable, Sendable {
    /// Whether to check the chain without the host name.
    let performDefaultValidation: Bool
    /// Whether to check the chain with the host name.
    let validateHost: Bool

    /// Runs the requested evaluations on `trust`, replacing its policies, and returns the trusted
    /// evaluation they produced (nil when none ran). Each evaluation sets the policies and evaluates
    /// atomically (``ServerTrust/evaluate(policies:)``), so a concurrent evaluator on the same trust
    /// cannot swap the host name out from under this one.
    @discardableResult
    func run(on trust: ServerTrust, forHost host: String) throws(ServerTrustFailureReason) -> TrustEvaluation? {
        if validateHost {
            let withHost = trust.evaluate(policies: [.ssl(server: true, hostname: host)])
            if withHost.isTrusted { return withHost }  // Implies the host-less evaluation passes: it checks a subset.
            if performDefaultValidation {
                let withoutHost = trust.evaluate(policies: [.ssl(server: true, hostname: nil)])
                if !withoutHost.isTrusted { throw .defaultEvaluationFailed(host: host, failures: withoutHost.failures) }
            }
            throw .hostValidationFailed(host: host, failures: withHost.failures)
        }
        if performDefaultValidation {
            let evaluation = trust.evaluate(policies: [.ssl(server: true, hostname: nil)])
            if !evaluation.isTrusted { throw .defaultEvaluationFailed(host: host, failures: evaluation.failures) }
            return evaluation
        }
        return nil
    }
}

extension ServerTrust {
    /// The certificates pins are compared with, as `SecTrustCopyCertificateChain` returns them:
    /// the chain `evaluation` built when it trusted it (so a pinned root the server did not send
    /// matches, and a certificate the server appended outside the chain does not), otherwise the
    /// presented certificates. With no evaluation of its own, an earlier trusted evaluation of the
    /// unchanged configuration counts.
    func certificatesForPinning(_ evaluation: TrustEvaluation?) -> [Certificate] {
        if let evaluation = evaluation ?? lastEvaluation, evaluation.isTrusted { return evaluation.chain }
        return certificates
    }
}
