import NIOCore
import NIOEmbedded
import NIOSSL
import NIOTLS
import TrustNIO
import TrustTestSupport
import XCTest

/// What `TLSPeerTrustHandler` does while a resumed session's peer is re-verified off the event
/// loop (issue 40 item 1, issue 39 item 6): it asks for no more reads, holds what the application
/// writes and what was already decrypted (closing past its limit), and releases it all in order on
/// a trusted verdict. On an `EmbeddedChannel`, so the verdict arrives exactly when the test runs the loop.
final class ResumedSessionHoldingTests: XCTestCase {
    func testNothingIsReadOrWrittenUntilTheResumedPeerIsTrustedThenAllIsReleasedInOrder() async throws {
        let (channel, record, outbound, inbound) = try makeResumedChannel()
        channel.read()
        channel.writeAndFlush(ByteBuffer(string: "early"), promise: nil)
        channel.pipeline.fireChannelRead(NIOAny(ByteBuffer(string: "request")))
        channel.pipeline.fireChannelReadComplete()
        XCTAssertEqual(outbound.reads, 0, "a read was asked for while the peer was unverified")
        XCTAssertEqual(outbound.writes, [], "the application's bytes went out to an unverified peer")
        XCTAssertNil(try channel.readInbound(as: ByteBuffer.self))
        XCTAssertEqual(inbound.handshakes, 0)

        try await runUntilDecided(channel, record)
        guard case .trusted = record.outcome else { return XCTFail("\(String(describing: record.outcome))") }
        XCTAssertTrue(record.sessionResumed)
        XCTAssertEqual(outbound.writes, ["early"])
        XCTAssertEqual(outbound.reads, 1, "the held read request is passed on")
        XCTAssertEqual(inbound.handshakes, 1)
        XCTAssertEqual(try channel.readInbound(as: ByteBuffer.self).map { String(buffer: $0) }, "request")
        _ = try? channel.finish()
    }

    func testAPeerThatSendsMoreThanTheLimitWhileUnverifiedIsClosed() async throws {
        let (channel, _, outbound, _) = try makeResumedChannel()
        let chunk = ByteBuffer(repeating: 0x61, count: 64 * 1024)
        for _ in 0..<(TLSPeerTrustHandler.heldInboundByteLimit / chunk.readableBytes) {
            channel.pipeline.fireChannelRead(NIOAny(chunk))
        }
        XCTAssertTrue(channel.isActive, "closed at the limit, not before")
        channel.pipeline.fireChannelRead(NIOAny(ByteBuffer(string: "one more")))
        XCTAssertThrowsError(try channel.throwIfErrorCaught()) { error in
            XCTAssertEqual(error as? TLSSessionResumptionError, .heldDataLimitExceeded(limit: TLSPeerTrustHandler.heldInboundByteLimit))
        }
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(outbound.writes, [])
        // The cancelled verification's verdict, should it still come, finds the connection closed.
        try await Task.sleep(for: .milliseconds(200))
        channel.embeddedEventLoop.run()
        XCTAssertNil(try channel.readInbound(as: ByteBuffer.self), "nothing held is passed on after the close")
    }

    /// An active embedded channel whose trust handler has just seen a handshake complete without a
    /// verification while the session holds the test server leaf (a resumed session), re-verified
    /// off the loop: [outbound recorder, trust handler, inbound recorder].
    private func makeResumedChannel() throws -> (EmbeddedChannel, TLSPeerTrustRecord, OutboundRecorder, InboundEventRecorder) {
        var settings = try TestCertificates.settings()
        settings.additionalIntermediates = try TestCertificates.certificates("ecdsa/intermediate.pem")
        let verifier = try TLSTrustVerifier(settings: settings, execution: .offEventLoop)
        let leaf = try NIOSSLCertificate(file: TestCertificates.path("ecdsa/leaf.pem"), format: .pem)
        let record = TLSPeerTrustRecord()
        let check = TLSPeerTrustHandler.ResumptionCheck(
            verifier: verifier, role: .server(host: TestCertificates.host), port: nil,
            taskHandler: nil, sessionLeaf: { _ in leaf })
        let outbound = OutboundRecorder(), inbound = InboundEventRecorder()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(outbound)
        try channel.pipeline.syncOperations.addHandler(TLSPeerTrustHandler(record: record, resumption: check))
        try channel.pipeline.syncOperations.addHandler(inbound)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: nil))
        return (channel, record, outbound, inbound)
    }

    /// Runs the embedded loop until the off-loop verdict was applied (at most 10 s).
    private func runUntilDecided(_ channel: EmbeddedChannel, _ record: TLSPeerTrustRecord) async throws {
        for _ in 0..<1_000 {
            channel.embeddedEventLoop.run()
            if record.outcome != nil { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTFail("no verdict within 10 s")
    }
}

/// Counts the read requests and records the writes that reach the head of the pipeline.
private final class OutboundRecorder: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    var reads = 0
    var writes: [String] = []

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        writes.append(String(buffer: unwrapOutboundIn(data)))
        context.write(data, promise: promise)
    }
}

/// Counts the handshake-completed events that pass the trust handler.
private final class InboundEventRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    var handshakes = 0

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { handshakes += 1 }
        context.fireUserInboundEventTriggered(event)
    }
}
