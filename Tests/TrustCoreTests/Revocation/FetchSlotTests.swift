import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustHTTP
import XCTest

/// Issue 40 item 5: one peer cannot hold every fetch slot. caIssuers downloads (URLs a peer chose
/// before anything was verified) have their own small pool; the per-host limit keys on the
/// address connected to (or a name's registrable domain), not on the name and port the URL spells.
/// Loopback responders that accept and never answer stand in for slow hosts.
final class FetchSlotTests: XCTestCase {
    private var responders: [LoopbackResponder] = []

    override func tearDown() {
        for responder in responders { responder.stop() }
        responders = []
        super.tearDown()
    }

    private func responder(_ behaviour: LoopbackResponder.Behaviour) throws -> LoopbackResponder {
        let responder = try LoopbackResponder(behaviour)
        responders.append(responder)
        return responder
    }

    /// Waits up to `seconds` until `condition` holds, then a little longer for stragglers.
    private func settle(_ seconds: Double, until condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(), Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        try await Task.sleep(nanoseconds: 300_000_000)
    }

    /// What `operation` returns if it finishes within `seconds` (nil otherwise, or when it throws; it is then cancelled).
    private func result(within seconds: Double, _ operation: @escaping @Sendable () async throws -> [UInt8]) async -> [UInt8]? {
        await withTaskGroup(of: [UInt8]?.self) { group in
            group.addTask { try? await operation() }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    func testCAIssuersDownloadsCannotHoldTheSlotsOfRevocationFetches() async throws {
        // Eight caIssuers downloads from four silent hosts: before, they held all eight slots of the one pool.
        let silent = try (0..<4).map { _ in try responder(.silent) }
        let fetcher = HTTPRevocationFetcher(timeout: 20, allowsLocalAddresses: true)
        let issuers = (0..<8).map { index in
            Task { try await fetcher.fetchIssuerCertificates(from: "http://127.0.0.1:\(silent[index % 4].port)/\(index).crt") }
        }
        defer { for task in issuers { task.cancel() } }
        try await settle(3) { silent.map(\.accepted).reduce(0, +) >= 2 }
        XCTAssertLessThanOrEqual(
            silent.map(\.accepted).reduce(0, +), HTTPRevocationFetcher.concurrentIssuerFetches,
            "caIssuers downloads held at once")

        // A CRL fetch of a validated chain still gets a slot at once.
        let crl = Array("not a CRL, but 200 OK".utf8)
        let answering = try responder(.answers(body: crl))
        let fetched = await result(within: 3) { try await fetcher.fetchCRL(from: "http://127.0.0.1:\(answering.port)/ca.crl") }
        XCTAssertEqual(fetched, crl, "the CRL fetch waited behind caIssuers downloads")
    }

    func testTheCAIssuersPerHostLimitKeysOnTheAddressNotThePort() async throws {
        // Three silent "hosts" on one address, a peer spreading its caIssuers URLs over ports: one host.
        let silent = try (0..<3).map { _ in try responder(.silent) }
        let fetcher = HTTPRevocationFetcher(timeout: 20, allowsLocalAddresses: true)
        let tasks = silent.map { responder in
            Task { try await fetcher.fetchIssuerCertificates(from: "http://127.0.0.1:\(responder.port)/ca.crt") }
        }
        defer { for task in tasks { task.cancel() } }
        try await settle(3) { silent.map(\.accepted).reduce(0, +) >= 1 }
        XCTAssertEqual(silent.map(\.accepted).reduce(0, +), 1, "caIssuers connections to 127.0.0.1 held at once")
    }
}
