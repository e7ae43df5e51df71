// Verbatim from Sources/TrustNIO/TrustNIO.docc/UsingSwiftTrustWithSwiftNIO.md ("Frameworks that build the
// pipeline themselves"): compiled here so the article's snippet cannot rot.
// Package.swift: .product(name: "TrustNIO", package: "SwiftTrust"),
//                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport")
import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import NIOCore
import NIOSSL
import SwiftTrust
import TrustNIO

func pinnedTransport(host: String, port: Int, pins: [String], logger: Logger) throws -> HTTP2ClientTransport.Posix {
    let manager = try ServerTrustManager(evaluators: [host: try PinnedSPKIHashesTrustEvaluator(pins: pins)])
    let route = try TLSClientTrustRoute(
        host: host, verifier: TLSTrustVerifier(evaluator: manager, logger: logger),
        configuration: {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.applicationProtocols = ["grpc-exp", "h2"]
            return tls
        }())
    let context = try route.makeContext()
    var config = HTTP2ClientTransport.Posix.Config.defaults
    config.channelDebuggingCallbacks.onCreateTCPConnection = { channel in
        channel.eventLoop.makeCompletedFuture {
            // TLS in front of the HTTP/2 handlers gRPC already added; one record per connection.
            _ = try channel.pipeline.syncOperations.addHandlers(of: route, context: context, position: .first)
        }
    }
    return try HTTP2ClientTransport.Posix(
        target: .dns(host: host, port: port), transportSecurity: .customSecure,
        config: config)
}
