import TrustCore
import TrustHTTP
import XCTest

/// The special-purpose address registries (RFC 6890) as the no-local-destinations rule reads them.
final class DestinationScopeTests: XCTestCase {
    func testAddressesAreClassifiedAsTheSpecialPurposeRegistriesSay() throws {
        let table: [(String, DestinationScope)] = [
            ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("::1", .loopback), ("::ffff:127.0.0.1", .loopback),
            ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
            ("10.0.0.1", .privateUse), ("172.16.0.1", .privateUse), ("172.31.255.255", .privateUse), ("192.168.1.1", .privateUse),
            ("100.64.0.1", .privateUse), ("100.127.255.255", .privateUse), ("fc00::1", .privateUse), ("fdff::1", .privateUse),
            ("0.0.0.0", .unspecified), ("::", .unspecified),
            ("224.0.0.1", .multicastOrBroadcast), ("255.255.255.255", .multicastOrBroadcast), ("ff02::1", .multicastOrBroadcast),
            ("8.8.8.8", .global), ("172.32.0.1", .global), ("172.15.255.255", .global), ("100.128.0.1", .global),
            ("192.0.2.1", .documentation), ("198.51.100.7", .documentation), ("203.0.113.9", .documentation),
            ("2001:db8::1", .documentation), ("3fff::1", .documentation),
            ("198.18.0.1", .benchmarking), ("2001:2::1", .benchmarking),
            ("192.0.0.9", .reserved), ("240.0.0.1", .reserved), ("100::1", .reserved), ("2001:10::1", .reserved),
            ("5f00::1", .reserved), ("64:ff9b:1:a00:1::", .reserved), ("fec0::1", .privateUse),
            // Teredo (RFC 4380's example, client 192.0.2.45) and local-use NAT64 by their IPv4 address.
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", .documentation), ("64:ff9b:1::a00:1", .privateUse),
            // IPv6 forms that carry an IPv4 address are judged by it.
            ("64:ff9b::7f00:1", .loopback), ("64:ff9b::a00:1", .privateUse), ("64:ff9b::808:808", .global),
            ("2002:7f00:1::1", .loopback), ("2002:c0a8:101::1", .privateUse), ("2002:808:808::1", .global),
            ("::127.0.0.1", .loopback), ("::10.0.0.1", .privateUse), ("::8.8.8.8", .global), ("::2", .unspecified),
        ]
        for (text, scope) in table {
            let address = try XCTUnwrap(IPAddress(text), text)
            XCTAssertEqual(DestinationScope(address), scope, text)
            XCTAssertEqual(DestinationScope(address).isLocal, scope != .global, text)
        }
    }

    /// Every entry of the IANA IPv4 and IPv6 special-purpose address registries that is not
    /// globally reachable is local, and so are the addresses just inside each range's ends; the
    /// addresses just outside are public (issue 40 item 4).
    func testEveryRangeThatIsNotGloballyReachableIsLocal() throws {
        let local = [
            // IPv4 (RFC 6890 and its updates)
            "198.18.0.0", "198.19.255.255", // benchmarking, RFC 2544
            "192.0.0.0", "192.0.0.8", "192.0.0.9", "192.0.0.10", "192.0.0.170", "192.0.0.255", // IETF protocol assignments
            "192.0.2.0", "192.0.2.255", "198.51.100.0", "198.51.100.255", "203.0.113.0", "203.0.113.255", // TEST-NETs, RFC 5737
            "240.0.0.0", "240.0.0.1", "254.255.255.255", "255.255.255.254", "255.255.255.255", // reserved, RFC 1112; broadcast
            // IPv6
            "2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", // documentation, RFC 3849
            "3fff::", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", // documentation, RFC 9637
            "100::", "100::ffff:ffff:ffff:ffff", "100:0:0:1::1", // discard-only, RFC 6666; dummy, RFC 9780
            "fec0::", "fec0::1", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", // site-local, deprecated by RFC 3879
            "5f00::", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff", // SRv6 SIDs, RFC 9602
            "2001::", "2001:1::4", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", // IETF protocol assignments, RFC 2928
            "2001:1::1", "2001:1::2", "2001:1::3", // PCP, TURN, DNS-SD SRP anycast: the nearest server answers
            "2001:2::", "2001:2:0:ffff:ffff:ffff:ffff:ffff", "2001:2:1::", // benchmarking, RFC 5180 (and the /23 around it)
            "2001:10::", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff", // deprecated ORCHID, RFC 4843
            "2001:4:113::", // in the /23, beside AS112-v6
            // Local-use NAT64 (RFC 8215): the /96 form by its IPv4 address, any other form local.
            "64:ff9b:1::a00:1", "64:ff9b:1::7f00:1", "64:ff9b:1::c000:201", "64:ff9b:1:a00:1::", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
            // Teredo (RFC 4380 §4): the client's IPv4 address is the last 32 bits, inverted.
            "2001:0:4136:e378:8000:63bf:3fff:fdd2", // RFC 4380's own example: 192.0.2.45
            "2001:0:4136:e378:8000:63bf:f5ff:fffe", // 10.0.0.1
            "2001:0:4136:e378:8000:63bf:80ff:fffe", // 127.0.0.1
            // The IPv4-carrying forms reach the new IPv4 ranges too.
            "::ffff:192.0.2.1", "::ffff:198.18.0.1", "64:ff9b::c633:6401", "2002:cb00:7101::1", "::240.0.0.1",
        ]
        let global = [
            "198.17.255.255", "198.20.0.0", "191.255.255.255", "192.0.1.0", "192.0.1.255", "192.0.3.0",
            "198.51.99.255", "198.51.101.0", "203.0.112.255", "203.0.114.0",
            "192.88.99.1", // deprecated 6to4 relay anycast: not "false" in the registry
            "192.31.196.1", "192.52.193.1", "192.175.48.1", // AS112-v4, AMT, AS112 direct delegation: globally reachable
            "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::",
            "3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::",
            "ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "100:0:0:2::",
            "5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "5f01::",
            "2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:200::",
            "2001:3::1", "2001:4:112::1", "2001:20::1", "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff", "2001:30::1",
            "64:ff9b:1::808:808", "64:ff9b:0:ffff:ffff:ffff:ffff:ffff", "64:ff9b:2::",
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7", // Teredo, client 8.8.8.8
        ]
        for text in local {
            let address = try XCTUnwrap(IPAddress(text), text)
            XCTAssertTrue(DestinationScope(address).isLocal, "\(text) is \(DestinationScope(address))")
        }
        for text in global {
            let address = try XCTUnwrap(IPAddress(text), text)
            XCTAssertEqual(DestinationScope(address), .global, text)
        }
    }
}
