import TrustCore

/// The kind of network an IP address belongs to, after the IANA special-purpose address registries
/// (RFC 6890, RFC 8190; iana.org/assignments/iana-ipv4-special-registry and
/// iana-ipv6-special-registry): what SwiftTrust's rule "never connect to loopback, link-local or
/// private addresses unless the configuration allows it" is decided on. A certificate or a
/// configuration file names the URL; without this rule it could point a connection at the host
/// itself or at its internal network.
///
/// Every registry entry whose "Globally Reachable" is false is local, and so is every address of
/// a block the registry reserves "unless by virtue of a more specific reservation" (192.0.0.0/24,
/// 2001::/23) outside its globally reachable entries. The anycast entries marked globally
/// reachable there but answered by the nearest server, which is a device of the local network
/// (PCP, RFC 7723; TURN, RFC 8155; DNS-SD SRP, RFC 9665), count as local too: no CA publishes
/// there. Entries marked "N/A" (6to4, Teredo, the deprecated 6to4 relay anycast 192.88.99.0/24)
/// are judged by where a connection goes: the IPv4 address they carry, or public.
package enum DestinationScope: Hashable, Sendable, CustomStringConvertible {
    /// Any other address.
    case global
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 169.254.0.0/16, fe80::/10.
    case linkLocal
    /// 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918), 100.64.0.0/10 (RFC 6598, shared
    /// address space), fc00::/7 (RFC 4193 unique local), fec0::/10 (site-local, deprecated by
    /// RFC 3879 and replaced by fc00::/7; still routed as private where configured).
    case privateUse
    /// 0.0.0.0/8, :: (this host, on some systems).
    case unspecified
    /// 224.0.0.0/4, 255.255.255.255, ff00::/8: not a single peer.
    case multicastOrBroadcast
    /// 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 (RFC 5737), 2001:db8::/32 (RFC 3849),
    /// 3fff::/20 (RFC 9637): for examples, never a real host.
    case documentation
    /// 198.18.0.0/15 (RFC 2544), 2001:2::/48 (RFC 5180): for testing network equipment in a lab.
    case benchmarking
    /// Reserved or for one protocol, and not globally reachable: 192.0.0.0/24 (RFC 6890 §2.2.2),
    /// 240.0.0.0/4 (RFC 1112), 100::/64 (discard-only, RFC 6666), 100:0:0:1::/64 (dummy, RFC 9780),
    /// 2001::/23 outside its globally reachable entries (RFC 2928; ORCHID 2001:10::/28, RFC 4843,
    /// among them), 5f00::/16 (SRv6 SIDs, RFC 9602), and the local-use NAT64 prefix 64:ff9b:1::/48
    /// (RFC 8215) in any form but the /96 one.
    case reserved

    /// The scope of `address`; an IPv6 address that carries an IPv4 address has that address's.
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

    /// "loopback", "link-local", "private-use", "unspecified", "multicast or broadcast",
    /// "documentation", "benchmarking", "reserved" or "global".
    package var description: String {
        switch self {
        case .global: return "global"
        case .loopback: return "loopback"
        case .linkLocal: return "link-local"
        case .privateUse: return "private-use"
        case .unspecified: return "unspecified"
        case .multicastOrBroadcast: return "multicast or broadcast"
        case .documentation: return "documentation"
        case .benchmarking: return "benchmarking"
        case .reserved: return "reserved"
        }
    }

    private static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> DestinationScope {
        switch (a, b, c) {
        case (0, _, _): return .unspecified
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (10, _, _), (172, 16...31, _), (192, 168, _), (100, 64...127, _): return .privateUse
        // 192.0.0.9 (PCP anycast) and 192.0.0.10 (TURN anycast) are globally reachable in the
        // registry, but the nearest PCP or TURN server answers them, the local network's: local.
        case (192, 0, 0): return .reserved
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): return .documentation
        case (198, 18...19, _): return .benchmarking
        case (224...239, _, _): return .multicastOrBroadcast
        case (240...255, _, _): return (a, b, c, d) == (255, 255, 255, 255) ? .multicastOrBroadcast : .reserved
        default: return .global
        }
    }

    private static func ipv6(_ bytes: [UInt8]) -> DestinationScope {
        if let carried = carriedIPv4(bytes) { return carried }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) {
            switch bytes[15] {
            case 0: return .unspecified
            case 1: return .loopback
            default: break
            }
        }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) {
            // The deprecated IPv4-compatible form (::a.b.c.d, RFC 4291 §2.5.5.1).
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] & 0xfe == 0 { return ietfProtocolAssignment(bytes) } // 2001::/23
        if bytes[0..<4] == [0x20, 0x01, 0x0d, 0xb8] { return .documentation } // 2001:db8::/32, RFC 3849
        if bytes[0] == 0x3f, bytes[1] == 0xff, bytes[2] & 0xf0 == 0 { return .documentation } // 3fff::/20, RFC 9637
        // 100::/64 (discard-only, RFC 6666) and 100:0:0:1::/64 (dummy, RFC 9780).
        if bytes[0] == 0x01, bytes[1] == 0x00, bytes[2..<7].allSatisfy({ $0 == 0 }), bytes[7] <= 1 { return .reserved }
        if bytes[0] == 0x5f, bytes[1] == 0x00 { return .reserved } // 5f00::/16, SRv6 SIDs (RFC 9602)
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return .linkLocal }
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0xc0 { return .privateUse } // fec0::/10, site-local (RFC 3879)
        if bytes[0] & 0xfe == 0xfc { return .privateUse }
        if bytes[0] == 0xff { return .multicastOrBroadcast }
        return .global
    }

    /// The scope of the IPv4 address an IPv6 address carries, which is where a connection to it
    /// goes; nil for an address that carries none.
    private static func carriedIPv4(_ bytes: [UInt8]) -> DestinationScope? {
        // IPv4-mapped (::ffff:0:0/96, RFC 4291 §2.5.5.2).
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        // NAT64, the well-known prefix 64:ff9b::/96 (RFC 6052 §2.1).
        if bytes[0..<4] == [0x00, 0x64, 0xff, 0x9b], bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        // The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) may embed the IPv4 address after a
        // prefix of any RFC 6052 length, so only its /96 form (64:ff9b:1::a.b.c.d) says which
        // address is reached; every other form of it is local.
        if bytes[0..<6] == [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01] {
            guard bytes[6..<12].allSatisfy({ $0 == 0 }) else { return .reserved }
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        // 6to4 (2002::/16, RFC 3056 §2): the IPv4 address in bytes 2 to 5.
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return ipv4(bytes[2], bytes[3], bytes[4], bytes[5])
        }
        // Teredo (2001::/32, RFC 4380 §4): the client's IPv4 address is the last 32 bits, each
        // inverted ("obfuscated"); a relay delivers the packets there.
        if bytes[0..<4] == [0x20, 0x01, 0x00, 0x00] {
            return ipv4(~bytes[12], ~bytes[13], ~bytes[14], ~bytes[15])
        }
        return nil
    }

    /// 2001::/23, IETF protocol assignments (RFC 2928): not globally reachable but for these
    /// entries of the registry (Teredo, 2001::/32, is judged by its client's IPv4 address first).
    private static func ietfProtocolAssignment(_ bytes: [UInt8]) -> DestinationScope {
        let (third, fourth) = (bytes[2], bytes[3])
        if third == 0, fourth == 0x02, bytes[4] == 0, bytes[5] == 0 { return .benchmarking } // 2001:2::/48, RFC 5180
        if third == 0, fourth == 0x03 { return .global } // 2001:3::/32, AMT (RFC 7450)
        if bytes[2..<6] == [0x00, 0x04, 0x01, 0x12] { return .global } // 2001:4:112::/48, AS112-v6 (RFC 7535)
        if third == 0, fourth & 0xf0 == 0x20 { return .global } // 2001:20::/28, ORCHIDv2 (RFC 7343)
        if third == 0, fourth & 0xf0 == 0x30 { return .global } // 2001:30::/28, DRIP DETs (RFC 9374)
        // 2001:1::1, 2001:1::2 and 2001:1::3 (PCP, TURN, DNS-SD SRP anycast) reach the nearest
        // server, a local one: local, like the rest of the block.
        return .reserved
    }
}
