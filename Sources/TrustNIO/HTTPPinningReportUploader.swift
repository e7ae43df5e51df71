import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import TrustCore
import TrustHTTP
import TrustPinning

/// A `PinningReportSink` that POSTs each report's JSON (`Content-Type:
/// application/json`, TrustKit's format) to every `http://` and `https://` report URI, with
/// swift-nio, fire-and-forget.
///
/// - **Never blocks the caller**: ``deliver(_:to:)`` encodes the report, reserves a slot and
///   starts a connection on the uploader's event loops; it returns before any I/O.
/// - **Bounded**: at most ``maximumConcurrentUploads`` uploads are in flight; more are dropped
///   (counted in ``statistics``), never queued. Each upload has a connect timeout and a total
///   timeout; only the response's status line is read.
/// - **Exactly where configured**: redirects are not followed, other schemes are refused, and
///   `https` collectors must be trusted for their host by a ``TLSTrustVerifier`` with
///   ``tlsSettings`` (by default the system trust store under Apple's SSL policy).
/// - **Public `https` collectors only, unless allowed** (``collectors``): `http://` URIs and
///   collectors at loopback, link-local or private addresses are refused before anything is sent;
///   a name is resolved first and every address it resolves to judged before any connection, so a
///   local collector does not even see a TCP handshake.
///
/// Every upload's end is counted in ``statistics`` and passed to `onCompletion`, and logged when
/// the uploader has a ``logger`` (a delivery at `debug` level, anything else at `info` level, under
/// the keys of ``TrustLogMetadataKey``); ``waitForIdle()`` returns once nothing is in flight.
///
/// ```swift
/// let uploader = try HTTPPinningReportUploader()
/// let reporter = PinningReporter(sinks: [uploader])
/// // …
/// await uploader.shutdown()
/// ```
public final class HTTPPinningReportUploader: PinningReportSink {
    /// The default cap on uploads in flight.
    public static let defaultMaximumConcurrentUploads = 8

    /// How `https` collectors are verified.
    public let tlsSettings: TLSTrustSettings
    /// Which collectors beyond public `https` ones are sent to.
    public let collectors: PinReportCollectorPolicy
    /// How long establishing the TCP connection may take.
    public let connectTimeout: TimeAmount
    /// How long one upload may take from the start of the connection to the status line.
    public let timeout: TimeAmount
    /// At most this many uploads are in flight; more are dropped.
    public let maximumConcurrentUploads: Int
    /// Where each upload's end is logged, and the collectors' TLS verdicts (``TLSTrustVerifier/logger``);
    /// nil logs nothing.
    public let logger: Logger?

    private let group: any EventLoopGroup
    private let ownsGroup: Bool
    private let tlsContext: NIOSSLContext
    private let verifier: TLSTrustVerifier
    private let onCompletion: (@Sendable (PinReportUpload) -> Void)?
    private let state = Mutex(State())

    private struct State {
        var statistics = PinReportUploadStatistics()
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var isShutDown = false
    }

