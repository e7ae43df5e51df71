import Foundation
import Synchronization
import TrustCrypto
import TrustDER
import TrustX509

/// A trust evaluation object modelled on Apple's `SecTrust`: the certificates a peer presented
/// (leaf first), the policies to check, the anchors to trust, and a verify date.
///
/// ```swift
/// let trust = ServerTrust(certificates: presented, policies: [.ssl(server: true, hostname: "www.example.com")])
/// trust.setAnchorCertificates(myRoots)          // replaces the system store (anchorsOnly)
/// let evaluation = trust.evaluate()
/// if !evaluation.isTrusted { print(evaluation) }
/// ```
///
/// Configuration is thread-safe; `evaluate()` may be called from any thread, repeatedly.
public final class ServerTrust: Sendable {
    /// The default maximum number of intermediates (self-issued ones not counted).
    public static let defaultMaximumDepth = 8

    struct Configuration: Sendable {
        var certificates: [Certificate]
        /// The policies; every change re-derives ``preparedPolicies``.
        var policies: [TrustPolicy] { didSet { preparedPolicies = PreparedPolicies(policies) } }
        /// What `policies` ask for, derived once per change rather than once per evaluation.
        private(set) var preparedPolicies: PreparedPolicies
        var anchors: CertificateStore?
        var anchorsOnly = true
        var additionalIntermediates: [Certificate] = []
        var verifyDate: Date?
        var maximumDepth = ServerTrust.defaultMaximumDepth
        var signaturePolicy = SignaturePolicy.default
        var budget = PathBuildingBudget.default
        var requiredLeafKeyUsage: KeyUsage = []
        var additionalPurposes: [KeyPurpose] = []
        var allowsCommonNameFallback = false
        var publicSuffixList = PublicSuffixList.snapshot
        var revocationInputs = RevocationInputs()
        var fetchedRevocationInputs = RevocationInputs()
        var lastEvaluation: TrustEvaluation?

        init(certificates: [Certificate], policies: [TrustPolicy]) {
            self.certificates = certificates
            self.policies = policies
            preparedPolicies = PreparedPolicies(policies)
        }
    }

    /// The validation settings a list of policies stands for, with the reference identity
    /// parsed and prepared for matching. Immutable and shared: copying it is one reference count.
    final class PreparedPolicies: Sendable {
        let webPKIProfile: Bool
        let purpose: KeyPurpose?
        let identity: PreparedIdentity?
        /// The mailboxes of the `.email` policies; the leaf must name every one.
        let emailAddresses: [EmailAddress]
        /// Host names that are neither an IP address nor a valid DNS name, and `.email` addresses that
        /// are not mailboxes, in policy order.
        let invalidHostnames: [String]
        let revocation: RevocationOptions?

        init(_ policies: [TrustPolicy]) {
            var webPKIProfile = false
            var purpose: KeyPurpose?
            var identity: PreparedIdentity?
            var emailAddresses: [EmailAddress] = []
            var invalidHostnames: [String] = []
            var revocation: RevocationOptions?
            for policy in policies {
                switch policy {
                case let .ssl(server, hostname):
                    webPKIProfile = true
                    purpose = server ? .serverAuth : .clientAuth
                    if let hostname {
                        if let prepared = PreparedIdentity.forHostname(hostname) {
                            identity = prepared
                        } else {
                            invalidHostnames.append(hostname)
                        }
                    }
                case .basicX509:
                    continue
                case let .email(text):
                    if let address = EmailAddress(text) {
                        emailAddresses.append(address)
                    } else {
                        invalidHostnames.append(text)
                    }
                case let .revocation(flags):
                    revocation = (revocation ?? []).union(flags)
                }
            }
            self.webPKIProfile = webPKIProfile
            self.purpose = purpose
            self.identity = identity
            self.emailAddresses = emailAddresses
            self.invalidHostnames = invalidHostnames
            self.revocation = revocation
        }
    }

