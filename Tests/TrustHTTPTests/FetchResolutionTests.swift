import Foundation
import TrustCore
@testable import TrustHTTP
import XCTest

/// Issue 40 item 5: the per-host fetch limit's key (registrable domain or address, never the port
/// or the peer's choice of subdomain), and name resolution bounded by the deadline and in number.
final class FetchResolutionTests: XCTestCase {
    func testThePerHostKeyIsTheRegistrableDomainOrTheAddress() {
        XCTAssertEqual(FetchHostKey.key(for: "a1.evil.example.com"), "example.com")
        XCTAssertEqual(FetchHostKey.key(for: "A2.Evil.Example.COM."), "example.com")
        XCTAssertEqual(FetchHostKey.key(for: "crl.example.co.uk"), "example.co.uk")
        XCTAssertNotEqual(FetchHostKey.key(for: "alice.github.io"), FetchHostKey.key(for: "bob.github.io"), "a private-section suffix")
        XCTAssertEqual(FetchHostKey.key(for: "localhost"), "localhost")
        XCTAssertEqual(FetchHostKey.key(for: "127.0.0.1"), "127.0.0.1")
        XCTAssertEqual(FetchHostKey.key(for: "::1"), FetchHostKey.key(for: "0:0:0:0:0:0:0:1"))
        // caIssuers: the port never counts; a CA's CRL and OCSP services on two ports are two hosts.
        XCTAssertEqual(
            FetchHostKey.key(for: "a.evil.example.com", port: 1, pool: .issuers),
            FetchHostKey.key(for: "b.evil.example.com", port: 2, pool: .issuers))
        XCTAssertNotEqual(
            FetchHostKey.key(for: "127.0.0.1", port: 1, pool: .revocation), FetchHostKey.key(for: "127.0.0.1", port: 2, pool: .revocation))
        XCTAssertEqual(
            FetchHostKey.key(for: "ocsp.ca.example.com", port: 80, pool: .revocation),
            FetchHostKey.key(for: "crl.ca.example.com", port: 80, pool: .revocation))
    }

    /// A lookup that blocks for `seconds` before answering 127.0.0.1 (as a slow DNS server would).
    private func slowLookup(_ seconds: Double) -> NameResolver.Lookup {
        { _, port in
            Thread.sleep(forTimeInterval: seconds)
            return NameResolver.systemLookup("127.0.0.1", port)
        }
    }

    func testAResolutionIsWaitedForNoLongerThanTheDeadline() async throws {
        let resolver = NameResolver(maximumOutstanding: 4, lookup: slowLookup(1.5))
        let started = ContinuousClock.now
        do {
            _ = try await resolver.resolve("slow.example", port: 80, until: .now + .milliseconds(200)) { .timedOut(seconds: 0.2) }
            XCTFail("resolved")
        } catch {
            XCTAssertEqual(error, .timedOut(seconds: 0.2))
        }
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(800))
        XCTAssertEqual(resolver.outstandingLookups, 1, "the lookup itself cannot be interrupted")
        try await Task.sleep(nanoseconds: 2_000_000_000)
        XCTAssertEqual(resolver.outstandingLookups, 0)
    }

    func testOutstandingResolutionsAreCappedAndOnePeersNamesCannotTakeThemAll() async throws {
        // Names under evil-peer.com never answer in time; one lookup of them at a time.
        let resolver = NameResolver(maximumOutstanding: 3, perHostLimit: 1) { host, port in
            if host.hasSuffix("evil-peer.com") { Thread.sleep(forTimeInterval: 1.5) }
            return NameResolver.systemLookup("127.0.0.1", port)
        }
        for index in 1...4 {
            let started = ContinuousClock.now
            do {
                _ = try await resolver.resolve("a\(index).evil-peer.com", port: 80, until: .now + .milliseconds(100)) { .timedOut(seconds: 0.1) }
                XCTFail("resolved")
            } catch {
                XCTAssertEqual(error, .timedOut(seconds: 0.1))
            }
            XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(600), "waited past the deadline")
        }
        XCTAssertEqual(resolver.outstandingLookups, 1, "the peer's names hold one lookup, the others waited and left")
        // Another name resolves at once meanwhile.
        let addresses = try await resolver.resolve("crl.ca.example.com", port: 80, until: .now + .seconds(1)) { .timedOut(seconds: 1) }
        XCTAssertEqual(addresses.map(\.ip.description), ["127.0.0.1"])

        // The total cap: three slow names of three domains hold every lookup; a fourth waits.
        let capped = NameResolver(maximumOutstanding: 3, lookup: slowLookup(1))
        for name in ["a.one.example", "b.two.example", "c.three.example"] {
            _ = try? await capped.resolve(name, port: 80, until: .now + .milliseconds(50)) { .timedOut(seconds: 0.05) }
        }
        XCTAssertEqual(capped.outstandingLookups, 3)
        do {
            _ = try await capped.resolve("d.four.example", port: 80, until: .now + .milliseconds(200)) { .timedOut(seconds: 0.2) }
            XCTFail("resolved past the cap")
        } catch {
            XCTAssertEqual(error, .timedOut(seconds: 0.2))
        }
        XCTAssertEqual(capped.outstandingLookups, 3, "no thread beyond the cap")
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let later = try await capped.resolve("e.five.example", port: 80, until: .now + .seconds(3)) { .timedOut(seconds: 3) }
        XCTAssertEqual(later.count, 1, "the cap frees as lookups end")
    }

    func testAnAddressIsNotLookedUpAndLocalOnesAreRefusedBeforeConnecting() async throws {
        let resolver = NameResolver(maximumOutstanding: 1, lookup: { host, _ in .failure(.cannotResolve(host: "looked up: \(host)")) })
        let addresses = try await resolver.resolve("127.0.0.1", port: 8080, until: .now + .seconds(1)) { .timedOut(seconds: 1) }
        XCTAssertEqual(addresses.map(\.port), [8080])
        XCTAssertThrowsError(try addresses.permitted(for: "127.0.0.1", allowsLocalAddresses: false)) { error in
            XCTAssertEqual(error as? FetchFailureReason, .localDestinationRefused(host: "127.0.0.1", address: "127.0.0.1", scope: "loopback"))
        }
        XCTAssertEqual(try addresses.permitted(for: "127.0.0.1", allowsLocalAddresses: true), addresses)
    }
}
