// New HTTPS connections per second through AsyncHTTPClient: its own certificate verification
// (BoringSSL, the chain's root as trust root) against SwiftTrustAsyncHTTPClient's
// (TrustedHTTPClient: BoringSSL kept on, then SwiftTrust's decision on the leaf), same server, same
// chain, one process. A NIO HTTP/1.1 server on 127.0.0.1 presents TestCertificates/ecdsa/chain.pem;
// each request goes on a new connection (`maximumUsesPerConnection = 1`), one at a time. Modes
// alternate in rounds so machine noise hits both alike; the median round is reported. Run from the
// repository root (scripts/bench-ahc).
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SwiftTrust
import SwiftTrustAsyncHTTPClient
import TrustNIO

let host = "www.swifttrust.test"
let arguments = CommandLine.arguments
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let parsed = Int(arguments[index + 1]) else { return value }
    return parsed
}
let rounds = option("--rounds", default: 7)
let connectionsPerRound = option("--connections", default: 200)

/// Why the benchmark could not run.
struct BenchmarkError: Error { let message: String }

/// Answers every request `200 OK` with an empty body.
final class OKResponder: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "content-length", value: "0")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

func certificates(_ path: String) throws -> [NIOSSLCertificate] { try NIOSSLCertificate.fromPEMFile("TestCertificates/" + path) }

let serverGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
var serverTLS = TLSConfiguration.makeServerConfiguration(
    certificateChain: try certificates("ecdsa/chain.pem").map(NIOSSLCertificateSource.certificate),
    privateKey: .privateKey(try NIOSSLPrivateKey(file: "TestCertificates/keys/ecdsa/leaf.key.pem", format: .pem)))
serverTLS.applicationProtocols = ["http/1.1"]
let serverContext = try NIOSSLContext(configuration: serverTLS)
let server = try await ServerBootstrap(group: serverGroup)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: serverContext))
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            try channel.pipeline.syncOperations.addHandler(OKResponder())
        }
    }
    .bind(host: "127.0.0.1", port: 0).get()
guard let port = server.localAddress?.port else { throw BenchmarkError(message: "the server has no port") }

var base = HTTPClient.Configuration()
base.dnsOverride = [host: "127.0.0.1"]
base.maximumUsesPerConnection = 1
base.httpVersion = .http1Only
let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

var boringConfiguration = base
var boringTLS = TLSConfiguration.makeClientConfiguration()
boringTLS.trustRoots = .certificates(try certificates("ecdsa/root.pem"))
boringTLS.certificateVerification = .fullVerification
boringConfiguration.tlsConfiguration = boringTLS
let boring = HTTPClient(eventLoopGroup: clientGroup, configuration: boringConfiguration)

let anchors = try Certificate.loadAll(from: Array(try Data(contentsOf: URL(fileURLWithPath: "TestCertificates/ecdsa/root.pem"))))
var settings = TLSTrustSettings(anchors: anchors)
settings.additionalIntermediates = try Certificate.loadAll(
    from: Array(try Data(contentsOf: URL(fileURLWithPath: "TestCertificates/ecdsa/intermediate.pem"))))
let trusted = try TrustedHTTPClient(verifier: TLSTrustVerifier(settings: settings), configuration: base, eventLoopGroup: clientGroup)

let url = "https://\(host):\(port)/"
enum Mode: String, CaseIterable {
    case asyncHTTPClient = "AsyncHTTPClient (BoringSSL verification)"
    case swiftTrust = "SwiftTrustAsyncHTTPClient (BoringSSL + SwiftTrust)"
}

/// Connections per second for `count` requests in `mode`, each on a new connection.
func measure(_ mode: Mode, count: Int) async throws -> Double {
    let start = ContinuousClock.now
    for _ in 0..<count {
        let request = HTTPClientRequest(url: url)
        let response: HTTPClientResponse
        switch mode {
        case .asyncHTTPClient: response = try await boring.execute(request, timeout: .seconds(10))
        case .swiftTrust: response = try await trusted.execute(request, timeout: .seconds(10))
        }
        guard response.status == .ok else { throw BenchmarkError(message: "\(mode.rawValue): \(response.status)") }
        _ = try await response.body.collect(upTo: 1024)
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(count) / seconds
}

// Warm-up: code paths, caches, the connection pools.
for mode in Mode.allCases { _ = try await measure(mode, count: 20) }
var results: [Mode: [Double]] = [:]
for _ in 0..<rounds {
    for mode in Mode.allCases { results[mode, default: []].append(try await measure(mode, count: connectionsPerRound)) }
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let reference = median(results[.asyncHTTPClient] ?? [1])
print("| mode | new connections/s (median of \(rounds) rounds of \(connectionsPerRound)) | ratio |")
print("| --- | ---: | ---: |")
for mode in Mode.allCases {
    let value = median(results[mode] ?? [0])
    print("| \(mode.rawValue) | \(String(format: "%.0f", value)) | \(String(format: "%.2f×", value / reference)) |")
}
try await boring.shutdown()
try await trusted.shutdown()
try await server.close()
