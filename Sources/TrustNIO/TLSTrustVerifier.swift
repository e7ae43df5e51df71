import Logging
import NIOCore
import NIOSSL
import TrustCore
import TrustPinning
import TrustSession
import TrustX509

/// swift-nio-ssl's `NIOSSLCustomVerificationCallbackWithMetadata`, `@Sendable` as gRPC Swift 2's
/// `customVerificationCallback` requires.
public typealias TLSTrustVerificationCallback =
    @Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResultWithMetadata>) -> Void

/// Verifies a TLS peer's certificates with SwiftTrust instead of BoringSSL: the bridge between
/// TrustSession's `TLSTrustDecider` (`TLSTrustSettings` + `TLSTrustJudge`) and swift-nio-ssl's
/// `NIOSSLCustomVerificationCallbackWithMetadata`.
///
/// For each handshake the callback parses the presented certificates from their DER once, builds a
/// `ServerTrust` for the peer's role (a server for the host connected to, which is the SNI name;
/// or a client, for mutual TLS), lets the judge decide, and completes swift-nio-ssl's promise:
/// with the validated chain as metadata on success (`NIOSSLHandler.peerValidatedCertificateChain`),
/// with `.failed` otherwise.
///
/// **How the caller learns why.** swift-nio-ssl reports a rejected certificate only as a TLS alert
/// and `NIOSSLError.handshakeFailed`. The typed reason (`TLSTrustFailure`) is delivered twice:
/// - as the error in the pipeline: the ``TLSPeerTrustHandler`` that the convenience constructors
///   place behind the TLS handler replaces swift-nio-ssl's handshake error with a
///   ``TLSTrustError`` wrapping the reason (and the original error), so `errorCaught` of the
///   application's handlers and a failed `connect` future see it;
/// - on the connection's result handle, `TLSPeerTrustRecord` (`TLSTrustOutcome`), which also
///   holds the accepted peer's identity (`TrustedPeer`) after success.
///
/// Evaluations that may fetch revocation information run off the event loop and complete the
/// promise later; offline ones run inline (see `TLSVerificationExecution`).
///
/// **Logging.** Given a swift-log `Logger`, the verifier logs every verification it makes: a
/// trusted peer at `debug` level, a rejected one at `info` level with the reason, under the
/// metadata keys of ``TrustLogMetadataKey`` (`swifttrust.verdict`, `swifttrust.host`,
/// `swifttrust.reason`, …). Without one (the default) it logs nothing and builds no log text.
///
/// **Metrics.** Every verdict is counted and timed through swift-metrics, and the fetches of its
/// revocation fetcher counted (``TLSTrustMetrics`` lists the metrics): into the application's
/// bootstrapped `MetricsSystem` by default (``TLSTrustMetrics/standard``), into a factory of your own
/// (``TLSTrustMetrics/init(factory:)``), or nowhere (``TLSTrustMetrics/disabled``).
///
/// ```swift
/// let verifier = try TLSTrustVerifier(evaluator: ServerTrustManager(evaluators: [
///     "api.example.com": try PinnedSPKIHashesTrustEvaluator(pins: pins),
/// ]))
/// let (tls, trust) = try verifier.makeClientHandlers(context: sslContext, host: "api.example.com")
/// ```
public struct TLSTrustVerifier: Sendable {
    /// The one decision entry point (TrustSession): inline or pending decisions, and resumed
    /// sessions' chains.
    public let handshakes: TLSHandshakeDecider
    /// The transport-independent decision: settings, judge, and the check that an acceptance
    /// enforced the settings' options.
    public var decider: TLSTrustDecider { handshakes.decider }
    /// How each connection's trust is configured.
    public var settings: TLSTrustSettings { decider.settings }
    /// Who decides.
    public var judge: TLSTrustJudge { decider.judge }
    /// Where the verification runs.
    public var execution: TLSVerificationExecution { handshakes.execution }
    /// Where verdicts are logged (trusted at `debug`, rejected at `info`); nil logs nothing.
    public let logger: Logger?
    /// Where verdicts, their durations, fetches and peers' expiries are recorded.
    public let metrics: TLSTrustMetrics
    /// The anchors as swift-nio-ssl certificates, converted once, for the validated-chain metadata.
    private let anchorHandles: [Certificate: NIOSSLCertificate]

