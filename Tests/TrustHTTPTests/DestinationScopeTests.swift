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
            ("192.0.2.1", .global), ("2001:db8::1", .global), ("fec0::1", .global),
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
}
