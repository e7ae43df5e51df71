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

    /// Runs the requested evaluations on `trust`, replacing its policies.
    func run(on trust: ServerTrust, forHost host: String) throws(ServerTrustFailureReason) {
        if validateHost {
            let withHost = trust.evaluate(applying: [.ssl(server: true, hostname: host)])
            if withHost.isTrusted { return }  // Implies the host-less evaluation passes: it checks a subset.
            if performDefaultValidation {
                let withoutHost = trust.evaluate(applying: [.ssl(server: true, hostname: nil)])
                if !withoutHost.isTrusted { throw .defaultEvaluationFailed(host: host, failures: withoutHost.failures) }
            }
            throw .hostValidationFailed(host: host, failures: withHost.failures)
        }
        if performDefaultValidation {
            let evaluation = trust.evaluate(applying: [.ssl(server: true, hostname: nil)])
            if !evaluation.isTrusted { throw .defaultEvaluationFailed(host: host, failures: evaluation.failures) }
        }
    }
}

extension ServerTrust {
    /// Replaces the policies (`SecTrustSetPolicies`) and evaluates.
    func evaluate(applying policies: [TrustPolicy]) -> TrustEvaluation {
        self.policies = policies
        return evaluate()
    }

    /// The certificates pins are compared with, as `SecTrustCopyCertificateChain` returns them:
    /// the built chain when the last evaluation trusted it (so a pinned root the server did not
    /// send matches, and a certificate the server appended outside the chain does not), otherwise
    /// the presented certificates.
    var certificatesForPinning: [Certificate] {
        if let evaluation = lastEvaluation, evaluation.isTrusted { return evaluation.chain }
        return certificates
    }
}
