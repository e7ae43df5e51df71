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
    /// The default maximum number of intermediates (self-issued ones not counted): none. Apple's trustd
    /// caps no chain's length (`MAX_CHAIN_LENGTH` in SecTrustServer.c is defined but never used); the
    /// evaluation's budget bounds the work (``VerificationBudget/maximumPathLength``, 16 certificates).
    public static let defaultMaximumDepth = Int.max

    /// The validation settings a list of policies stands for, with the reference identities
    /// parsed and prepared for matching. Immutable and shared: copying it is one reference count.
    ///
    /// Every policy must pass (as with `SecTrustSetPolicies`): the purposes and identities of all
    /// policies are required together, and every rule of their profiles applies.
    final class PreparedPolicies: Sendable {
        let rules: ProfileRuleSet
        let purposes: [KeyPurpose]
        let identities: [PreparedIdentity]
        /// The mailboxes of the `.email` policies; the leaf must name every one.
        let emailAddresses: [EmailAddress]
        /// Host names that are neither an IP address nor a valid DNS name, and `.email` addresses that
        /// are not mailboxes, in policy order.
        let invalidHostnames: [String]
        let revocation: RevocationOptions?
        /// Whether Apple's SSL server policy is among them (`.ssl` or `.webPKI` for a server, or a
        /// `.profile` of either for serverAuth): trustd requires Certificate Transparency for it alone.
        let includesSSLServerPolicy: Bool

        init(_ policies: [TrustPolicy]) {
            var rules = ProfileRuleSet()
            var purposes: [KeyPurpose] = []
            var identities: [PreparedIdentity] = []
            var emailAddresses: [EmailAddress] = []
            var invalidHostnames: [String] = []
            var revocation: RevocationOptions?
            var includesSSLServerPolicy = false
            func require(_ purpose: KeyPurpose?, _ hostname: String?) {
                if let purpose, !purposes.contains(purpose) { purposes.append(purpose) }
                guard let hostname else { return }
                if let prepared = PreparedIdentity.forHostname(hostname) {
                    if !identities.contains(where: { $0.identity == prepared.identity }) { identities.append(prepared) }
                } else if !invalidHostnames.contains(hostname) {
                    invalidHostnames.append(hostname)
                }
            }
            for policy in policies {
                if let profile = policy.profile { rules = rules.union(profile.rules) }
                switch policy {
                case let .ssl(server, hostname), let .webPKI(server, hostname):
                    require(server ? .serverAuth : .clientAuth, hostname)
                    includesSSLServerPolicy = includesSSLServerPolicy || server
                case .basicX509:
                    continue
                case let .profile(profile, purpose, hostname):
                    require(purpose, hostname)
                    includesSSLServerPolicy = includesSSLServerPolicy || (purpose == .serverAuth && (profile == .ssl || profile == .webPKI))
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
            self.rules = rules
            self.purposes = purposes
            self.identities = identities
            self.emailAddresses = emailAddresses
            self.invalidHostnames = invalidHostnames
            self.revocation = revocation
            self.includesSSLServerPolicy = includesSSLServerPolicy
        }
    }

    private let state: Mutex<ServerTrustState>
    /// How many evaluations of this trust built paths (``pathBuildCount``).
    private let pathBuilds = Atomic<Int>(0)

    /// Changes the configuration and forgets the last evaluation.
    func update(_ body: (inout ServerTrustState) -> Void) {
        state.withLock { config in
            body(&config)
            Self.changed(&config)
        }
    }

    /// After a change of `config`: the last evaluation is no longer current, and an evaluation of an
    /// earlier snapshot that finishes later is not recorded (the generation moved on).
    private static func changed(_ config: inout ServerTrustState) {
        config.lastEvaluation = nil
        config.generation &+= 1
    }

    /// Whether the CRL and OCSP URLs of a chain that validated to explicit anchors alone (anchors
    /// set with ``setAnchorCertificates(_:)`` and ``anchorsOnly``) may reach loopback, link-local
    /// and private-use addresses in ``evaluate(fetching:within:)`` (through
    /// ``RevocationFetcher/allowingLocalAddresses()``). Default false. The CA signed those URLs and
    /// the peer cannot choose them; caIssuers URLs, which nothing has authenticated when they are
    /// fetched, never get this allowance. TrustSession's `TLSTrustSettings` sets it for clients
    /// verified against explicit anchors (docs/revocation.md, "Local addresses").
    public var revocationFetchesMayReachLocalAddresses: Bool {
        get { state.withLock { $0.revocationFetchesMayReachLocalAddresses } }
        set { set(\.revocationFetchesMayReachLocalAddresses, newValue) }
    }

    /// Sets one configuration field (and forgets the last evaluation). Inlined so that each setter's
    /// literal key path becomes a direct store: a key-path object built and applied at run time costs
    /// far more.
    @inline(__always)
    private func set<Value>(_ field: WritableKeyPath<ServerTrustState, Value>, _ value: Value) {
        update { $0[keyPath: field] = value }
    }

    /// A copy of the state.
    var snapshot: ServerTrustState { state.withLock { $0 } }

    /// Creates a trust object for `certificates` (leaf first, then whatever chain the peer sent)
    /// and `policies` (default: Apple's SSL policy for a server, without a host name), configured by
    /// `configuration` (default: the system trust store, now, the default options).
    public init(
        certificates: [Certificate], policies: [TrustPolicy] = [.ssl(server: true, hostname: nil)],
        configuration: TrustConfiguration = TrustConfiguration()
    ) {
        state = Mutex(ServerTrustState(certificates: certificates, policies: policies, configuration: configuration))
    }

    /// Everything the trust is configured with besides its certificates and policies, as one value:
    /// anchors, intermediates, verify date, options, supplied revocation information. The accessors
    /// below (`SecTrust`'s surface) read and write it.
    public var configuration: TrustConfiguration {
        get { state.withLock { $0.configuration } }
        set { set(\.configuration, newValue) }
    }

    /// The presented certificates, leaf first.
    public var certificates: [Certificate] { state.withLock { $0.certificates } }

    /// The policies checked by `evaluate()` (`SecTrustSetPolicies` / `SecTrustCopyPolicies`); every
    /// one must pass.
    ///
    /// Setting the policies the trust already has keeps its last evaluation current.
    public var policies: [TrustPolicy] {
        get { state.withLock { $0.policies } }
        set {
            state.withLock { config in
                guard config.policies != newValue else { return }
                config.policies = newValue
                Self.changed(&config)
            }
        }
    }

    /// Replaces the trust anchors (`SecTrustSetAnchorCertificates`). Like Apple's call, this turns
    /// ``anchorsOnly`` back on: these become the only anchors until `anchorsOnly` is set to false.
    public func setAnchorCertificates(_ anchors: [Certificate]) {
        update {
            $0.configuration.anchors = anchors; $0.configuration.anchorsOnly = true
        }
    }

    /// The custom anchors, if any were set.
    public var anchorCertificates: [Certificate]? { state.withLock { $0.configuration.anchors } }

    /// Whether only the custom anchors are trusted (`SecTrustSetAnchorCertificatesOnly`); when
    /// false, the system trust store is trusted as well. Default true.
    public var anchorsOnly: Bool {
        get { state.withLock { $0.configuration.anchorsOnly } }
        set { set(\.configuration.anchorsOnly, newValue) }
    }

    /// Extra untrusted intermediates to build paths with (beyond those presented).
    public var additionalIntermediates: [Certificate] {
        get { state.withLock { $0.configuration.additionalIntermediates } }
        set { set(\.configuration.additionalIntermediates, newValue) }
    }

    /// The instant validity is checked at (`SecTrustSetVerifyDate`); nil means now.
    public var verifyDate: Date? {
        get { state.withLock { $0.configuration.verifyDate } }
        set { set(\.configuration.verifyDate, newValue) }
    }

    /// Trusts `logs` for Certificate Transparency (`SecTrustSetTrustedLogs`): CT is then evaluated
    /// on every trusted chain and required where trustd requires it, whatever the list's age
    /// (``TrustConfiguration/certificateTransparencyLogs`` also takes a published list, whose age counts).
    public func setTrustedLogs(_ logs: CTLogList) {
        set(\.configuration.certificateTransparencyLogs, .trustedByCaller(logs))
    }

    /// SCTs the TLS handshake delivered, each one serialized SCT (`SecTrustSetSignedCertificateTimestamps`,
    /// ``TrustConfiguration/signedCertificateTimestamps``).
    public var signedCertificateTimestamps: [[UInt8]] {
        get { state.withLock { $0.configuration.signedCertificateTimestamps } }
        set { set(\.configuration.signedCertificateTimestamps, newValue) }
    }

    /// What every evaluation enforces besides the policies: a profile and revocation checking that no
    /// evaluator, security policy or challenge handler that replaces ``policies`` can drop
    /// (``TrustOptions``).
    public var options: TrustOptions {
        get { state.withLock { $0.configuration.options } }
        set { set(\.configuration.options, newValue) }
    }

    /// The chain built by the last evaluation (`SecTrustCopyCertificateChain`): the last evaluation's
    /// when the configuration has not changed since, else a new evaluation's.
    public func certificateChain() -> [Certificate] { (lastEvaluation ?? evaluate()).chain }

    /// How many times this trust built certification paths: each ``evaluate()``, and each
    /// ``evaluate(policies:)`` that could not reuse the current evaluation. A trusted TLS handshake
    /// judged by an evaluator builds once (docs/transport.md); tests and benchmarks read this.
    package var pathBuildCount: Int { pathBuilds.load(ordering: .relaxed) }

    /// Counts `count` builds made on this trust's behalf by another trust (the fresh trust of a
    /// challenge's default handling), so that ``pathBuildCount`` covers the whole decision.
    package func countPathBuilds(_ count: Int) { pathBuilds.add(count, ordering: .relaxed) }

    /// The leaf's public key info (`SecTrustCopyKey`), or nil when there are no certificates.
    public func publicKey() -> SubjectPublicKeyInfo? { state.withLock { $0.certificates.first?.publicKeyInfo } }

    /// The last evaluation, if the configuration has not changed since.
    public var lastEvaluation: TrustEvaluation? { state.withLock { $0.lastEvaluation } }

    /// Evaluates trust (`SecTrustEvaluateWithError`), throwing when the chain is not trusted.
    @discardableResult
    public func evaluateWithError() throws(TrustEvaluationError) -> TrustEvaluation {
        let evaluation = evaluate()
        guard evaluation.isTrusted else { throw TrustEvaluationError(evaluation: evaluation) }
        return evaluation
    }

    /// Builds and validates a chain under the current configuration.
    ///
    /// Atomic: the evaluation runs on one snapshot of the configuration, and becomes
    /// ``lastEvaluation`` only if no configuration change happened meanwhile.
    public func evaluate() -> TrustEvaluation {
        let (inputs, generation) = state.withLock { (EvaluationSnapshot($0), $0.generation) }
        return evaluate(inputs, generation: generation)
    }

    /// Replaces the policies (`SecTrustSetPolicies`) and evaluates under them, atomically: a
    /// concurrent change of the policies cannot slip between the two, so the evaluation returned
    /// is always one under `policies` (what Alamofire's evaluators do with `SecTrust`).
    ///
    /// When `policies` are the current ones and the last evaluation is still current, that
    /// evaluation is returned without building paths again, as `SecTrustEvaluateWithError` does on
    /// an unchanged trust (`SecTrustEvaluateIfNecessary`): an evaluator judging a trust that the
    /// transport evaluated (or fetched revocation for) under the same policies builds nothing.
    public func evaluate(policies: [TrustPolicy]) -> TrustEvaluation {
        enum Next { case reuse(TrustEvaluation), evaluate(EvaluationSnapshot, UInt64) }
        let next: Next = state.withLock { config in
            if config.policies == policies, let last = config.lastEvaluation { return .reuse(last) }
            config.policies = policies
            Self.changed(&config)
            return .evaluate(EvaluationSnapshot(config), config.generation)
        }
        switch next {
        case let .reuse(evaluation): return evaluation
        case let .evaluate(inputs, generation): return evaluate(inputs, generation: generation)
        }
    }

    /// Evaluates `inputs` (a snapshot taken at `generation`). When the configuration is still the one
    /// the snapshot came from, records the result as the last evaluation, together with the
    /// revocation information fetched for it when `keepingFetched` is given, in one locked step.
    /// `meter` is the budget an earlier step of the same evaluation drew on (the fetching path).
    func evaluate(
        _ inputs: EvaluationSnapshot, generation: UInt64, keepingFetched fetched: RevocationInputs? = nil,
        meter: BudgetMeter? = nil
    ) -> TrustEvaluation {
        let evaluation = TrustEngine.evaluate(inputs, meter: meter)
        pathBuilds.add(1, ordering: .relaxed)
        return record(evaluation, generation: generation, keepingFetched: fetched)
    }

    /// Keeps the intermediates a fetching evaluation of the snapshot taken at `generation` downloaded,
    /// when the configuration is still that snapshot's (they belong to its chain). Not a
    /// configuration change: the evaluations that used them are the ones recorded.
    func keepFetchedIssuers(_ issuers: [FetchedIssuer], failures: [FetchFailure], generation: UInt64) {
        state.withLock { config in
            guard config.generation == generation else { return }
            config.fetchedIssuers = issuers
            config.issuerFetchFailures = failures
        }
    }

    /// Records `evaluation` (of a snapshot taken at `generation`) as the last evaluation, with the
    /// revocation information fetched for it, when the configuration is still that snapshot's.
    /// `evaluation` is consumed: returned as it was stored, not copied a second time.
    func record(
        _ evaluation: consuming TrustEvaluation, generation: UInt64,
        keepingFetched fetched: RevocationInputs? = nil
    ) -> TrustEvaluation {
        state.withLock { config in
            guard config.generation == generation else { return }
            if let fetched { config.fetchedRevocationInputs = fetched }
            config.lastEvaluation = evaluation
        }
        return evaluation
    }
}
