// Loopback TLS handshakes per second with swift-nio-ssl's own certificate verification (BoringSSL)
// and with TrustNIO's (SwiftTrust), on the same ECDSA chain and anchor, in one process: a NIO server
// on 127.0.0.1 presenting TestCertificates/ecdsa/chain.pem, a client making one full handshake at a
// time (connect, TLS 1.3 handshake, close). Each mode is measured in alternating rounds so that
// machine noise hits every mode alike; the median round is reported. Run from the repository root.
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import SwiftTrust
import TrustNIO

/// A client configuration under test.
enum Mode: String, CaseIterable {
    /// swift-nio-ssl's default verification: BoringSSL's X509_verify_cert with the anchor as trust root, and its host check.
    case boringSSL = "swift-nio-ssl (BoringSSL)"
    /// TrustNIO, evaluation inline on the event loop (the automatic choice for offline evaluations).
    case trustInline = "TrustNIO, on the event loop"
    /// TrustNIO, evaluation in a task off the event loop (what revocation fetching uses).
    case trustOffLoop = "TrustNIO, off the event loop"
}

let host = "www.swifttrust.test"
let arguments = CommandLine.arguments
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let parsed = Int(arguments[index + 1]) else { return value }
    return parsed
}
let rounds = option("--rounds", default: 7)
let handshakesPerRound = option("--handshakes", default: 300)

func certificates(_ path: String) throws -> [NIOSSLCertificate] { try NIOSSLCertificate.fromPEMFile("TestCertificates/" + path) }

let serverGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let serverConfiguration = TLSConfiguration.makeServerConfiguration(
    certificateChain: try certificates("ecdsa/chain.pem").map(NIOSSLCertificateSource.certificate),
    privateKey: .privateKey(try NIOSSLPrivateKey(file: "TestCertificates/keys/ecdsa/leaf.key.pem", format: .pem)))
let serverContext = try NIOSSLContext(configuration: serverConfiguration)
let server = try ServerBootstrap(group: serverGroup)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: serverContext)) }
    }
    .bind(host: "127.0.0.1", port: 0).wait()
/// Why the benchmark could not run.
struct BenchmarkError: Error { let message: String }
guard let port = server.localAddress?.port else { throw BenchmarkError(message: "the server has no port") }

let root = try certificates("ecdsa/root.pem")
var boringConfiguration = TLSConfiguration.makeClientConfiguration()
boringConfiguration.trustRoots = .certificates(root)
boringConfiguration.certificateVerification = .fullVerification
let boringContext = try NIOSSLContext(configuration: boringConfiguration)
var trustConfiguration = TLSConfiguration.makeClientConfiguration()
trustConfiguration.certificateVerification = .noHostnameVerification
let trustContext = try NIOSSLContext(configuration: trustConfiguration)
let anchors = try Certificate.loadAll(from: Array(try Data(contentsOf: URL(fileURLWithPath: "TestCertificates/ecdsa/root.pem"))))
let inline = try TLSTrustVerifier(settings: TLSTrustSettings(anchors: anchors), execution: .onEventLoop)
let offLoop = try TLSTrustVerifier(settings: TLSTrustSettings(anchors: anchors), execution: .offEventLoop)

/// One full handshake in `mode`; throws when it does not complete (a benchmark of failures is worthless).
func handshake(_ mode: Mode) throws {
    let done = clientGroup.next().makePromise(of: Void.self)
    let channel = try ClientBootstrap(group: clientGroup)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let operations = channel.pipeline.syncOperations
                switch mode {
                case .boringSSL: try operations.addHandler(NIOSSLClientHandler(context: boringContext, serverHostname: host))
                case .trustInline: try operations.addTrustedTLSClientHandlers(context: trustContext, host: host, verifier: inline)
                case .trustOffLoop: try operations.addTrustedTLSClientHandlers(context: trustContext, host: host, verifier: offLoop)
                }
                try operations.addHandler(TLSHandshakeCompletionHandler(promise: done))
            }
        }
        .connect(host: "127.0.0.1", port: port).wait()
    try done.futureResult.wait()
    try channel.close().wait()
}

var rates: [Mode: [Double]] = [:]
for mode in Mode.allCases { for _ in 0..<20 { try handshake(mode) } } // warm-up: caches, code paths
for _ in 0..<rounds {
    for mode in Mode.allCases {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<handshakesPerRound { try handshake(mode) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        rates[mode, default: []].append(Double(handshakesPerRound) / seconds)
    }
}
try server.close().wait()
try clientGroup.syncShutdownGracefully()
try serverGroup.syncShutdownGracefully()

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}
let baseline = median(rates[.boringSSL] ?? [])
print("| Client verification | handshakes/s (median of \(rounds) rounds of \(handshakesPerRound)) | min – max | vs BoringSSL |")
print("|---|---:|---:|---:|")
for mode in Mode.allCases {
    let values = rates[mode] ?? []
    let rate = median(values)
    print(
        String(
            format: "| %@ | %.0f | %.0f – %.0f | %.2f× |", mode.rawValue, rate, values.min() ?? 0, values.max() ?? 0,
            baseline > 0 ? rate / baseline : 0))
}
print("\nSwiftTrust caches: \(TrustCaches.isEnabled ? "on" : "off (\(TrustCaches.environmentVariable))")")
