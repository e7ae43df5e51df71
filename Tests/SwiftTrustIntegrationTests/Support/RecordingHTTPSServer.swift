#if AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTPS server on 127.0.0.1 that a test starts and stops, speaking HTTP/1.1 or HTTP/2 (ALPN
/// offers only that one), presenting a chain of the committed certificates, and recording every
/// decrypted byte each connection sent it: what proves that a refused server got no request.
/// Each request is answered by `respond` (path → status, headers, body).
final class RecordingHTTPSServer: Sendable {
    enum HTTPVersion: Sendable { case http1, http2 }
    typealias Responder = @Sendable (String) -> (status: HTTPResponseStatus, headers: [(String, String)], body: String)

    let port: Int
    private let channel: any Channel
    private let received = Mutex<[[UInt8]]>([])

    /// The decrypted bytes of each connection that completed its handshake, in order.
    var connections: [[UInt8]] { received.withLock { $0 } }

    private init(channel: any Channel) throws {
        self.channel = channel
        guard let port = channel.localAddress?.port else { throw LoopbackTimeout() }
        self.port = port
    }

    /// Starts a server presenting `chain` (files of TestCertificates/, leaf first).
    static func start(
        presenting chain: [String], version: HTTPVersion,
        respond: @escaping Responder = { path in (.ok, [], "hello \(path)") }
    ) async throws -> RecordingHTTPSServer {
        try await start(identity: IntegrationPKI.identity(chain), version: version, respond: respond)
    }

    /// Starts a server presenting `identity`'s chain.
    static func start(
        identity: (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource), version: HTTPVersion,
        respond: @escaping Responder = { path in (.ok, [], "hello \(path)") }
    ) async throws -> RecordingHTTPSServer {
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: identity.chain, privateKey: identity.key)
        tls.applicationProtocols = version == .http1 ? ["http/1.1"] : ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let box = Mutex<RecordingHTTPSServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let index = box.withLock { $0?.openConnection() } ?? 0
                let recorder = ByteRecorder { bytes in box.withLock { $0?.append(bytes, to: index) } }
                do {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(recorder)
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                switch version {
                case .http1:
                    return channel.pipeline.configureHTTPServerPipeline().flatMap {
                        channel.pipeline.addHandler(HTTP1Responder(respond: respond))
                    }
                case .http2:
                    return channel.configureHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                            try stream.pipeline.syncOperations.addHandler(HTTP1Responder(respond: respond))
                        }
                    }.map { _ in () }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = try RecordingHTTPSServer(channel: channel)
        box.withLock { $0 = server }
        return server
    }

    func stop() async {
        try? await channel.close()
    }

    private func openConnection() -> Int {
        received.withLock { connections in
            connections.append([])
            return connections.count - 1
        }
    }

    private func append(_ bytes: [UInt8], to index: Int) {
        received.withLock { connections in
            if connections.indices.contains(index) { connections[index] += bytes }
        }
    }
}

/// Passes decrypted bytes on after telling `record`.
private final class ByteRecorder: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let record: @Sendable ([UInt8]) -> Void

    init(record: @escaping @Sendable ([UInt8]) -> Void) { self.record = record }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        record(Array(buffer: unwrapInboundIn(data)))
        context.fireChannelRead(data)
    }
}

/// Answers each HTTP/1 request (or HTTP/2 stream, through the codec) with `respond(path)`, once the
/// request's end arrived: its body is then recorded before the client sees an answer.
// @unchecked: the handler lives on its channel's event loop, which alone touches `head`.
private final class HTTP1Responder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let respond: RecordingHTTPSServer.Responder
    /// The head of the request being received (event-loop confined, as the handler is).
    private var head: HTTPRequestHead?

    init(respond: @escaping RecordingHTTPSServer.Responder) { self.respond = respond }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(request):
            head = request
        case .body:
            return
        case .end:
            guard let request = head else { return }
            head = nil
            let answer = respond(request.uri)
            var headers = HTTPHeaders(answer.headers)
            headers.replaceOrAdd(name: "content-length", value: "\(answer.body.utf8.count)")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: answer.status, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: answer.body)))), promise: nil)
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            context.flush()
        }
    }
}

/// The frame types of an HTTP/2 byte stream after the client's 24-byte connection preface
/// (RFC 9113 §3.4, §4.1): what a refused connection's bytes may hold (SETTINGS, WINDOW_UPDATE)
/// and must not (HEADERS: a request).
func http2FrameTypes(_ bytes: [UInt8]) -> [UInt8] {
    let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    guard bytes.starts(with: preface) else { return bytes.isEmpty ? [] : [0xff] }
    var types: [UInt8] = []
    var index = preface.count
    while index + 9 <= bytes.count {
        let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        types.append(bytes[index + 3])
        index += 9 + length
    }
    return types
}
#endif // AsyncHTTPClient
