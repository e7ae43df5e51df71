import NIOCore
import TrustSession

/// One connection a server refused because SwiftTrust rejected its client's certificate: the
/// typed reason from that connection's own `TLSPeerTrustRecord`, and who connected.
public struct TLSTrustRejection: Sendable, CustomStringConvertible {
    /// Why the client was rejected.
    public let failure: TLSTrustFailure
    /// The client's address, when the socket knew it.
    public let remoteAddress: SocketAddress?

    /// A rejection of the client at `remoteAddress` for `failure`.
    public init(failure: TLSTrustFailure, remoteAddress: SocketAddress?) {
        self.failure = failure
        self.remoteAddress = remoteAddress
    }

    /// The address and the failure's summary.
    public var description: String { "\(remoteAddress.map { "\($0)" } ?? "client"): \(failure.summary)" }
}