    /// What one evaluation reads from the configuration, copied under the lock (a full copy of
    /// the configuration would retain and release every field of it on each evaluation).
    struct EvaluationInputs {
        let certificates: [Certificate]
        let policies: PreparedPolicies
        let anchors: CertificateStore?
        let anchorsOnly: Bool
        let additionalIntermediates: [Certificate]
        let verifyDate: Date?
        let maximumDepth: Int
        let signaturePolicy: SignaturePolicy
        let budget: PathBuildingBudget
        let requiredLeafKeyUsage: KeyUsage
        let allowsCommonNameFallback: Bool
        let publicSuffixList: PublicSuffixList
        /// Supplied and fetched revocation inputs together; empty unless a revocation policy is in force.
        let revocationInputs: RevocationInputs

        init(_ config: borrowing Configuration) {
            certificates = config.certificates
            policies = config.preparedPolicies
            anchors = config.anchors
            anchorsOnly = config.anchorsOnly
            additionalIntermediates = config.additionalIntermediates
            verifyDate = config.verifyDate
            maximumDepth = config.maximumDepth
            signaturePolicy = config.signaturePolicy
            budget = config.budget
            requiredLeafKeyUsage = config.requiredLeafKeyUsage
            allowsCommonNameFallback = config.allowsCommonNameFallback
            publicSuffixList = config.publicSuffixList
            if config.preparedPolicies.revocation != nil {
                revocationInputs = RevocationInputs(
                    crls: config.revocationInputs.crls + config.fetchedRevocationInputs.crls,
                    ocspResponses: config.revocationInputs.ocspResponses + config.fetchedRevocationInputs.ocspResponses)
            } else {
                revocationInputs = RevocationInputs()
            }
        }
    }

    private let configuration: Mutex<Configuration>

    /// Changes the configuration and forgets the last evaluation.
    func update(_ body: (inout Configuration) -> Void) {
        configuration.withLock { config in
            body(&config)
            config.lastEvaluation = nil
        }
    }

    /// A copy of the configuration.
    var snapshot: Configuration { configuration.withLock { $0 } }

    /// Creates a trust object for `certificates` (leaf first, then whatever chain the peer sent)
    /// and `policies` (default: a TLS server policy without a host name).
    public init(certificates: [Certificate], policies: [TrustPolicy] = [.ssl(server: true, hostname: nil)]) {
        configuration = Mutex(Configuration(certificates: certificates, policies: policies))
    }

    /// The presented certificates, leaf first.
    public var certificates: [Certificate] { configuration.withLock { $0.certificates } }

    /// The policies checked by `evaluate()` (`SecTrustSetPolicies` / `SecTrustCopyPolicies`).
    public var policies: [TrustPolicy] {
        get { configuration.withLock { $0.policies } }
        set { configuration.withLock { $0.policies = newValue; $0.lastEvaluation = nil } }
    }

    /// Replaces the trust anchors (`SecTrustSetAnchorCertificates`). Like Apple's call, this turns
    /// ``anchorsOnly`` back on: these become the only anchors until `anchorsOnly` is set to false.
    public func setAnchorCertificates(_ anchors: [Certificate]) {
        configuration.withLock { $0.anchors = CertificateStore(anchors); $0.anchorsOnly = true; $0.lastEvaluation = nil }
    }

    /// The custom anchors, if any were set.
    public var anchorCertificates: [Certificate]? { configuration.withLock { $0.anchors?.certificates } }

    /// Whether only the custom anchors are trusted (`SecTrustSetAnchorCertificatesOnly`); when
    /// false, the system trust store is trusted as well. Default true.
    public var anchorsOnly: Bool {
        get { configuration.withLock { $0.anchorsOnly } }
        set { configuration.withLock { $0.anchorsOnly = newValue; $0.lastEvaluation = nil } }
    }

    /// Extra untrusted intermediates to build paths with (beyond those presented).
    public var additionalIntermediates: [Certificate] {
        get { configuration.withLock { $0.additionalIntermediates } }
        set { configuration.withLock { $0.additionalIntermediates = newValue; $0.lastEvaluation = nil } }
    }

