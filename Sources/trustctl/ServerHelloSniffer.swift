import NIOCore

/// Reads the cipher suite the server chose from its ServerHello, which travels in plaintext in
/// every TLS version (RFC 8446 §4.1.3, RFC 5246 §7.4.1.3): swift-nio-ssl does not expose the
/// negotiated suite. Placed before the TLS handler; passes every byte on unchanged.
final class ServerHelloSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// Where the chosen suite's code point is kept once seen.
    private let observed: ObservedCipherSuite
    /// The first bytes from the server, until the ServerHello's suite is found or the cap is reached.
    private var head: [UInt8] = []
    private var done = false
    /// A ServerHello fits easily: a record header, a handshake header and at most ~100 bytes before the suite.
    private static let cap = 512

    init(observed: ObservedCipherSuite) {
        self.observed = observed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !done {
            let buffer = unwrapInboundIn(data)
            let room = Self.cap - head.count
            if let bytes = buffer.getBytes(at: buffer.readerIndex, length: min(room, buffer.readableBytes)) { head += bytes }
            switch Self.cipherSuite(in: head) {
            case let .found(suite):
                observed.record(suite)
                done = true
            case .notServerHello:
                done = true
            case .needMore:
                done = head.count >= Self.cap
            }
        }
        context.fireChannelRead(data)
    }

    enum ParseResult: Equatable { case found(UInt16), needMore, notServerHello }

    /// The suite in `bytes`, the start of the server's byte stream. Every index is checked.
    static func cipherSuite(in bytes: [UInt8]) -> ParseResult {
        // TLSPlaintext: type(1) = handshake(22), legacy_record_version(2), length(2).
        guard bytes.count >= 5 else { return .needMore }
        guard bytes[0] == 22 else { return .notServerHello }
        // Handshake: msg_type(1) = server_hello(2), length(3); then legacy_version(2), random(32).
        let body = 5
        guard bytes.count > body else { return .needMore }
        guard bytes[body] == 2 else { return .notServerHello }
        let sessionIDLength = body + 4 + 2 + 32
        guard bytes.count > sessionIDLength else { return .needMore }
        let suite = sessionIDLength + 1 + Int(bytes[sessionIDLength])
        guard bytes.count > suite + 1 else { return .needMore }
        return .found(UInt16(bytes[suite]) << 8 | UInt16(bytes[suite + 1]))
    }
}
