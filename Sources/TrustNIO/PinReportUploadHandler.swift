import NIOCore

/// Sends one report request when the connection is up (behind TLS, the TLS handler holds it until
/// the handshake completes) and completes `response` with the status code of the first line that
/// comes back, then closes. The body of the response is never read: nothing the collector says
/// beyond its status is used.
final class PinReportUploadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A status line longer than this is not a status line.
    static let maximumStatusLineBytes = 4096

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
        if let end = Self.lineEnd(in: received) {
            if let status = Self.statusCode(of: received[..<end]) {
                response.succeed(status)
            } else {
                response.fail(PinReportUploadError.malformedResponse)
            }
            context.close(promise: nil)
        } else if received.count > Self.maximumStatusLineBytes {
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

    /// The index of the CR of the first CRLF.
    static func lineEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        return (0..<(bytes.count - 1)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 }
    }

    /// The three-digit status code of `HTTP/1.x NNN reason` (RFC 9112 §4), nil otherwise.
    static func statusCode(of line: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
              parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(parts[1]), (100...599).contains(code)
        else { return nil }
        return code
    }
}
