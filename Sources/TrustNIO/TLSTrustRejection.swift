import NIOCore
import TrustSession

/// One connection a server refused because SwiftTrust rejected its client's certificate: the
/// typed reason from that connection's own `TLSPeerTrustRecord`, and who connected. What the
/// framework integrations (Hummingbird, gRPC) hand their `onRejection` callbacks.
public struct TLSTrustRejection: Sendable, CustomStringConvertible {
    /// Why the client was rejected.
    public let failure: TLSTrustFailure
    /// The client's address, when the socket knew it.
    public let remoteAddress: SocketAddress?

    /// Whether the connection resumed a TLS session whose client was re-verified and rejected
    /// (a client revoked or expired since its session began).
    public let sessionResumed: Bool

    /// A rejection of the client at `remoteAddress` for `failure`.
    public init(failure: TLSTrustFailure, remoteAddress: SocketAddress?, sessionResumed: Bool = false) {
        self.failure = failure
        self.remoteAddress = remoteAddress
        self.sessionResumed = sessionResumed
    }

    /// The rejection `record` holds, if it holds one, of the client at `remoteAddress`.
    public init?(record: TLSPeerTrustRecord, remoteAddress: SocketAddress?) {
        guard let failure = record.failure else { return nil }
        self.init(failure: failure, remoteAddress: remoteAddress, sessionResumed: record.sessionResumed)
    }

    /// The address and the failure's summary.
    public var description: String { "\(remoteAddress.map { "\($0)" } ?? "client"): \(failure.summary)" }
}
