import GRPCCore
import GRPCNIOTransportHTTP2
import NIOSSL
import SwiftTrustGRPC
import TrustNIO

/// Example (b): a gRPC Swift 2 client that pins its server's key through TrustNIO, and the server.
public enum GRPCPinningExample {
    /// The server's transport: TLS on 127.0.0.1:`port` (0: any free port) presenting the PEM files
    /// `certificateChain` (leaf first) with the key in `privateKey`.
    public static func makeServerTransport(certificateChain: [String], privateKey: String, port: Int = 0) -> HTTP2ServerTransport.Posix {
        HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: port),
            transportSecurity: .tls(
                certificateChain: certificateChain.map { .file(path: $0, format: .pem) },
                privateKey: .file(path: privateKey, format: .pem)))
    }

    /// Calls `Echo/Get` with `text` on 127.0.0.1:`port`, the server verified by `route` (its pins).
    ///
    /// - Throws: `RPCError`; when SwiftTrust rejected the server, its ``GRPCCore/RPCError/tlsTrustError``
    ///   holds the typed reason.
    public static func echo(_ text: String, port: Int, route: TLSClientTrustRoute) async throws -> String {
        let transport = try HTTP2ClientTransport.Posix.swiftTrust(target: .ipv4(address: "127.0.0.1", port: port), route: route)
        return try await withGRPCClient(transport: transport) { client in
            var options = CallOptions.defaults
            options.waitForReady = false // fail on the first refused connection instead of retrying until the deadline
            options.timeout = .seconds(10)
            return try await client.unary(
                request: ClientRequest(message: text), descriptor: GRPCEchoService.get,
                serializer: UTF8Coder(), deserializer: UTF8Coder(), options: options
            ) { response in
                try response.message
            }
        }
    }
}
