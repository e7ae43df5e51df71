import TrustCore
import TrustX509

/// AFNetworking's `AFSecurityPolicy` on ``ServerTrust``, reproducing AFNetworking 3 and 4.
///
/// ``evaluate(_:forDomain:)`` follows `-evaluateServerTrust:forDomain:` step by step:
///
/// 1. With a domain, `allowInvalidCertificates` and `validatesDomainName`, but pinning mode
///    `.none` or no pinned certificates: `false` (a domain cannot be validated against
///    certificates nobody vouches for).
/// 2. The trust's policies become `.ssl(server: true, hostname: domain)` when
///    `validatesDomainName`, else `.basicX509`.
/// 3. `.none`: `true` when `allowInvalidCertificates`, else when the trust evaluates.
/// 4. Otherwise, unless `allowInvalidCertificates`, the trust must evaluate with its own anchors.
/// 5. `.certificate`: the pinned certificates become the only anchors; the trust must evaluate,
///    and some certificate of the built chain must be pinned.
///    `.publicKey`: some certificate's key must be among the pinned certificates' keys; the
///    certificates are the chain the evaluation built under the policy of step 2, trusted or not
///    (`AFPublicKeyTrustChainForServerTrust` starts with `SecTrustGetCertificateCount`, which
///    evaluates on demand), never certificates the server appended outside it.
///
/// **AFNetworking 2.x** differed: its `validatesCertificateChain` (default `YES`) required *every*
/// certificate of the chain to be pinned (every key, in public-key mode), so pinning only the leaf
/// or only the root failed. Set ``requiresEntireChainPinned`` for that behaviour.
/// (2.x with `validatesCertificateChain = NO` compared only the leaf key in public-key mode; that
/// is not reproduced.)
///
/// Like AFNetworking, evaluation reconfigures the trust (policies, and anchors in certificate mode).
///
/// ```swift
/// var policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: pinned)
/// policy.allowInvalidCertificates = true       // self-signed server, trusted through the pin
/// if policy.evaluate(trust, forDomain: "api.example.com") { … }
/// ```
public struct SecurityPolicy: Sendable {
    /// What is pinned (`AFSSLPinningMode`).
    public enum PinningMode: String, Hashable, Sendable, CaseIterable {
        /// No pinning: default evaluation only (`AFSSLPinningModeNone`).
        case none
        /// The public keys of the pinned certificates (`AFSSLPinningModePublicKey`).
        case publicKey
        /// The pinned certificates themselves (`AFSSLPinningModeCertificate`).
        case certificate
    }

    /// What is pinned.
    public var pinningMode: PinningMode
    /// The pinned certificates, without duplicates (AFNetworking keeps a set).
    public var pinnedCertificates: [Certificate] {
        get { storedCertificates }
        set { storedCertificates = newValue.uniqued() }
    }
    /// Whether invalid certificates (expired, untrusted root, wrong host) may pass. Default false.
    public var allowInvalidCertificates = false
    /// Whether the domain must match the leaf. Default true.
    public var validatesDomainName = true
    /// AFNetworking 2.x `validatesCertificateChain`: every certificate of the chain must be pinned
    /// (every key, in public-key mode). Default false, as in AFNetworking 3 and 4.
    public var requiresEntireChainPinned = false

    private var storedCertificates: [Certificate]

    /// The pinned certificates' public keys (`pinnedPublicKeys`).
    public var pinnedPublicKeys: [SubjectPublicKeyInfo] { storedCertificates.publicKeys }

    /// Creates a policy (`+policyWithPinningMode:withPinnedCertificates:`).
    public init(pinningMode: PinningMode = .none, pinnedCertificates: [Certificate] = []) {
        self.pinningMode = pinningMode
        storedCertificates = pinnedCertificates.uniqued()
    }

    /// No pinning, invalid certificates rejected, domain validated (`+defaultPolicy`).
    public static var `default`: SecurityPolicy { SecurityPolicy() }

    /// Whether the trust is acceptable for `domain` (`-evaluateServerTrust:forDomain:`).
    /// ``evaluateWithError(_:forDomain:)`` says why not.
    public func evaluate(_ trust: ServerTrust, forDomain domain: String?) -> Bool {
        do {
            try evaluateWithError(trust, forDomain: domain)
            return true
        } catch {
            return false
        }
    }