    /// An uploader.
    ///
    /// - Parameters:
    ///   - eventLoopGroup: Where connections run (a NIOPosix group). Default: a new one-thread group
    ///     the uploader owns and ``shutdown()`` stops.
    ///   - tlsSettings: How `https` collectors are verified. Default: the system trust store.
    ///   - collectors: Which collectors beyond public `https` ones are sent to. Default: none.
    ///   - connectTimeout: Default 5 seconds.
    ///   - timeout: The whole upload, connection to status line. Default 15 seconds.
    ///   - maximumConcurrentUploads: Uploads in flight at most (at least 1). Default 8.
    ///   - logger: Where each upload's end is logged (and the collectors' TLS verdicts). Default: nil,
    ///     no logging.
    ///   - onCompletion: Called once per report and URI with how it ended, on an event loop (or on
    ///     the delivering thread for URIs refused or dropped without connecting); must not block.
    /// - Throws: `NIOSSLError` when the TLS context cannot be created.
    public init(
        eventLoopGroup: (any EventLoopGroup)? = nil, tlsSettings: TLSTrustSettings = TLSTrustSettings(),
        collectors: PinReportCollectorPolicy = PinReportCollectorPolicy(), connectTimeout: TimeAmount = .seconds(5),
        timeout: TimeAmount = .seconds(15),
        maximumConcurrentUploads: Int = HTTPPinningReportUploader.defaultMaximumConcurrentUploads,
        logger: Logger? = nil, onCompletion: (@Sendable (PinReportUpload) -> Void)? = nil
    ) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // The TLSTrustVerifier checks the chain and the host; BoringSSL's own check is replaced.
        configuration.certificateVerification = .noHostnameVerification
        tlsContext = try NIOSSLContext(configuration: configuration)
        self.tlsSettings = tlsSettings
        self.collectors = collectors
        verifier = try TLSTrustVerifier(settings: tlsSettings, logger: logger)
        self.logger = logger
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maximumConcurrentUploads = max(1, maximumConcurrentUploads)
        self.onCompletion = onCompletion
        if let eventLoopGroup {
            group = eventLoopGroup
            ownsGroup = false
        } else {
            group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            ownsGroup = true
        }
    }

    deinit {
        // Uploads hold the uploader, so none is in flight here; stop an owned group nobody shut down.
        if ownsGroup, !state.withLock({ $0.isShutDown }) { group.shutdownGracefully { _ in } }
    }

    /// Starts one upload of `report` per report URI and returns at once.
    public func deliver(_ report: PinValidationReport, to reportURIs: [URL]) {
        guard !reportURIs.isEmpty else { return }
        let body: [UInt8]
        do {
            body = Array(try report.jsonData())
        } catch {
            for uri in reportURIs { finish(uri, .refused(.reportEncodingFailed(ComparableError(error))), wasInFlight: false) }
            return
        }
        for uri in reportURIs {
            let target: HTTPTarget
            do {
                target = try HTTPTarget(uri, schemes: [.http, .https])
            } catch {
                finish(uri, .refused(PinReportUploadError(error)), wasInFlight: false)
                continue
            }
            if let refusal = collectorRefusal(target) {
                finish(uri, .refused(refusal), wasInFlight: false)
                continue
            }
            if let refusal = reserveSlot() {
                finish(uri, .dropped(refusal), wasInFlight: false)
                continue
            }
            let request = HTTPMessage.request("POST", to: target, version: "HTTP/1.1", contentType: "application/json", body: body)
            start(target, request: request, uri: uri)
        }
    }

    /// What has happened so far.
    public var statistics: PinReportUploadStatistics { state.withLock { $0.statistics } }

    /// Returns once no upload is in flight (at once if none is); every upload started before the
    /// call has then been counted and passed to `onCompletion`.
    public func waitForIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.statistics.inFlight == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Stops taking reports (later ones are dropped with ``PinReportUploadError/shutDown``), waits
    /// for the uploads in flight to end (each within ``timeout``), and stops the event-loop group if
    /// the uploader created it.
    public func shutdown() async {
        let alreadyShutDown = state.withLock { state in
            defer { state.isShutDown = true }
            return state.isShutDown
        }
        await waitForIdle()
        if ownsGroup, !alreadyShutDown { try? await group.shutdownGracefully() }
    }

    /// Why the policy refuses `target` before connecting: plain HTTP, or a local IP literal.
    private func collectorRefusal(_ target: HTTPTarget) -> PinReportUploadError? {
        if !target.usesTLS, !collectors.allowsPlainHTTP { return .plainHTTPNotAllowed }
        if !collectors.allowsLocalAddresses, let address = IPAddress(target.host) {
            let scope = DestinationScope(address)
            if scope.isLocal { return .localAddressNotAllowed(address: target.host, scope: scope.description) }
        }
        return nil
    }

    /// Takes an in-flight slot; returns why not when the uploader is full or shut down.
    private func reserveSlot() -> PinReportUploadError? {
        state.withLock { state in
            if state.isShutDown { return .shutDown }
            guard state.statistics.inFlight < maximumConcurrentUploads else {
                return .tooManyUploadsInFlight(limit: maximumConcurrentUploads)
            }
            state.statistics.inFlight += 1
            state.statistics.started += 1
            return nil
        }
    }

    /// Connects, sends `request`, and reads the status line, all on one event loop, bounded by the
    /// total timeout; the channel is closed whatever happens.
    private func start(_ target: HTTPTarget, request: [UInt8], uri: URL) {
        let loop = group.next()
        guard ClientBootstrap(validatingGroup: loop) != nil else {
            finish(uri, .failed(.unsupportedEventLoopGroup), wasInFlight: true)
            return
        }
        let response = loop.makePromise(of: Int.self)
        let deadline = loop.scheduleTask(in: timeout) { response.fail(PinReportUploadError.timedOut) }
        // Resolved and judged before any connection (PinReportConnection).
        let connection = PinReportConnection(
            target: target, request: request, response: response, loop: loop, tlsContext: tlsContext,
            verifier: verifier, allowsLocalAddresses: collectors.allowsLocalAddresses,
            connectTimeout: connectTimeout
        ).start()
        response.futureResult.whenComplete { result in
            connection.cancel()
            deadline.cancel()
            self.finish(uri, Self.outcome(of: result), wasInFlight: true)
        }
    }

    /// The outcome of a finished connection: the status, or the error as a ``PinReportUploadError``.
    private static func outcome(of result: Result<Int, any Error>) -> PinReportUpload.Outcome {
        switch result {
        case let .success(status) where (200...299).contains(status): return .delivered(statusCode: status)
        case let .success(status): return .rejectedByCollector(statusCode: status)
        case let .failure(error as PinReportUploadError): return .failed(error)
        case let .failure(error as TLSTrustError): return .failed(.collectorNotTrusted(error.failure))
        case let .failure(error as ChannelError):
            if case .connectTimeout = error { return .failed(.connectTimedOut) }
            return .failed(.connectionFailed(ComparableError(error)))
        case let .failure(error): return .failed(.connectionFailed(ComparableError(error)))
        }
    }

    /// Logs and counts the outcome, tells `onCompletion`, frees the slot, and wakes idle waiters when the
    /// last upload ended. The callback runs before the slot is freed, so a ``waitForIdle()`` caller
    /// has seen every callback.
    private func finish(_ uri: URL, _ outcome: PinReportUpload.Outcome, wasInFlight: Bool) {
        logUpload(to: uri, outcome)
        onCompletion?(PinReportUpload(uri: uri, outcome: outcome))
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            switch outcome {
            case .delivered: state.statistics.delivered += 1
            case .rejectedByCollector: state.statistics.rejectedByCollector += 1
            case .failed: state.statistics.failed += 1
            case .refused: state.statistics.refused += 1
            case .dropped: state.statistics.dropped += 1
            }
            guard wasInFlight else { return [] }
            state.statistics.inFlight -= 1
            guard state.statistics.inFlight == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
