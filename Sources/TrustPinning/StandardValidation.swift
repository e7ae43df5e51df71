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
/// A failure is reported as ``ServerTrustFailureReason/trustEvaluationFailed(host:stage:failures:)``,
/// Alamofire's one reason for a failed evaluation, at stage
/// ``TrustEvaluationStage/defaultValidation`` when the chain itself is not trusted (and default
/// validation was asked for), else at ``TrustEvaluationStage/hostValidation``.
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
            if withHost.isTrusted { return withHost } // Implies the host-less evaluation passes: it checks a subset.
            if performDefaultValidation {
                let withoutHost = trust.evaluate(policies: [.ssl(server: true, hostname: nil)])
                if !withoutHost.isTrusted { throw .trustEvaluationFailed(host: host, stage: .defaultValidation, failures: withoutHost.failures) }
            }
            throw .trustEvaluationFailed(host: host, stage: .hostValidation, failures: withHost.failures)
        }
        if performDefaultValidation {
            let evaluation = trust.evaluate(policies: [.ssl(server: true, hostname: nil)])
            if !evaluation.isTrusted { throw .trustEvaluationFailed(host: host, stage: .defaultValidation, failures: evaluation.failures) }
            return evaluation
        }
        return nil
    }
}

extension ServerTrust {
    /// The certificates pins are compared with: the chain an evaluation built, trusted or not, as
    /// Alamofire's `trust.af.certificates` and AFNetworking's chain loops read it
    /// (`SecTrustCopyCertificateChain` and `SecTrustGetCertificateCount` evaluate on demand and
    /// return trustd's best path even when it is untrusted). That is `evaluation`'s chain, else the
    /// last evaluation's of the unchanged configuration, else a new evaluation's under the trust's
    /// current policies (when default and host validation are both off).
    ///
    /// Never the presented list: a certificate enters a built chain only through a verified
    /// signature (each key above the leaf signed the certificate below it; the leaf's key is proven
    /// by the handshake), so a certificate the server merely appended, such as a public pinned CA a
    /// man in the middle adds to his own chain, does not match. A pinned root the server did not
    /// send matches when the trust's anchors hold it.
    func certificatesForPinning(_ evaluation: TrustEvaluation?) -> [Certificate] {
        (evaluation ?? lastEvaluation ?? evaluate()).chain
    }
}
