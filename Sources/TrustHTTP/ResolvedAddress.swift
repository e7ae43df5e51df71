#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrustCore

/// One address a host name resolved to, as `connect` takes it, with the IP address it names (what
/// ``DestinationScope`` judges before anything connects to it).
package struct ResolvedAddress: Hashable, Sendable {
    /// The IP address.
    package let ip: IPAddress
    /// The port.
    package let port: Int
    /// `AF_INET` or `AF_INET6`.
    let family: Int32
    /// The `sockaddr_in` or `sockaddr_in6` bytes.
    let socketAddress: [UInt8]

    /// Reads one `getaddrinfo` entry (nil for other families).
    init?(_ info: addrinfo, port: Int) {
        guard let pointer = info.ai_addr, info.ai_addrlen > 0 else { return nil }
        let bytes = Array(UnsafeRawBufferPointer(start: pointer, count: Int(info.ai_addrlen)))
        let address: IPAddress?
        switch info.ai_family {
        case AF_INET:
            address = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                withUnsafeBytes(of: sin.pointee.sin_addr) { IPAddress(bytes: $0) }
            }
        case AF_INET6:
            address = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                withUnsafeBytes(of: sin6.pointee.sin6_addr) { IPAddress(bytes: $0) }
            }
        default:
            address = nil
        }
        guard let address else { return nil }
        ip = address
        self.port = port
        family = info.ai_family
        socketAddress = bytes
    }

    /// Whether the address is local (``DestinationScope``): loopback, link-local, private-use, …
    package var scope: DestinationScope { DestinationScope(ip) }
}

extension Array where Element == ResolvedAddress {
    /// The addresses `host` resolved to that may be connected to: every one when local addresses
    /// are allowed, else the public ones (``DestinationScope``), judged before any connection is
    /// made, so a local listener never sees so much as a TCP handshake. None public: throws
    /// ``FetchFailureReason/localDestinationRefused(host:address:scope:)`` naming the last one.
    package func permitted(for host: String, allowsLocalAddresses: Bool) throws(FetchFailureReason) -> [ResolvedAddress] {
        if allowsLocalAddresses { return self }
        let publicOnes = filter { !$0.scope.isLocal }
        guard publicOnes.isEmpty, let last else { return publicOnes }
        throw .localDestinationRefused(host: host, address: last.ip.description, scope: last.scope.description)
    }
}
