import TrustCore

/// The kind of network an IP address belongs to, after the IANA special-purpose address registries
/// (RFC 6890, RFC 8190): what SwiftTrust's rule "never connect to loopback, link-local or private
/// addresses unless the configuration allows it" is decided on. A certificate or a configuration
/// file names the URL; without this rule it could point a connection at the host itself or at its
/// internal network.
package enum DestinationScope: Hashable, Sendable, CustomStringConvertible {
    /// Any other address.
    case global
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 169.254.0.0/16, fe80::/10.
    case linkLocal
    /// 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918), 100.64.0.0/10 (RFC 6598, shared
    /// address space), fc00::/7 (RFC 4193 unique local).
    case privateUse
    /// 0.0.0.0/8, :: (this host, on some systems).
    case unspecified
    /// 224.0.0.0/4, 255.255.255.255, ff00::/8: not a single peer.
    case multicastOrBroadcast

    /// The scope of `address`; an IPv4-mapped IPv6 address (::ffff:0:0/96) has its IPv4 address's.
    package init(_ address: IPAddress) {
        let bytes = address.bytes
        if bytes.count == 4 {
            self = Self.ipv4(bytes[0], bytes[1], bytes[2], bytes[3])
        } else if bytes.count == 16 {
            self = Self.ipv6(bytes)
        } else {
            self = .unspecified
        }
    }

    /// Whether the address is not a public one.
    package var isLocal: Bool { self != .global }

    /// "loopback", "link-local", "private-use", "unspecified", "multicast or broadcast" or "global".
    package var description: String {
        switch self {
        case .global: return "global"
        case .loopback: return "loopback"
        case .linkLocal: return "link-local"
        case .privateUse: return "private-use"
        case .unspecified: return "unspecified"
        case .multicastOrBroadcast: return "multicast or broadcast"
        }
    }

    private static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> DestinationScope {
        switch (a, b) {
        case (0, _): return .unspecified
        case (127, _): return .loopback
        case (169, 254): return .linkLocal
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return .privateUse
        case (224...239, _): return .multicastOrBroadcast
        default: return (a, b, c, d) == (255, 255, 255, 255) ? .multicastOrBroadcast : .global
        }
    }

    private static func ipv6(_ bytes: [UInt8]) -> DestinationScope {
        // Addresses that carry an IPv4 address reach that address: IPv4-mapped (::ffff:0:0/96),
        // NAT64 (64:ff9b::/96, RFC 6052) and the deprecated IPv4-compatible form (::a.b.c.d) in the
        // last four bytes, 6to4 (2002::/16, RFC 3056) in bytes 2 to 5. Each is judged by it.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0..<4] == [0x00, 0x64, 0xff, 0x9b], bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return ipv4(bytes[2], bytes[3], bytes[4], bytes[5])
        }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) {
            switch bytes[15] {
            case 0: return .unspecified
            case 1: return .loopback
            default: break
            }
        }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return .linkLocal }
        if bytes[0] & 0xfe == 0xfc { return .privateUse }
        if bytes[0] == 0xff { return .multicastOrBroadcast }
        return .global
    }
}
