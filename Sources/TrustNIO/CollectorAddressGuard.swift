import NIOCore
import TrustCore
import TrustHTTP

/// The first handler of a report upload's pipeline: a second look, when the connection is up, at
/// the address actually connected to. The addresses were judged against the
/// ``PinReportCollectorPolicy`` before connecting (``PinReportConnection``), so this only ever
/// fires if that judgement and the connection disagree; it then closes the connection before a
/// byte is sent (no TLS ClientHello, no request).
final class CollectorAddressGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let response: EventLoopPromise<Int>

    init(response: EventLoopPromise<Int>) {
        self.response = response
    }

    func channelActive(context: ChannelHandlerContext) {
        guard let text = context.channel.remoteAddress?.ipAddress, let address = IPAddress(text) else {
            response.fail(PinReportUploadError.localAddressNotAllowed(address: "(unknown)", scope: "unknown"))
            context.close(promise: nil)
            return
        }
        let scope = DestinationScope(address)
        guard !scope.isLocal else {
            response.fail(PinReportUploadError.localAddressNotAllowed(address: text, scope: scope.description))
            context.close(promise: nil)
            return
        }
        context.fireChannelActive()
    }
}
