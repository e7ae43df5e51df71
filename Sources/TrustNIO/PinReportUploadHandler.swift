import NIOCore
import TrustHTTP

/// Sends one report request when the connection is up (behind TLS, the TLS handler holds it until
/// the handshake completes) and completes `response` with the status code of the first line that
/// comes back, then closes. The body of the response is never read: nothing the collector says
/// beyond its status is used.
final class PinReportUploadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let request: [UInt8]
    private let response: EventLoopPromise<Int>
    private var received: [UInt8] = []

    init(request: [UInt8], response: EventLoopPromise<Int>) {
        self.request = request
        self.response = response
    }

    func channelActive(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: request.count)
        buffer.writeBytes(request)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        if let end = HTTPMessage.lineEnd(in: received) {
            if let status = HTTPMessage.statusCode(of: received[..<end]) {
                response.succeed(status)
            } else {
                response.fail(PinReportUploadError.malformedResponse)
            }
            context.close(promise: nil)
        } else if received.count > HTTPMessage.maximumStatusLineBytes {
            response.fail(PinReportUploadError.malformedResponse)
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        response.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        response.fail(PinReportUploadError.closedBeforeResponse)
        context.fireChannelInactive()
    }
}