    /// The instant validity is checked at (`SecTrustSetVerifyDate`); nil means now.
    public var verifyDate: Date? {
        get { configuration.withLock { $0.verifyDate } }
        set { configuration.withLock { $0.verifyDate = newValue; $0.lastEvaluation = nil } }
    }

    /// The most intermediate CAs between leaf and anchor (self-issued ones not counted).
    public var maximumDepth: Int {
        get { configuration.withLock { $0.maximumDepth } }
        set { configuration.withLock { $0.maximumDepth = max(0, newValue); $0.lastEvaluation = nil } }
    }

    /// Which signature algorithms and key sizes are accepted (default: no SHA-1, RSA ≥ 2048).
    public var signaturePolicy: SignaturePolicy {
        get { configuration.withLock { $0.signaturePolicy } }
        set { configuration.withLock { $0.signaturePolicy = newValue; $0.lastEvaluation = nil } }
    }

    /// Limits on path-building work.
    public var pathBuildingBudget: PathBuildingBudget {
        get { configuration.withLock { $0.budget } }
        set { configuration.withLock { $0.budget = newValue; $0.lastEvaluation = nil } }
    }

    /// Key usages the leaf must assert when it carries a keyUsage extension.
    public var requiredLeafKeyUsage: KeyUsage {
        get { configuration.withLock { $0.requiredLeafKeyUsage } }
        set { configuration.withLock { $0.requiredLeafKeyUsage = newValue; $0.lastEvaluation = nil } }
    }

    /// Whether a DNS host name may match the subject common name of a leaf without SANs (legacy, off).
    public var allowsCommonNameFallback: Bool {
        get { configuration.withLock { $0.allowsCommonNameFallback } }
        set { configuration.withLock { $0.allowsCommonNameFallback = newValue; $0.lastEvaluation = nil } }
    }

    /// Which domains are public suffixes, so that a wildcard `dNSName` spanning one (`*.co.uk`) never
    /// matches the host. Default: ``PublicSuffixList/snapshot`` (the shipped copy, ICANN section);
    /// set a list loaded with ``PublicSuffixList/init(contentsOf:consultedSections:)`` to use a newer
    /// copy, or one consulting the private section too.
    public var publicSuffixList: PublicSuffixList {
        get { configuration.withLock { $0.publicSuffixList } }
        set { configuration.withLock { $0.publicSuffixList = newValue; $0.lastEvaluation = nil } }
    }

    /// The chain built by the last evaluation (`SecTrustCopyCertificateChain`), evaluating if needed.
    public func certificateChain() -> [Certificate] { evaluate().chain }

    /// The leaf's public key info (`SecTrustCopyKey`), or nil when there are no certificates.
    public func publicKey() -> SubjectPublicKeyInfo? { configuration.withLock { $0.certificates.first?.publicKeyInfo } }

    /// The last evaluation, if the configuration has not changed since.
    public var lastEvaluation: TrustEvaluation? { configuration.withLock { $0.lastEvaluation } }

    /// Evaluates trust (`SecTrustEvaluateWithError`), throwing when the chain is not trusted.
    @discardableResult
    public func evaluateWithError() throws(TrustEvaluationError) -> TrustEvaluation {
        let evaluation = evaluate()
        guard evaluation.isTrusted else { throw TrustEvaluationError(evaluation: evaluation) }
        return evaluation
    }

    /// Builds and validates a chain under the current configuration.
    public func evaluate() -> TrustEvaluation {
        let inputs = configuration.withLock { EvaluationInputs($0) }
        let evaluation = ServerTrust.evaluate(inputs)
        configuration.withLock { $0.lastEvaluation = evaluation }
        return evaluation
    }

