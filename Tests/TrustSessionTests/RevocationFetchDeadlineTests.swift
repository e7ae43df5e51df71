import Foundation
import Synchronization
import TrustCore
import TrustHTTP
import TrustSession
import TrustX509
import OpenSSLServerSupport
import TrustTestSupport
import XCTest

/// One deadline per evaluation for all revocation fetching (issue 34 item 3), through the decision a
/// handshake makes, against responders on 127.0.0.1 that each test starts and stops: one that
/// accepts and never answers, one that never accepts, one that answers. The real HTTP client
/// (`HTTPRevocationFetcher`, a 10 s request timeout) does the fetching; the certificates' CRL URL
/// is rewritten to the responder's. Time bounds are generous (deadline + 2 s), never measurements.
final class RevocationFetchDeadlineTests: XCTestCase {
    private static let root = TestCertificates.directory
    private static let host = "www.swifttrust.test"

    private var responders: [LoopbackResponder] = []

    override func tearDown() {
        for responder in responders { responder.stop() }
        responders = []
        super.tearDown()
    }

    private func start(_ behaviour: LoopbackResponder.Behaviour) throws -> LoopbackResponder {
        let responder = try LoopbackResponder(behaviour)
        responders.append(responder)
        return responder
    }

    private func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: Array(Data(contentsOf: Self.root.appendingPathComponent(relative))))
    }

    /// The good leaf and its intermediate: trusted under the test root, CRL at the intermediate's URL.
    private func presented() throws -> [Certificate] {
        try certificates("revocation/good-leaf.pem") + certificates("ecdsa/intermediate.pem")
    }

    /// Settings that check the leaf's CRL (the root's is supplied) through `fetcher`, giving up
    /// fetching after `deadline`.
    private func settings(
        _ revocation: RevocationOptions, fetcher: any RevocationFetcher,
        deadline: Duration
    ) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try certificates("ecdsa/root.pem"))
        settings.verifyDate = Date(timeIntervalSince1970: 1_780_272_000)
        settings.revocation = revocation
        let rootCRL = try CertificateRevocationList(
            derEncoded: Array(Data(contentsOf: Self.root.appendingPathComponent("revocation/root-empty.crl"))))
        settings.configure = { trust in trust.setCRLs([rootCRL]) }
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: nil)
        settings.revocationFetchDeadline = deadline
        return settings
    }

    /// A fetcher that sends every request to `responder` through a real HTTP client without a cache.
    private func fetcher(to responder: LoopbackResponder) -> LoopbackFetcher {
        LoopbackFetcher(base: HTTPRevocationFetcher(timeout: 10, allowsLocalAddresses: true), url: "http://127.0.0.1:\(responder.port)/ca.crl")
    }

    private func leafStatus(_ outcome: TLSTrustOutcome) -> RevocationStatus? {
        guard case let .trusted(peer) = outcome else { return nil }
        return peer.evaluation?.revocationStatuses.first { $0.index == 0 }?.status
    }

    private func isRevocationUnavailable(_ outcome: TLSTrustOutcome) -> Bool {
        guard case let .rejected(failure) = outcome else { return false }
        return failure.trustFailures.contains { if case .revocationUnavailable = $0.reason { true } else { false } }
    }

    /// Waits (at most `seconds`) until `condition` holds.
    private func eventually(seconds: Double = 3, _ condition: () -> Bool) async throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !condition(), Date() < end { try await Task.sleep(for: .milliseconds(20)) }
        return condition()
    }

    // MARK: A responder that never answers

    func testASilentResponderCostsTheDeadlineAndSoftFailAccepts() async throws {
        let silent = try start(.silent)
        let decider = try TLSTrustDecider(settings: settings([.crl], fetcher: fetcher(to: silent), deadline: .seconds(1)))
        let started = Date()
        let outcome = await decider.decide(try presented(), role: .server(host: Self.host))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertLessThan(elapsed, 3, "the 1 s deadline ends the fetch, not the 10 s request timeout")
        guard case .unknown? = leafStatus(outcome) else { return XCTFail("soft fail accepts with the status unknown: \(outcome)") }
        XCTAssertEqual(silent.accepted, 1)
        let reached = try await eventually { silent.closedByClient == 1 }
        XCTAssertTrue(reached, "the abandoned request closed its connection")
    }

    func testASilentResponderUnderHardFailIsRejectedAsRevocationUnavailable() async throws {
        let silent = try start(.silent)
        let decider = try TLSTrustDecider(
            settings: settings(
                [.crl, .requirePositiveResponse], fetcher: fetcher(to: silent),
                deadline: .seconds(1)))
        let started = Date()
        let outcome = await decider.decide(try presented(), role: .server(host: Self.host))
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertTrue(isRevocationUnavailable(outcome), "a timeout never accepts under hard fail: \(outcome)")
    }

    func testAResponderThatNeverAcceptsCostsTheDeadline() async throws {
        let deaf = try start(.neverAccepts)
        for revocation: RevocationOptions in [[.crl], [.crl, .requirePositiveResponse]] {
            let decider = try TLSTrustDecider(settings: settings(revocation, fetcher: fetcher(to: deaf), deadline: .seconds(1)))
            let started = Date()
            let outcome = await decider.decide(try presented(), role: .server(host: Self.host))
            XCTAssertLessThan(Date().timeIntervalSince(started), 3, "\(revocation)")
            if revocation.contains(.requirePositiveResponse) {
                XCTAssertTrue(isRevocationUnavailable(outcome), "\(outcome)")
            } else {
                guard case .unknown? = leafStatus(outcome) else { return XCTFail("soft fail: \(outcome)") }
            }
        }
        XCTAssertEqual(deaf.accepted, 0)
    }

    /// A fetcher stuck where cancellation cannot reach it (as a thread in `getaddrinfo` is): the
    /// evaluation stops waiting at its deadline all the same.
    func testTheDeadlineHoldsAgainstAFetcherThatIgnoresCancellation() async throws {
        let stuck = StuckFetcher()
        defer { stuck.release() }
        for revocation: RevocationOptions in [[.crl], [.crl, .requirePositiveResponse]] {
            let decider = try TLSTrustDecider(settings: settings(revocation, fetcher: stuck, deadline: .seconds(1)))
            let started = Date()
            let outcome = await decider.decide(try presented(), role: .server(host: Self.host))
            XCTAssertLessThan(Date().timeIntervalSince(started), 3, "\(revocation)")
            XCTAssertEqual(revocation.contains(.requirePositiveResponse), isRevocationUnavailable(outcome), "\(outcome)")
        }
        XCTAssertEqual(stuck.calls, 2)
    }

    func testNoTimeForFetchingFetchesNothing() async throws {
        let silent = try start(.silent)
        let decider = try TLSTrustDecider(settings: settings([.crl, .requirePositiveResponse], fetcher: fetcher(to: silent), deadline: .zero))
        let outcome = await decider.decide(try presented(), role: .server(host: Self.host))
        XCTAssertTrue(isRevocationUnavailable(outcome), "\(outcome)")
        XCTAssertEqual(silent.accepted, 0)
    }

    func testTheDefaultDeadlineIsFiveSeconds() {
        XCTAssertEqual(TLSTrustSettings().revocationFetchDeadline, .seconds(5))
        XCTAssertEqual(ServerTrust.defaultRevocationFetchDeadline, .seconds(5))
    }

    // MARK: Cancellation

    func testCancellingTheDecisionStopsTheFetchPromptly() async throws {
        let silent = try start(.silent)
        let decider = try TLSTrustDecider(
            settings: settings(
                [.crl, .requirePositiveResponse], fetcher: fetcher(to: silent),
                deadline: .seconds(30)))
        let presented = try presented()
        let role = TLSPeerRole.server(host: Self.host)
        let task = Task { await decider.decide(presented, role: role) }
        let reached = try await eventually { silent.accepted == 1 }
        XCTAssertTrue(reached, "the fetch reached the responder")
        let cancelled = Date()
        task.cancel()
        let outcome = await task.value
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1.5, "cancellation ends the wait, not the 30 s deadline")
        XCTAssertTrue(isRevocationUnavailable(outcome), "a cancelled fetch never accepts under hard fail: \(outcome)")
        let closed = try await eventually { silent.closedByClient == 1 }
        XCTAssertTrue(closed, "the in-flight request closed its connection")
    }

    // MARK: Fair use of the fetch slots

    /// Twelve handshakes stuck on a responder that never answers (more than the eight process-wide
    /// request slots) do not hold up one whose responder answers: one host gets at most two slots.
    func testHandshakesStuckOnABlackholeDoNotStarveOthers() async throws {
        let silent = try start(.silent)
        let crl = try Array(Data(contentsOf: Self.root.appendingPathComponent("revocation/intermediate-current.crl")))
        let answering = try start(.answers(body: crl))
        let stuck = try TLSTrustDecider(settings: settings([.crl], fetcher: fetcher(to: silent), deadline: .seconds(30)))
        let presented = try presented()
        let role = TLSPeerRole.server(host: Self.host)
        let blocked = (0..<12).map { _ in Task { await stuck.decide(presented, role: role) } }
        let reached = try await eventually { silent.accepted >= 2 }
        XCTAssertTrue(reached)
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(silent.accepted, 2, "one host holds at most two request slots")

        // Hard fail: trusted only if the CRL was really fetched while the others wait.
        let fair = try TLSTrustDecider(
            settings: settings(
                [.crl, .requirePositiveResponse], fetcher: fetcher(to: answering),
                deadline: .seconds(10)))
        let started = Date()
        let outcome = await fair.decide(presented, role: role)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "not queued behind the blackhole")
        guard case .good? = leafStatus(outcome) else { return XCTFail("the answering responder's CRL was used: \(outcome)") }

        let cancelled = Date()
        for task in blocked { task.cancel() }
        for task in blocked { _ = await task.value }
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 2, "queued and in-flight fetches end on cancellation")
        let closed = try await eventually { silent.closedByClient == silent.accepted }
        XCTAssertTrue(closed, "every held connection was closed")
    }
}

/// Sends every request to one loopback URL through `base`; keeps no cache (each test fetches anew).
private struct LoopbackFetcher: RevocationFetcher {
    let base: HTTPRevocationFetcher
    let url: String

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { try await base.fetch(request.redirected(to: url)) }
}

/// A fetcher whose requests block a thread until the test releases them, deaf to cancellation.
private final class StuckFetcher: RevocationFetcher {
    private let gate = DispatchSemaphore(value: 0)
    private let count = Atomic<Int>(0)
    private let released = Atomic<Bool>(false)

    var calls: Int { count.load(ordering: .relaxed) }

    /// Lets every blocked request (and any later one) go.
    func release() {
        guard !released.exchange(true, ordering: .relaxed) else { return }
        for _ in 0..<16 { gate.signal() }
    }

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        count.add(1, ordering: .relaxed)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [gate] in
                _ = gate.wait(timeout: .now() + 20)
                continuation.resume()
            }
        }
        throw URLError(.timedOut)
    }
}
