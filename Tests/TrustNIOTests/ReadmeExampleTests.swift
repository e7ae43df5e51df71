import NIOCore
import NIOPosix
import NIOSSL
import SwiftTrust
import TrustNIO
import TrustTestSupport
import XCTest

// The example of the TrustNIO article "Using SwiftTrust with SwiftNIO"
// (Sources/TrustNIO/TrustNIO.docc/UsingSwiftTrustWithSwiftNIO.md, which the README links to),
// verbatim from here to the test class: the last test below checks that the article still shows it.

/// Opens a TLS connection to `address`:`port` whose server must be `host` and hold one of the
/// `pins`; SwiftTrust (Alamofire semantics) decides, swift-nio-ssl does the TLS.
func connectPinned(
    to address: String, port: Int, host: String, pins: [String],
    settings: TLSTrustSettings = TLSTrustSettings(), // default: the system trust store
    group: any EventLoopGroup
) async throws -> any Channel {
    let manager = try ServerTrustManager(evaluators: [host: try PinnedSPKIHashesTrustEvaluator(pins: pins)])
    let verifier = try TLSTrustVerifier(evaluator: manager, settings: settings)
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.certificateVerification = .noHostnameVerification // replaced by SwiftTrust, which checks the host
    let context = try NIOSSLContext(configuration: tls)
    let handshake = group.next().makePromise(of: Void.self)
    let channel = try await ClientBootstrap(group: group)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addTrustedTLSClientHandlers(context: context, host: host, verifier: verifier)
                try channel.pipeline.syncOperations.addHandler(TLSHandshakeCompletionHandler(promise: handshake))
            }
        }
        .connect(host: address, port: port).get()
    do {
        try await handshake.futureResult.get()
    } catch let rejection as TLSTrustError {
        print("rejected:", rejection.failure.summary) // e.g. "public-key pinning failed for api.example.com: …"
        throw rejection
    }
    return channel
}

/// Runs the article's example against a loopback server.
final class ReadmeExampleTests: LoopbackTestCase {
    func testPinnedConnectionIsOpenedAndAWrongPinIsRejectedWithTheReason() async throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let leafPin = try XCTUnwrap(TestCertificates.certificates("ecdsa/leaf.pem").first).spkiPin
        let backupPin = try XCTUnwrap(TestCertificates.certificates("rsa/leaf.pem").first).spkiPin
        let rootPin = try XCTUnwrap(TestCertificates.certificates("rsa/root.pem").first).spkiPin

        let channel = try await connectPinned(
            to: "127.0.0.1", port: server.port, host: TestCertificates.host, pins: [leafPin, backupPin],
            settings: try TestCertificates.settings(), group: group)
        let peer = try await channel.trustedPeer().get()
        XCTAssertEqual(peer?.validatedChain?.count, 3)
        try await channel.close()

        do {
            _ = try await connectPinned(
                to: "127.0.0.1", port: server.port, host: TestCertificates.host, pins: [backupPin, rootPin],
                settings: try TestCertificates.settings(), group: group)
            XCTFail("a server without a pinned key was accepted")
        } catch let rejection as TLSTrustError {
            guard case .publicKeyPinningFailed? = rejection.failure.serverTrustFailureReason else { return XCTFail("\(rejection)") }
        }
    }

    /// The article's code block is the function above, character for character, so the example a
    /// reader copies is the one this class runs.
    func testTheSwiftNIOArticleShowsThisExampleVerbatim() throws {
        let thisFile = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: thisFile, encoding: .utf8)
        let start = try XCTUnwrap(source.range(of: "/// Opens a TLS connection"))
        let end = try XCTUnwrap(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex))
        let example = source[start.lowerBound..<end.upperBound]
        let article = thisFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TrustNIO/TrustNIO.docc/UsingSwiftTrustWithSwiftNIO.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        XCTAssertTrue(text.contains(example), "UsingSwiftTrustWithSwiftNIO.md no longer shows connectPinned as this file runs it")
    }
}