    /// Creates a verifier, refusing a judge that cannot enforce the settings.
    ///
    /// - Throws: `TLSTrustConfigurationError.judgeSkipsEvaluation(judge:options:)` when `judge`
    ///   accepts without evaluating while `settings` ask for a profile or revocation checking.
    /// - Parameters:
    ///   - settings: Anchors, intermediates, date, profile and revocation of every connection's trust.
    ///   - judge: Who decides. Default: a plain evaluation under `settings`.
    ///   - execution: Where verification runs. Default: `TLSVerificationExecution.automatic`.
    ///   - logger: Where each verdict is logged (``TrustLogMetadataKey`` lists the metadata).
    ///     Default: nil, no logging.
    ///   - metrics: Where verdicts and fetches are recorded; the settings' revocation fetcher is
    ///     wrapped to count its fetches (``TLSTrustMetrics/meteredFetcher(_:)``; the settings' cache
    ///     stays as it is). Default:
    ///     ``TLSTrustMetrics/standard``, the global `MetricsSystem` (a no-op until bootstrapped).
    public init(
        settings: TLSTrustSettings = TLSTrustSettings(), judge: TLSTrustJudge = .evaluate,
        execution: TLSVerificationExecution = .automatic, logger: Logger? = nil,
        metrics: TLSTrustMetrics = .standard
    ) throws(TLSTrustConfigurationError) {
        var settings = settings
        if metrics.isEnabled { settings.revocationFetching.fetcher = metrics.meteredFetcher(settings.revocationFetching.fetcher) }
        handshakes = TLSHandshakeDecider(decider: try TLSTrustDecider(settings: settings, judge: judge), execution: execution)
        self.logger = logger
        self.metrics = metrics
        var handles: [Certificate: NIOSSLCertificate] = [:]
        for anchor in settings.anchors ?? [] {
            if let handle = try? NIOSSLCertificate(bytes: anchor.derEncoded, format: .der) { handles[anchor] = handle }
        }
        anchorHandles = handles
    }

    /// A verifier whose decisions an Alamofire-style evaluator (or `ServerTrustManager`) makes;
    /// `logger`, `metrics` and what it throws as in ``init(settings:judge:execution:logger:metrics:)``.
    public init(
        evaluator: any ServerTrustEvaluating, settings: TLSTrustSettings = TLSTrustSettings(),
        execution: TLSVerificationExecution = .automatic, logger: Logger? = nil,
        metrics: TLSTrustMetrics = .standard
    ) throws(TLSTrustConfigurationError) {
        try self.init(settings: settings, judge: .evaluator(evaluator), execution: execution, logger: logger, metrics: metrics)
    }

    /// A verifier whose decisions an AFNetworking-style `SecurityPolicy` makes; `logger`, `metrics`
    /// and what it throws as in ``init(settings:judge:execution:logger:metrics:)``.
    public init(
        securityPolicy: SecurityPolicy, settings: TLSTrustSettings = TLSTrustSettings(),
        execution: TLSVerificationExecution = .automatic, logger: Logger? = nil,
        metrics: TLSTrustMetrics = .standard
    ) throws(TLSTrustConfigurationError) {
        try self.init(
            settings: settings, judge: .securityPolicy(securityPolicy), execution: execution, logger: logger,
            metrics: metrics)
    }

    /// The callback to hand to `NIOSSLClientHandler` / `NIOSSLServerHandler` (or to a framework's
    /// TLS configuration, such as gRPC Swift 2's `customVerificationCallback`): verifies the peer in
    /// `role`, logs the verdict (when the verifier has a ``logger``) and records it in ``metrics``,
    /// records the decision in `record`,
    /// tells `onOutcome`, and completes swift-nio-ssl's promise.
    ///
    /// - Parameters:
    ///   - role: The peer's role: a server for the host connected to, or a client.
    ///   - port: The port connected to, for `ServerTrustChallenge.port`.
    ///   - record: Where the decision is kept for the application (one record per connection).
    ///   - taskHandler: The per-connection (task-level) challenge handler, for
    ///     `TLSTrustJudge.challenges(_:)`.
    ///   - onOutcome: Called with every decision, before swift-nio-ssl learns it: where a framework
    ///     builds the pipeline itself, the way to learn why a peer was rejected.
    public func verificationCallback(
        for role: TLSPeerRole, port: Int? = nil, record: TLSPeerTrustRecord? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil,
        onOutcome: (@Sendable (TLSTrustOutcome) -> Void)? = nil
    ) -> TLSTrustVerificationCallback {
        { presented, promise in
            let started = ContinuousClock.now
            let complete: @Sendable (TLSTrustOutcome, [Certificate]) -> Void = { outcome, parsed in
                reportVerdict(outcome, presented: parsed, role: role, port: port, started: started)
                record?.record(outcome)
                onOutcome?(outcome)
                promise.succeed(metadataResult(for: outcome, presented: presented, parsed: parsed))
            }
            let parsed: [Certificate]
            switch Self.parse(presented) {
            case let .failure(failure):
                complete(.rejected(failure), [])
                return
            case let .success(certificates):
                parsed = certificates
            }
            record?.record(presented: parsed)
            decide(.presented(parsed), role: role, port: port, taskHandler: taskHandler, record: record) { complete($0, parsed) }
        }
    }

