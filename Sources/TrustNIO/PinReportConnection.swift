import NIOCore
import NIOPosix
import NIOSSL
import TrustCore
import TrustHTTP

/// How one report upload reaches its collector: the name resolved first (off the event loop, within
/// the connect timeout, on TrustHTTP's capped ``NameResolver``), every resolved address judged
/// against the ``PinReportCollectorPolicy`` before any connection, and only the judged addresses
/// connected to, one after the other. A local collector the policy does not allow never sees a TCP
/// handshake, which would tell whoever wrote the report URI whether a local port is open.
struct PinReportConnection: Sendable {
    let target: HTTPTarget
    let request: [UInt8]
    let response: EventLoopPromise<Int>
    let loop: any EventLoop
    let tlsContext: NIOSSLContext
    let verifier: TLSTrustVerifier
    let allowsLocalAddresses: Bool
    let connectTimeout: TimeAmount

    /// Resolves, judges and connects; the outcome goes to `response`. The returned task is cancelled
    /// when the upload ends first (a resolution still running is then dropped).
    func start() -> Task<Void, Never> {
        Task {
            let seconds = Double(connectTimeout.nanoseconds) / 1_000_000_000
            do throws(FetchFailureReason) {
                let resolved = try await NameResolver.reports.resolve(target.host, port: target.port, until: .now + .seconds(seconds)) {
                    .timedOut(seconds: seconds)
                }
                let addresses = try resolved.permitted(for: target.host, allowsLocalAddresses: allowsLocalAddresses)
                loop.execute { connect(to: addresses[...]) }
            } catch {
                switch error {
                case let .localDestinationRefused(_, address, scope):
                    response.fail(PinReportUploadError.localAddressNotAllowed(address: address, scope: scope))
                case .timedOut: response.fail(PinReportUploadError.connectTimedOut)
                default: response.fail(PinReportUploadError.connectionFailed(ComparableError(error)))
                }
            }
        }
    }

    /// Connects to the first of `addresses` that accepts; the channel closes when the upload ends.
    private func connect(to addresses: ArraySlice<ResolvedAddress>) {
        guard let address = addresses.first else { return response.fail(PinReportUploadError.closedBeforeResponse) }
        guard let bootstrap = ClientBootstrap(validatingGroup: loop) else { return response.fail(PinReportUploadError.unsupportedEventLoopGroup) }
        let socketAddress: SocketAddress
        do { socketAddress = try SocketAddress(ipAddress: address.ip.description, port: address.port) } catch {
            return response.fail(PinReportUploadError.connectionFailed(ComparableError(error)))
        }
        let connection = self
        bootstrap
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // A second look at the address actually connected to.
                    if !connection.allowsLocalAddresses {
                        try channel.pipeline.syncOperations.addHandler(CollectorAddressGuard(response: connection.response))
                    }
                    if connection.target.usesTLS {
                        try channel.pipeline.syncOperations.addTrustedTLSClientHandlers(
                            context: connection.tlsContext, host: connection.target.host, verifier: connection.verifier,
                            port: connection.target.port)
                    }
                    try channel.pipeline.syncOperations.addHandler(PinReportUploadHandler(request: connection.request, response: connection.response))
                }
            }
            .connect(to: socketAddress)
            .whenComplete { result in
                switch result {
                case let .success(channel): connection.response.futureResult.whenComplete { _ in channel.close(promise: nil) }
                case .failure where addresses.count > 1: connection.connect(to: addresses.dropFirst())
                case let .failure(error): connection.response.fail(error)
                }
            }
    }
}