    static func evaluate(_ config: EvaluationInputs) -> TrustEvaluation {
        func failed(_ failures: [TrustFailure], chain: [Certificate] = [], anchored: Bool = false,
                    attempts: [PathAttempt] = [], checks: Int = 0) -> TrustEvaluation {
            let fatal = failures.contains { $0.reason.severity == .fatal }
            return TrustEvaluation(result: fatal ? .fatalTrustFailure : .recoverableTrustFailure, chain: chain,
                                   endsAtAnchor: anchored, failures: failures, attempts: attempts, signatureChecks: checks)
        }
        guard let leaf = config.certificates.first else {
            return failed([TrustFailure(.noCertificates, certificate: nil, index: nil)])
        }

        // Policies → validation options.
        let date = config.verifyDate ?? Date()
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        guard let time = DERTime(secondsSince1970: seconds) else {
            return failed([TrustFailure(.malformed("verify date out of range"), certificate: nil, index: nil)])
        }
        let prepared = config.policies
        var options = ValidationOptions(verifyTime: time, purpose: prepared.purpose, identity: prepared.identity?.identity,
                                        webPKIProfile: prepared.webPKIProfile, signaturePolicy: config.signaturePolicy,
                                        requiredLeafKeyUsage: config.requiredLeafKeyUsage,
                                        allowsCommonNameFallback: config.allowsCommonNameFallback)
        options.revocation = prepared.revocation
        options.emailAddresses = prepared.emailAddresses
        options.publicSuffixList = config.publicSuffixList
        let preFailures = prepared.invalidHostnames.map {
            TrustFailure(.invalidReferenceIdentity($0), certificate: leaf, index: 0)
        }

        // Anchors: custom ones (plus the system store unless anchorsOnly), else the system store.
        var anchors: CertificateStore
        if let custom = config.anchors {
            anchors = custom
            if !config.anchorsOnly {
                for certificate in SystemTrustStore.shared.store.certificates { anchors.insert(certificate) }
            }
        } else {
            anchors = SystemTrustStore.shared.store
        }
        var intermediates = CertificateStore()
        for certificate in config.certificates.dropFirst() { intermediates.insert(certificate) }
        for certificate in config.additionalIntermediates { intermediates.insert(certificate) }

        let signatures = SignatureChecker(policy: config.signaturePolicy)
        let validator = PathValidator(options: options, signatures: signatures, identity: prepared.identity)
        validator.revocationInputs = config.revocationInputs
        var builder = PathBuilder(anchors: anchors, intermediates: intermediates, maximumIntermediates: config.maximumDepth,
                                  budget: config.budget, validator: validator)
        let result = builder.build(from: leaf)

        func statuses(_ chain: [Certificate], anchored: Bool) -> [CertificateRevocationStatus] {
            guard anchored else { return [] }
            return validator.revocation(of: chain)?.statuses ?? []
        }
        if let chain = result.validChain, preFailures.isEmpty {
            var evaluation = TrustEvaluation(result: .unspecified, chain: chain, endsAtAnchor: true, failures: [], attempts: result.attempts,
                                             signatureChecks: signatures.verificationCount)
            evaluation.revocationStatuses = statuses(chain, anchored: true)
            return evaluation
        }
        var failures = preFailures
        var chain = result.validChain ?? []
        var anchored = result.validChain != nil
        if result.validChain == nil, let best = result.bestFailedAttempt {
            anchored = best.outcome == .invalid
            chain = best.outcome == .rejectedIssuer ? Array(best.chain.dropLast()) : best.chain
            failures.append(contentsOf: best.failures)
            if best.outcome == .rejectedIssuer { failures.append(contentsOf: validator.validate(chain, isComplete: false)) }
        }
        if result.budgetExhausted, !failures.contains(where: { if case .budgetExhausted = $0.reason { true } else { false } }) {
            failures.append(TrustFailure(.budgetExhausted("\(result.signatureChecks) signature checks, \(result.attempts.count) paths"),
                                         certificate: nil, index: nil))
        }
        if failures.isEmpty { failures.append(TrustFailure(.untrustedRoot, certificate: leaf, index: 0)) }
        var evaluation = failed(failures, chain: chain, anchored: anchored, attempts: result.attempts, checks: signatures.verificationCount)
        evaluation.revocationStatuses = statuses(chain, anchored: anchored)
        return evaluation
    }
}
