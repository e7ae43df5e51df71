#if AsyncHTTPClient
import NIOCore
import NIOSSL
import TrustNIO
import TrustSession
import TrustX509

/// The check AsyncHTTPClient runs on each new connection to one host, through its
/// `http1_1ConnectionDebugInitializer` / `http2ConnectionDebugInitializer`: called with the
/// connection's channel after the TLS handshake (and ALPN) and before any request is written on
/// it; a failed future fails that connection, and with it the requests waiting for it.
///
/// The hook gives the server's leaf (`NIOSSLClientHandler.peerCertificate`) and not the chain the
/// server sent: the leaf is decided by the verifier's one entry point (`TLSHandshakeDecider`) for
/// `host`, with the settings' intermediates, and with intermediates downloaded from the leaf's
/// caIssuers URL where the settings allow it, as Apple's trustd does. A resumed TLS session shows
/// the same leaf (BoringSSL keeps it in the session), so every connection is decided, resumed or not.
struct ConnectionTrustCheck: Sendable {
    let host: String
    let verifier: TLSTrustVerifier
    let onOutcome: (@Sendable (TLSTrustOutcome) -> Void)?

    /// Decides `channel`'s server: succeeds when trusted; else closes the channel and fails with
    /// a `TLSTrustError` carrying the typed reason.
    func check(_ channel: any Channel) -> EventLoopFuture<Void> {
        let started = ContinuousClock.now
        let loop = channel.eventLoop
        let promise = loop.makePromise(of: Void.self)
        let lookUp: @Sendable () -> NIOSSLCertificate? = {
            try? channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self).peerCertificate
        }
        // AsyncHTTPClient calls the initializer on the connection's loop: no hop then.
        let leaf = loop.inEventLoop ? loop.makeSucceededFuture(lookUp()) : loop.submit(lookUp)
        leaf.whenComplete { result in
            guard case let .success(handle?) = result else {
                return refuse(channel, failure: .noPeerCertificates, tlsError: HTTPClientTrustRejection.noPeerCertificate, promise: promise)
            }
            decide(handle, channel: channel, started: started, promise: promise)
        }
        return promise.futureResult
    }

    private func decide(
        _ handle: NIOSSLCertificate, channel: any Channel, started: ContinuousClock.Instant,
        promise: EventLoopPromise<Void>
    ) {
        let role = TLSPeerRole.server(host: host)
        let port = channel.remoteAddress?.port
        let parsed: [Certificate]
        switch TLSTrustVerifier.parse([handle]) {
        case let .failure(failure):
            verifier.reportVerdict(.rejected(failure), presented: [], role: role, port: port, started: started)
            onOutcome?(.rejected(failure))
            return refuse(channel, failure: failure, tlsError: HTTPClientTrustRejection.connectionClosedBeforeRequest, promise: promise)
        case let .success(certificates):
            parsed = certificates
        }
        let record = TLSPeerTrustRecord()
        record.record(presented: parsed)
        // A connection that closes while a pending decision fetches stops its fetching.
        channel.closeFuture.whenComplete { _ in record.cancelPendingVerification() }
        verifier.decide(.presented(parsed), role: role, port: port, taskHandler: nil, record: record) { outcome in
            verifier.reportVerdict(outcome, presented: parsed, role: role, port: port, started: started)
            record.record(outcome)
            onOutcome?(outcome)
            switch outcome {
            case .trusted:
                promise.succeed(())
            case let .rejected(failure):
                refuse(channel, failure: failure, tlsError: HTTPClientTrustRejection.connectionClosedBeforeRequest, promise: promise)
            }
        }
    }

    /// Closes `channel` (AsyncHTTPClient does not close a connection whose initializer failed)
    /// and fails `promise` with the typed reason.
    private func refuse(
        _ channel: any Channel, failure: TLSTrustFailure, tlsError: HTTPClientTrustRejection,
        promise: EventLoopPromise<Void>
    ) {
        let error = TLSTrustError(failure: failure, tlsError: tlsError)
        channel.close(promise: nil)
        promise.fail(error)
    }
}
#endif // AsyncHTTPClient