    /// Like ``evaluate(_:forDomain:)``, throwing the reason instead of returning false.
    public func evaluateWithError(_ trust: ServerTrust, forDomain domain: String?) throws(SecurityPolicyFailure) {
        if let domain, allowInvalidCertificates, validatesDomainName, pinningMode == .none || storedCertificates.isEmpty {
            throw .domainValidationRequiresPinning(domain: domain)
        }
        // A profile, revocation or Certificate Transparency configured on the trust is enforced by
        // evaluation only.
        let configuration = trust.configuration
        if acceptsWithoutEvaluating, configuration.requiresEvaluation, !trust.hasTrustedEvaluationEnforcing(configuration) {
            if configuration.options.requiresEvaluation { throw .optionsNotEnforceable(options: configuration.options) }
            throw .certificateTransparencyNotEnforceable
        }
        // Each evaluation sets these policies and evaluates in one step (`evaluate(policies:)`), so a
        // concurrent evaluator on the same trust cannot change what is checked in between.
        let policies: [TrustPolicy] = validatesDomainName ? [.ssl(server: true, hostname: domain)] : [.basicX509]
        trust.policies = policies

        if pinningMode == .none {
            if allowInvalidCertificates { return }
            try requireTrusted(trust.evaluate(policies: policies), else: SecurityPolicyFailure.evaluationFailed)
            return
        }
        var evaluation: TrustEvaluation?
        if !allowInvalidCertificates {
            let validated = trust.evaluate(policies: policies)
            try requireTrusted(validated, else: SecurityPolicyFailure.evaluationFailed)
            evaluation = validated
        }
        guard !storedCertificates.isEmpty else { throw .noPinnedCertificates }
        switch pinningMode {
        case .none:
            return
        case .certificate:
            try checkCertificatePins(trust, policies: policies)
        case .publicKey:
            try checkPublicKeyPins(trust, evaluation: evaluation)
        }
    }

    private func requireTrusted(
        _ evaluation: TrustEvaluation,
        else failure: ([TrustFailure]) -> SecurityPolicyFailure
    ) throws(SecurityPolicyFailure) {
        if !evaluation.isTrusted { throw failure(evaluation.failures) }
    }

    private func checkCertificatePins(_ trust: ServerTrust, policies: [TrustPolicy]) throws(SecurityPolicyFailure) {
        trust.setAnchorCertificates(storedCertificates)
        trust.anchorsOnly = true // SecTrustSetAnchorCertificates alone trusts only these anchors.
        let evaluation = trust.evaluate(policies: policies)
        try requireTrusted(evaluation, else: SecurityPolicyFailure.pinnedAnchorEvaluationFailed)
        let pinned = Set(storedCertificates)
        if requiresEntireChainPinned {
            let unpinned = evaluation.chain.filter { !pinned.contains($0) }
            if !unpinned.isEmpty { throw .chainNotEntirelyPinned(unpinned: unpinned.map(PinDescription.certificate)) }
        } else if !evaluation.chain.contains(where: pinned.contains) {
            throw .certificateNotPinned(
                pinned: storedCertificates.map(PinDescription.certificate),
                chain: evaluation.chain.map(PinDescription.certificate))
        }
    }

    private func checkPublicKeyPins(_ trust: ServerTrust, evaluation: TrustEvaluation?) throws(SecurityPolicyFailure) {
        let server = trust.certificatesForPinning(evaluation)
        let pinned = Set(pinnedPublicKeys)
        if requiresEntireChainPinned {
            let unpinned = server.filter { !pinned.contains($0.publicKeyInfo) }
            if !unpinned.isEmpty { throw .chainNotEntirelyPinned(unpinned: unpinned.map(PinDescription.publicKey)) }
        } else if !server.contains(where: { pinned.contains($0.publicKeyInfo) }) {
            throw .publicKeyNotPinned(
                pinned: storedCertificates.map(PinDescription.publicKey),
                presented: server.map(PinDescription.publicKey))
        }
    }
}