    /// Asks the one entry point about `peer` and hands the outcome to `completion`: inline when it
    /// decided, else from a task that `record` cancels when the connection closes (its fetching
    /// stops; the outcome still arrives, on a dead channel).
    package func decide(
        _ peer: TLSHandshakePeer, role: TLSPeerRole, port: Int?, taskHandler: ServerTrustChallengeHandler?,
        record: TLSPeerTrustRecord?, completion: @escaping @Sendable (TLSTrustOutcome) -> Void
    ) {
        switch handshakes.decision(for: peer, role: role, port: port, taskHandler: taskHandler) {
        case let .decided(outcome):
            completion(outcome)
        case let .pending(pending):
            let task = Task { completion(await pending.outcome()) }
            record?.setPendingVerification { task.cancel() }
        }
    }

    /// Verifies the certificates a peer presented as swift-nio-ssl hands them over (leaf first),
    /// parsing each from its DER, and logs and records the verdict: for async verification hooks
    /// such as Hummingbird's `TLSChannelConfiguration(tlsConfiguration:customAsyncVerificationCallback:)`.
    public func verify(
        _ presented: [NIOSSLCertificate], role: TLSPeerRole, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) async -> TLSTrustOutcome {
        let started = ContinuousClock.now
        switch Self.parse(presented) {
        case let .failure(failure):
            reportVerdict(.rejected(failure), presented: [], role: role, port: port, started: started)
            return .rejected(failure)
        case let .success(parsed):
            return await verify(parsed, role: role, port: port, taskHandler: taskHandler, started: started)
        }
    }

    /// Verifies certificates a peer presented (leaf first, parsed), fetching revocation information
    /// first when the settings ask for it, and logs and records the verdict: the decision the
    /// verification callback makes.
    ///
    /// A hook that calls only this (or ``verificationCallback(for:port:record:taskHandler:onOutcome:)``)
    /// never sees a resumed session, which carries no certificates: install the
    /// ``TLSPeerTrustHandler`` the verifier's handlers and routes make on every connection, which
    /// re-verifies it.
    public func verify(
        _ presented: [Certificate], role: TLSPeerRole, port: Int? = nil,
        taskHandler: ServerTrustChallengeHandler? = nil
    ) async -> TLSTrustOutcome {
        await verify(presented, role: role, port: port, taskHandler: taskHandler, started: .now)
    }

    /// The verification of parsed certificates (the public `verify`), timed from `started`.
    private func verify(
        _ presented: [Certificate], role: TLSPeerRole, port: Int?, taskHandler: ServerTrustChallengeHandler?,
        started: ContinuousClock.Instant
    ) async -> TLSTrustOutcome {
        let outcome = await handshakes.outcome(for: .presented(presented), role: role, port: port, taskHandler: taskHandler)
        reportVerdict(outcome, presented: presented, role: role, port: port, started: started)
        return outcome
    }

    /// The presented certificates parsed from their DER, or the first that is not a certificate.
    package static func parse(_ presented: [NIOSSLCertificate]) -> Result<[Certificate], TLSTrustFailure> {
        guard !presented.isEmpty else { return .failure(.noPeerCertificates) }
        var parsed: [Certificate] = []
        parsed.reserveCapacity(presented.count)
        for (index, handle) in presented.enumerated() {
            do {
                parsed.append(try Certificate(derEncoded: try handle.toDERBytes()))
            } catch {
                return .failure(.malformedPeerCertificate(index: index, error: ComparableError(error)))
            }
        }
        return .success(parsed)
    }

    /// swift-nio-ssl's result for `outcome`: the validated chain as metadata when there is one
    /// (each certificate as the peer sent it, or the anchor as configured).
    func metadataResult(
        for outcome: TLSTrustOutcome, presented: [NIOSSLCertificate],
        parsed: [Certificate]
    ) -> NIOSSLVerificationResultWithMetadata {
        guard case let .trusted(peer) = outcome else { return .failed }
        guard let chain = peer.validatedChain, !chain.isEmpty else { return .certificateVerified(VerificationMetadata(nil)) }
        var handles: [NIOSSLCertificate] = []
        handles.reserveCapacity(chain.count)
        for certificate in chain {
            if let index = parsed.firstIndex(of: certificate), index < presented.count {
                handles.append(presented[index])
            } else if let anchor = anchorHandles[certificate] ?? (try? NIOSSLCertificate(bytes: certificate.derEncoded, format: .der)) {
                handles.append(anchor)
            } else {
                // Not representable for swift-nio-ssl: the decision stands, without the metadata.
                return .certificateVerified(VerificationMetadata(nil))
            }
        }
        return .certificateVerified(VerificationMetadata(ValidatedCertificateChain(handles)))
    }
}
