import Foundation
import Synchronization
import TrustCore
import TrustHTTP
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// `evaluate(fetchingWith:cache:)` and `HTTPRevocationFetcher` against real servers on loopback, started
/// and stopped by each test: `openssl ocsp` as the OCSP responder, `python3 -m http.server` as the
/// CRL distribution point, and small inline python servers that hang, flood, or reset.
///
/// The certificates carry the AIA URL http://ocsp.swifttrust.test and the CRL DP
/// http://crl.swifttrust.test/ecdsa-intermediate.crl; a ``RewritingFetcher`` maps those to
/// http://127.0.0.1:PORT/… and forwards to a real ``HTTPRevocationFetcher``, so the real HTTP client
/// is exercised while the recorded sources keep the certificates' own URLs.
///
/// Skipped (XCTSkip) only when `openssl` or `python3` is not installed.
final class RevocationNetworkTests: XCTestCase {
    typealias Kit = RevocationKit

    private var servers: [LoopbackServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    // MARK: Servers

    private func requireTool(_ name: String) throws -> String {
        guard let path = LoopbackServer.executable(name) else { throw XCTSkip("\(name) is not installed") }
        return path
    }

    /// `openssl ocsp` answering from revocation/ocsp-index.txt at the real current time (-ndays 7).
    private func startOCSPResponder(requests: Int, delegated: Bool = false) throws -> (LoopbackServer, Int) {
        let openssl = try requireTool("openssl")
        let signer =
            delegated
            ? ["-rsigner", "revocation/ocsp-responder.pem", "-rkey", "revocation/keys/ocsp-responder.key.pem"]
            : ["-rsigner", "ecdsa/intermediate.pem", "-rkey", "keys/ecdsa/intermediate.key.pem"]
        let server = LoopbackServer(
            executable: openssl,
            arguments: [
                "ocsp", "-index", "revocation/ocsp-index.txt", "-port", "0", "-nrequest", "\(requests)",
                "-CA", "ecdsa/intermediate.pem",
            ] + signer + ["-ndays", "7"],
            directory: TestCertificates.directory.path)
        servers.append(server)
        // "ACCEPT [::]:PORT PID=N"
        let port = try server.start { line in
            guard let range = line.range(of: "ACCEPT [::]:") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        return (server, port)
    }

    /// `python3 -m http.server` serving TestCertificates/revocation (or `directory`).
    private func startCRLServer(directory: String = TestCertificates.path("revocation")) throws -> (LoopbackServer, Int) {
        let (server, port) = try LoopbackServer.fileServer(directory: directory)
        servers.append(server)
        return (server, port)
    }

    /// A python TCP server: `hang` accepts and never answers (printing `ACCEPT` per connection);
    /// `flood` answers 200 with an endless body; `reset` reads a little of the request and resets the
    /// connection; `halfclose` reads nothing, closes its sending side, then closes the connection
    /// (the client, mid-request, gets EPIPE on its next write); `redirect` answers 302; `echo`
    /// answers 200 with the request it received (head and body) as the body.
    private func startMisbehavingServer(_ mode: String) throws -> (LoopbackServer, Int) {
        let python = try requireTool("python3")
        let script = #"""
            import socket, struct, sys, time
            mode = sys.argv[1]
            s = socket.socket(); s.bind(('127.0.0.1', 0))
            if mode == 'halfclose': s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.listen(16)
            print('PORT', s.getsockname()[1], flush=True)
            held = []
            while True:
                c, _ = s.accept()
                if mode == 'hang':
                    held.append(c)
                    print('ACCEPT', flush=True)
                elif mode == 'halfclose':
                    c.shutdown(socket.SHUT_WR)
                    time.sleep(0.3)
                    c.close()
                elif mode == 'flood':
                    c.recv(65536)
                    try:
                        c.sendall(b'HTTP/1.0 200 OK\r\nContent-Type: application/pkix-crl\r\n\r\n')
                        chunk = b'\x00' * 65536
                        while True: c.sendall(chunk)
                    except OSError:
                        c.close()
                elif mode == 'reset':
                    c.recv(4096)
                    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
                    c.close()
                elif mode == 'redirect':
                    c.recv(65536)
                    c.sendall(b'HTTP/1.0 302 Found\r\nLocation: http://127.0.0.1:1/ca.crl\r\nContent-Length: 0\r\n\r\n')
                    c.close()
                elif mode == 'echo':
                    data = b''
                    while b'\r\n\r\n' not in data:
                        chunk = c.recv(65536)
                        if not chunk: break
                        data += chunk
                    head, _, body = data.partition(b'\r\n\r\n')
                    length = 0
                    for line in head.split(b'\r\n')[1:]:
                        name, _, value = line.partition(b':')
                        if name.strip().lower() == b'content-length': length = int(value.strip())
                    while len(body) < length:
                        chunk = c.recv(65536)
                        if not chunk: break
                        body += chunk
                    echoed = head + b'\r\n\r\n' + body
                    c.sendall(b'HTTP/1.0 200 OK\r\nContent-Length: ' + str(len(echoed)).encode() + b'\r\n\r\n' + echoed)
                    c.close()
            """#
        let server = LoopbackServer(executable: python, arguments: ["-u", "-c", script, mode], directory: nil)
        servers.append(server)
        let port = try server.start { line in
            line.hasPrefix("PORT ") ? Int(line.dropFirst(5).prefix { $0.isNumber }) : nil
        }
        return (server, port)
    }

    /// The trust object for `leaf` at the REAL current time (live responses are dated now).
    private func liveTrust(_ leaf: String, options: RevocationOptions, crls: [String] = []) throws -> ServerTrust {
        let trust = try Kit.trust(leaf, options: options, crls: crls)
        let now = Date()
        trust.verifyDate = now
        // The fixtures are valid 2024-01-01 → 2099-12-31, which covers the real clock.
        for certificate in trust.certificates + (trust.anchorCertificates ?? []) {
            let seconds = Int64(now.timeIntervalSince1970)
            XCTAssertTrue(
                certificate.notBefore.secondsSince1970 <= seconds && seconds <= certificate.notAfter.secondsSince1970,
                "\(certificate.subject) is not valid now; the live tests need certificates valid at the real time")
        }
        return trust
    }

    private func rewriting(
        ocspPort: Int? = nil, crlPort: Int? = nil, crlFile: String = "intermediate-current.crl",
        fetcher: HTTPRevocationFetcher = HTTPRevocationFetcher(timeout: 5, allowsLocalAddresses: true)
    ) -> RewritingFetcher {
        var map: [String: String] = [:]
        if let ocspPort { map[Kit.ocspURL] = "http://127.0.0.1:\(ocspPort)/" }
        if let crlPort { map[Kit.crlURL] = "http://127.0.0.1:\(crlPort)/\(crlFile)" }
        return RewritingFetcher(base: fetcher, map: map)
    }

    // MARK: (a) OCSP against openssl ocsp

    func testLiveOCSPGoodAndRevoked() async throws {
        let (_, port) = try startOCSPResponder(requests: 2)
        let fetcher = rewriting(ocspPort: port)

        let good = try liveTrust(Kit.goodLeaf, options: [.ocsp])
        let goodEvaluation = await good.evaluate(fetchingWith: fetcher, cache: nil)
        assertTrusted(goodEvaluation)
        XCTAssertEqual(Kit.status(goodEvaluation, 0), .good(source: .fetchedOCSP(url: Kit.ocspURL)))

        let revoked = try liveTrust(Kit.revokedLeaf, options: [.ocsp])
        let revokedEvaluation = await revoked.evaluate(fetchingWith: fetcher, cache: nil)
        assertNotTrusted(revokedEvaluation, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(
            Kit.status(revokedEvaluation, 0),
            .revoked(source: .fetchedOCSP(url: Kit.ocspURL), time: Kit.revocationDate, reason: .keyCompromise))
        XCTAssertTrue(Kit.firstFailure(revokedEvaluation).contains("OCSP http://ocsp.swifttrust.test"), "\(revokedEvaluation)")
        XCTAssertEqual(fetcher.requested.map(\.url), ["http://127.0.0.1:\(port)/", "http://127.0.0.1:\(port)/"])
    }

    func testLiveOCSPFromADelegatedResponderAndHardFail() async throws {
        let (_, port) = try startOCSPResponder(requests: 1, delegated: true)
        let trust = try liveTrust(Kit.goodLeaf, options: [.ocsp, .crl, .requirePositiveResponse], crls: ["root-empty"])
        let evaluation = await trust.evaluate(fetchingWith: rewriting(ocspPort: port), cache: nil)
        assertTrusted(evaluation)
        XCTAssertEqual(
            evaluation.revocationStatuses.map(\.status),
            [.good(source: .fetchedOCSP(url: Kit.ocspURL)), .good(source: .suppliedCRL), .notChecked])
    }

    func testLiveOCSPResponseIsCachedForAtMostTheCacheLifetime() async throws {
        // -nrequest 1: the responder exits after one answer, so a second answer can only come from the cache.
        let (server, port) = try startOCSPResponder(requests: 1)
        let fetcher = rewriting(ocspPort: port)
        let cache = FetchCache(lifetime: 2)
        let first = try await liveTrust(Kit.goodLeaf, options: [.ocsp]).evaluate(fetchingWith: fetcher, cache: cache)
        XCTAssertEqual(Kit.status(first, 0), .good(source: .fetchedOCSP(url: Kit.ocspURL)))
        XCTAssertTrue(server.waitForExit(seconds: 5), "the responder exits after its one request")
        // A new trust (nothing kept on it): the verified response comes from the cache.
        let second = try await liveTrust(Kit.goodLeaf, options: [.ocsp]).evaluate(fetchingWith: fetcher, cache: cache)
        XCTAssertEqual(Kit.status(second, 0), .good(source: .fetchedOCSP(url: Kit.ocspURL)), "served from the cache")
        XCTAssertEqual(cache.count, 1)
        // The response's nextUpdate is 7 days away, but the cache keeps it at most its lifetime (2 s):
        // then the responder is asked again, and it is gone.
        try await Task.sleep(nanoseconds: 2_200_000_000)
        let third = try await liveTrust(Kit.goodLeaf, options: [.ocsp]).evaluate(fetchingWith: fetcher, cache: cache)
        XCTAssertTrue(Kit.isUnknown(Kit.status(third, 0)), "\(String(describing: Kit.status(third, 0)))")
    }

    func testLiveOCSPResponseLargerThanTheCapIsRefused() async throws {
        let (_, port) = try startOCSPResponder(requests: 1)
        let http = HTTPRevocationFetcher(timeout: 3, maximumOCSPBytes: 64, allowsLocalAddresses: true)
        let trust = try liveTrust(Kit.goodLeaf, options: [.ocsp])
        let evaluation = await trust.evaluate(fetchingWith: rewriting(ocspPort: port, fetcher: http), cache: nil)
        assertTrusted(evaluation)
        XCTAssertEqual(
            Kit.status(evaluation, 0), .unknown(notes: ["OCSP \(Kit.ocspURL) not fetched: response larger than 64 bytes"]),
            "the oversized answer was refused, and the status says so")
        XCTAssertEqual(evaluation.fetchFailures.map(\.reason), [.responseTooLarge(limit: 64)])
    }

    // MARK: (b) CRL against python3 -m http.server

    func testLiveCRLFetch() async throws {
        let (server, port) = try startCRLServer()
        let fetcher = rewriting(crlPort: port)
        let cache = FetchCache()
        let revoked = try Kit.trust(Kit.revokedLeaf, options: [.crl])
        let evaluation = await revoked.evaluate(fetchingWith: fetcher, cache: cache)
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .fetchedCRL(url: Kit.crlURL), time: Kit.revocationDate, reason: .keyCompromise))
        XCTAssertTrue(Kit.firstFailure(evaluation).contains("CRL http://crl.swifttrust.test/ecdsa-intermediate.crl"), "\(evaluation)")

        let good = try Kit.trust(Kit.goodLeaf, options: [.crl, .requirePositiveResponse], crls: ["root-empty"])
        let goodEvaluation = await good.evaluate(fetchingWith: fetcher, cache: cache)
        assertTrusted(goodEvaluation)
        XCTAssertEqual(Kit.status(goodEvaluation, 0), .good(source: .fetchedCRL(url: Kit.crlURL)))
        XCTAssertTrue(server.waitForLines(containing: "GET /intermediate-current.crl", count: 1, seconds: 3))
    }

    func testLiveCRLFetchOfThePEMForm() async throws {
        let (_, port) = try startCRLServer()
        let trust = try Kit.trust(Kit.revokedLeaf, options: [.crl])
        let evaluation = await trust.evaluate(fetchingWith: rewriting(crlPort: port, crlFile: "intermediate-current.crl.pem"), cache: nil)
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .fetchedCRL(url: Kit.crlURL), time: Kit.revocationDate, reason: .keyCompromise))
    }

    func testLiveMissingCRLIsUnknown() async throws {
        let (_, port) = try startCRLServer()
        let fetcher = rewriting(crlPort: port, crlFile: "no-such.crl")
        await assertFetchFails {
            try await HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true).fetchCRL(from: "http://127.0.0.1:\(port)/no-such.crl")
        }
        let soft = try Kit.trust(Kit.revokedLeaf, options: [.crl])
        assertTrusted(await soft.evaluate(fetchingWith: fetcher, cache: nil))
        let hard = try Kit.trust(Kit.goodLeaf, options: [.crl, .requirePositiveResponse], crls: ["root-empty"])
        assertNotTrusted(await hard.evaluate(fetchingWith: fetcher, cache: nil), .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
    }

    // MARK: (c) Timeouts and caps

    func testServerThatNeverAnswersTimesOut() async throws {
        let (_, port) = try startMisbehavingServer("hang")
        let http = HTTPRevocationFetcher(timeout: 1, allowsLocalAddresses: true)
        let started = Date()
        await assertFetchFails { try await http.fetchCRL(from: "http://127.0.0.1:\(port)/ca.crl") }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.9, "the deadline is 1 s")
        XCTAssertLessThan(elapsed, 2.5, "the fetch must fail within its 1 s deadline")

        // Soft fail: both OCSP and the CRL hang; the leaf is still trusted.
        let fetcher = RewritingFetcher(
            base: http,
            map: [
                Kit.ocspURL: "http://127.0.0.1:\(port)/",
                Kit.crlURL: "http://127.0.0.1:\(port)/ca.crl",
            ])
        var clock = Date()
        let soft = try Kit.trust(Kit.goodLeaf, options: [])
        let softEvaluation = await soft.evaluate(fetchingWith: fetcher, cache: nil)
        assertTrusted(softEvaluation)
        XCTAssertTrue(Kit.isUnknown(Kit.status(softEvaluation, 0)))
        XCTAssertLessThan(Date().timeIntervalSince(clock), 4)
        XCTAssertEqual(fetcher.requested.map(\.kind), ["ocsp", "crl"])

        // Hard fail: revocation unavailable.
        clock = Date()
        let hard = try Kit.trust(Kit.goodLeaf, options: [.requirePositiveResponse], crls: ["root-empty"])
        assertNotTrusted(await hard.evaluate(fetchingWith: fetcher, cache: nil), .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        XCTAssertLessThan(Date().timeIntervalSince(clock), 4)
    }

    func testCRLLargerThanTheCapIsRefused() async throws {
        let (_, port) = try startCRLServer()
        let url = "http://127.0.0.1:\(port)/intermediate-current.crl"
        // The size varies by a byte or two with every regeneration (ECDSA signature length): read it.
        let size = try TestCertificates.bytes("revocation/intermediate-current.crl").count
        XCTAssertGreaterThan(size, 1)
        await assertFetchFails(mentioning: "larger than") {
            try await HTTPRevocationFetcher(timeout: 3, maximumCRLBytes: size - 1, allowsLocalAddresses: true).fetchCRL(from: url)
        }
        // Control: exactly at the cap is fine.
        let exact = try await HTTPRevocationFetcher(timeout: 3, maximumCRLBytes: size, allowsLocalAddresses: true).fetchCRL(from: url)
        XCTAssertEqual(exact, try TestCertificates.bytes("revocation/intermediate-current.crl"))

        // Through ServerTrust: the 3.5 MB CRL against a 1 MB cap is no information (soft fail: trusted).
        let cap = 1_000_000
        XCTAssertGreaterThan(try TestCertificates.bytes("revocation/intermediate-large.crl").count, cap)
        let capped = HTTPRevocationFetcher(timeout: 5, maximumCRLBytes: cap, allowsLocalAddresses: true)
        let trust = try Kit.trust(Kit.revokedLeaf, options: [.crl])
        let evaluation = await trust.evaluate(
            fetchingWith: rewriting(crlPort: port, crlFile: "intermediate-large.crl", fetcher: capped),
            cache: nil)
        assertTrusted(evaluation)
        // And under the default cap the large CRL is fetched and used.
        let uncapped = try Kit.trust(Kit.revokedLeaf, options: [.crl])
        let uncappedEvaluation = await uncapped.evaluate(fetchingWith: rewriting(crlPort: port, crlFile: "intermediate-large.crl"), cache: nil)
        assertNotTrusted(uncappedEvaluation, .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testEndlessResponseIsCutOffAtTheCap() async throws {
        let (_, port) = try startMisbehavingServer("flood")
        let started = Date()
        await assertFetchFails(mentioning: "larger than") {
            try await HTTPRevocationFetcher(timeout: 5, maximumCRLBytes: 256 * 1024, allowsLocalAddresses: true).fetchCRL(
                from: "http://127.0.0.1:\(port)/ca.crl")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "stopped by the size cap, not the deadline")
    }

    func testConnectionResetAndRefusedFailCleanly() async throws {
        let (_, port) = try startMisbehavingServer("reset")
        // A large request body makes the reset arrive while we are still sending.
        await assertFetchFails {
            try await HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true).fetchOCSPResponse(
                from: "http://127.0.0.1:\(port)/",
                request: [UInt8](repeating: 0x30, count: 4 << 20))
        }
        await assertFetchFails {
            try await HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true).fetchCRL(from: "http://127.0.0.1:\(port)/ca.crl")
        }
        // A closed port: refused at once.
        let closed = try closedPort()
        let started = Date()
        await assertFetchFails {
            try await HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true).fetchCRL(from: "http://127.0.0.1:\(closed)/ca.crl")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        // Only http:// is fetched.
        await assertFetchFails(mentioning: "only http://") {
            try await HTTPRevocationFetcher(allowsLocalAddresses: true).fetchCRL(from: "https://127.0.0.1:\(closed)/")
        }
    }

    func testRequestsOnTheWire() async throws {
        let (_, port) = try startMisbehavingServer("echo")
        let http = HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true)
        let get = String(decoding: try await http.fetchCRL(from: "http://127.0.0.1:\(port)/ca.crl?x=1"), as: UTF8.self)
        XCTAssertTrue(get.hasPrefix("GET /ca.crl?x=1 HTTP/1.0\r\n"), get)
        // RFC 7230 §5.4: Host is the URL's authority, port included when it is not 80.
        XCTAssertTrue(get.contains("\r\nHost: 127.0.0.1:\(port)\r\n"), get)
        XCTAssertTrue(get.contains("\r\nConnection: close\r\n"), get)
        XCTAssertFalse(get.contains("Content-Length"), get)

        let request = OCSPRequest(certIDs: [
            OCSPCertID(
                certificate: try TestCertificates.certificate(Kit.goodLeaf),
                issuer: try TestCertificates.certificate(Kit.intermediate))
        ]).derEncoded
        let post = try await http.fetchOCSPResponse(from: "http://127.0.0.1:\(port)", request: request)
        let postText = String(decoding: post, as: UTF8.self)
        XCTAssertTrue(postText.hasPrefix("POST / HTTP/1.0\r\n"), postText)
        XCTAssertTrue(postText.contains("\r\nHost: 127.0.0.1:\(port)\r\n"), postText)
        XCTAssertTrue(postText.contains("\r\nContent-Type: application/ocsp-request\r\n"), postText)
        XCTAssertTrue(postText.contains("\r\nContent-Length: \(request.count)\r\n"), postText)
        XCTAssertEqual(Array(post.suffix(request.count)), request, "the DER request is the POST body")
    }

    func testRedirectsAreNotFollowed() async throws {
        let (_, port) = try startMisbehavingServer("redirect")
        do {
            _ = try await HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true).fetchCRL(from: "http://127.0.0.1:\(port)/ca.crl")
            XCTFail("the redirect was followed")
        } catch {
            XCTAssertEqual(error as? FetchFailureReason, .httpStatus(302))
        }
    }

    func testPeerClosingMidRequestRaisesNoSIGPIPE() async throws {
        // The peer closes while a 16 MiB POST is still being written: the next write fails with EPIPE.
        // Without MSG_NOSIGNAL that write also raises SIGPIPE, whose default action kills the process;
        // a recording handler stands in for the default so that the test can count instead of dying.
        let (_, port) = try startMisbehavingServer("halfclose")
        sigpipeCount.store(0, ordering: .relaxed)
        let previous = signal(SIGPIPE) { _ in sigpipeCount.add(1, ordering: .relaxed) }
        defer { signal(SIGPIPE, previous) }
        await assertFetchFails {
            try await HTTPRevocationFetcher(timeout: 5, allowsLocalAddresses: true).fetchOCSPResponse(
                from: "http://127.0.0.1:\(port)/",
                request: [UInt8](repeating: 0x30, count: 16 << 20))
        }
        XCTAssertEqual(sigpipeCount.load(ordering: .relaxed), 0, "a write to the closed connection raised SIGPIPE")
    }

    func testCancellationEndsAFetchPromptly() async throws {
        let (_, port) = try startMisbehavingServer("hang")
        let http = HTTPRevocationFetcher(timeout: 10, allowsLocalAddresses: true)
        let task = Task { try await http.fetchCRL(from: "http://127.0.0.1:\(port)/ca.crl") }
        try await Task.sleep(nanoseconds: 300_000_000)
        let cancelled = Date()
        task.cancel()
        let result = await task.result
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1, "the fetch must end soon after cancellation, not at its 10 s deadline")
        XCTAssertThrowsError(try result.get())
    }

    func testConcurrentRequestsAreBoundedAndQueuedOnesCancellable() async throws {
        // Ten requests to a server that never answers: only a bounded number hold a connection (and a
        // worker thread) at once, two for one host; the rest wait for a slot, and cancelling them ends
        // them at once.
        let (server, port) = try startMisbehavingServer("hang")
        let http = HTTPRevocationFetcher(timeout: 10, allowsLocalAddresses: true)
        let tasks = (0..<10).map { index in Task { try await http.fetchCRL(from: "http://127.0.0.1:\(port)/\(index).crl") } }
        let deadline = Date().addingTimeInterval(3)
        while server.outputText.components(separatedBy: "ACCEPT").count - 1 < 2, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(server.outputText.components(separatedBy: "ACCEPT").count - 1, 2, "connections to one host held at once")
        let cancelled = Date()
        for task in tasks { task.cancel() }
        for task in tasks {
            let result = await task.result
            XCTAssertThrowsError(try result.get())
        }
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1.5)
    }

    func testHugeSizeCapDoesNotOverflow() async throws {
        let (_, port) = try startCRLServer()
        let bytes = try await HTTPRevocationFetcher(timeout: 3, maximumCRLBytes: .max, maximumOCSPBytes: .max, allowsLocalAddresses: true)
            .fetchCRL(from: "http://127.0.0.1:\(port)/intermediate-current.crl")
        XCTAssertEqual(bytes, try TestCertificates.bytes("revocation/intermediate-current.crl"))
    }

    func testDocumentedDefaults() {
        let fetcher = HTTPRevocationFetcher()
        XCTAssertEqual(fetcher.timeout, 10)
        XCTAssertEqual(fetcher.maximumCRLBytes, 20 * 1024 * 1024)
        XCTAssertEqual(fetcher.maximumOCSPBytes, 64 * 1024)
        XCTAssertEqual(FetchCache().capacity, 256)
        XCTAssertEqual(FetchCache().lifetime, 3600, "a verified answer is reused for at most an hour")
        XCTAssertEqual(FetchCache().issuerDownloadCapacity, 64)
        XCTAssertEqual(HTTPRevocationFetcher.shared.timeout, 10)
        XCTAssertFalse(fetcher.allowsLocalAddresses, "a certificate's URL never reaches a local address by default")
        XCTAssertFalse(HTTPRevocationFetcher.shared.allowsLocalAddresses)
    }

    /// A certificate names its revocation URLs: by default they never reach the host itself or its
    /// internal network, whether written as an address or as a name resolving to one.
    func testLocalDestinationsAreNotFetchedFromUnlessAllowed() async throws {
        let (server, port) = try startCRLServer()
        for url in [
            "http://127.0.0.1:\(port)/intermediate-current.crl", "http://localhost:\(port)/intermediate-current.crl",
            "http://[::1]:\(port)/intermediate-current.crl",
            "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/ca.crl",
        ] {
            do {
                _ = try await HTTPRevocationFetcher(timeout: 3).fetchCRL(from: url)
                XCTFail("\(url) was fetched")
            } catch let error as RevocationFetchError {
                guard case .localDestinationRefused = error else { return XCTFail("\(url): \(error)") }
            }
        }
        XCTAssertEqual(server.requestCount, 0, "nothing reached the local server")
        let allowed = try await HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true)
            .fetchCRL(from: "http://127.0.0.1:\(port)/intermediate-current.crl")
        XCTAssertEqual(allowed, try TestCertificates.bytes("revocation/intermediate-current.crl"))
    }

    /// The caIssuers download cache (a FetchCache's, by URL) saves requests, never changes a
    /// verdict: two evaluations of a leaf sent without its intermediate, with the cache on and off.
    func testVerdictsAreIdenticalWithTheIssuerDownloadCacheOnAndOff() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-issuers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try TestCertificates.certificate("ecdsa/intermediate.pem").derEncoded).write(
            to: directory.appendingPathComponent("intermediate.der"))
        let (server, port) = try startCRLServer(directory: directory.path)
        let map = ["http://ca.swifttrust.test/ecdsa-intermediate.crt": "http://127.0.0.1:\(port)/intermediate.der"]
        var verdicts: [[String]] = []
        for cache in [FetchCache(), nil] {
            let fetcher = RewritingFetcher(base: HTTPRevocationFetcher(timeout: 5, allowsLocalAddresses: true), map: map)
            for _ in 0..<2 {
                let trust = ServerTrust(
                    certificates: try TestCertificates.certificates("ecdsa/leaf.pem"), policies: [.ssl(server: true, hostname: TestCertificates.host)]
                )
                trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
                trust.verifyDate = TestCertificates.verifyDate
                let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: cache)
                verdicts.append([evaluation.result.description] + evaluation.chain.map(\.subject.description))
            }
        }
        XCTAssertEqual(Set(verdicts.map { $0.joined(separator: "|") }).count, 1, "\(verdicts)")
        XCTAssertEqual(verdicts.first?.count, 4, "trusted, with the fetched intermediate: \(verdicts)")
        XCTAssertTrue(
            server.waitForLines(containing: "GET /intermediate.der", count: 3, seconds: 5),
            "one download with the cache on, two with it off")
        XCTAssertEqual(server.lines(containing: "GET /intermediate.der"), 3)
    }

    // MARK: (d) The cache

    func testVerifiedCRLIsCachedAndRawBytesAreNot() async throws {
        let (server, port) = try startCRLServer()
        let http = HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true)
        let url = "http://127.0.0.1:\(port)/intermediate-current.crl"
        // The fetcher itself only moves bytes: two direct fetches are two requests.
        let first = try await http.fetchCRL(from: url)
        let second = try await http.fetchCRL(from: url)
        XCTAssertEqual(second, first)
        XCTAssertTrue(server.waitForLines(containing: "GET /intermediate-current.crl", count: 2, seconds: 3), server.errorText)
        // Through ServerTrust with a cache, three evaluations of new trusts: one request, then the
        // verified CRL from the cache.
        let fetcher = rewriting(crlPort: port, fetcher: http)
        let cache = FetchCache()
        for _ in 0..<3 {
            let trust = try Kit.trust(Kit.revokedLeaf, options: [.crl])
            let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: cache)
            XCTAssertEqual(
                Kit.status(evaluation, 0), .revoked(source: .fetchedCRL(url: Kit.crlURL), time: Kit.revocationDate, reason: .keyCompromise))
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(server.lines(containing: "GET /intermediate-current.crl"), 3, server.errorText)

        // Control: after the cache's removeAll() the server is asked again.
        cache.removeAll()
        _ = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetchingWith: fetcher, cache: cache)
        XCTAssertTrue(server.waitForLines(containing: "GET /intermediate-current.crl", count: 4, seconds: 3), server.errorText)

        // A CRL whose nextUpdate has passed is not cached: every evaluation goes to the server.
        cache.removeAll()
        let expired = rewriting(crlPort: port, crlFile: "intermediate-expired.crl", fetcher: http)
        for _ in 0..<2 { _ = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetchingWith: expired, cache: cache) }
        XCTAssertTrue(server.waitForLines(containing: "GET /intermediate-expired.crl", count: 2, seconds: 3), server.errorText)
    }

    func testCRLThatFailsVerificationIsNoInformationAndNotCached() async throws {
        // One URL serving first a CRL with the issuer's name but another key's signature (what an
        // attacker on the plain-HTTP path can send), then the real one.
        let directory = try temporaryDirectory()
        let served = directory.appendingPathComponent("ca.crl")
        try Data(TestCertificates.bytes("revocation/intermediate-wrong-signer.crl")).write(to: served)
        let (server, port) = try startCRLServer(directory: directory.path)
        let fetcher = rewriting(crlPort: port, crlFile: "ca.crl")
        let cache = FetchCache()

        let soft = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetchingWith: fetcher, cache: cache)
        assertTrusted(soft)
        let notes = Kit.notes(Kit.status(soft, 0))
        XCTAssertTrue(notes.contains { $0.contains(Kit.crlURL) && $0.contains("signature") }, "\(notes)")
        let hard = await (try Kit.trust(Kit.goodLeaf, options: [.crl, .requirePositiveResponse], crls: ["root-empty"]))
            .evaluate(fetchingWith: fetcher, cache: cache)
        assertNotTrusted(hard, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        XCTAssertTrue(server.waitForLines(containing: "GET /ca.crl", count: 2, seconds: 3), "not cached: " + server.errorText)

        // The tampered answer did not stick: once the real CRL is served, it is used.
        try Data(TestCertificates.bytes("revocation/intermediate-current.crl")).write(to: served)
        let real = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetchingWith: fetcher, cache: cache)
        assertNotTrusted(real, .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testFarFutureNextUpdateIsCappedByTheCacheLifetime() async throws {
        var forge = try CRLForge.intermediate()
        forge.nextUpdate = .generalizedTime("99991231235959Z")
        forge.entries = [(serial: Array(try TestCertificates.certificate(Kit.revokedLeaf).serialNumber), date: "260401000000Z", reason: 1)]
        let directory = try temporaryDirectory()
        try Data(try forge.make().derEncoded).write(to: directory.appendingPathComponent("ca.crl"))
        let (server, port) = try startCRLServer(directory: directory.path)
        let fetcher = rewriting(crlPort: port, crlFile: "ca.crl")
        let cache = FetchCache(lifetime: 2)
        for _ in 0..<2 {
            let evaluation = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetchingWith: fetcher, cache: cache)
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        }
        XCTAssertTrue(server.waitForLines(containing: "GET /ca.crl", count: 1, seconds: 3))
        XCTAssertEqual(server.lines(containing: "GET /ca.crl"), 1, "the second evaluation is served from the cache")
        try await Task.sleep(nanoseconds: 2_200_000_000)
        _ = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetchingWith: fetcher, cache: cache)
        XCTAssertTrue(server.waitForLines(containing: "GET /ca.crl", count: 2, seconds: 3), "asked again after the lifetime: " + server.errorText)
    }

    func testCacheIsKeyedOnTheIssuer() async throws {
        // A leaf of another CA naming the same CRL URL: what verified for the first issuer is not
        // handed out for the second; the server is asked again.
        let (server, port) = try startCRLServer()
        let fetcher = rewriting(crlPort: port)
        let cache = FetchCache()
        let first = await (try Kit.trust(Kit.revokedLeaf, options: [.crl])).evaluate(fetchingWith: fetcher, cache: cache)
        assertNotTrusted(first, .fatalTrustFailure, failures: ["0:revoked"])
        let otherCA = try CertificateForge.reissue(
            "revocation/leaf-under-revoked-intermediate.pem", ocspURL: nil, crlURL: Kit.crlURL,
            signingKey: "revocation/keys/revoked-intermediate.key.pem")
        let second = await (try Kit.trust(otherCA, intermediates: ["revocation/revoked-intermediate.pem"], options: [.crl], crls: ["root-empty"]))
            .evaluate(fetchingWith: fetcher, cache: cache)
        assertTrusted(second)
        XCTAssertTrue(Kit.isUnknown(Kit.status(second, 0)), "the intermediate's CRL says nothing about another CA's leaf")
        XCTAssertTrue(server.waitForLines(containing: "GET /intermediate-current.crl", count: 2, seconds: 3), server.errorText)
    }

    func testEvictionDoesNotFavourFarFutureEntries() async throws {
        // Capacity 2. A (nextUpdate 9999) and B (2099) are cached, B is used again, then C arrives: the
        // least recently used entry (A) goes, not the one that expires first (B).
        var farFuture = try CRLForge.intermediate()
        farFuture.nextUpdate = .generalizedTime("99991231235959Z")
        let directory = try temporaryDirectory()
        try Data(try farFuture.make().derEncoded).write(to: directory.appendingPathComponent("a.crl"))
        for name in ["b.crl", "c.crl"] {
            try Data(TestCertificates.bytes("revocation/intermediate-current.crl")).write(to: directory.appendingPathComponent(name))
        }
        let (server, port) = try startCRLServer(directory: directory.path)
        let http = HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true)
        let cache = FetchCache(capacity: 2)
        func evaluate(_ name: String) async throws {
            let leaf = try CertificateForge.reissue(
                Kit.goodLeaf, ocspURL: nil, crlURL: "http://127.0.0.1:\(port)/\(name)",
                signingKey: "keys/ecdsa/intermediate.key.pem")
            let evaluation = await (try Kit.trust(leaf, options: [.crl])).evaluate(fetchingWith: http, cache: cache)
            XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .fetchedCRL(url: "http://127.0.0.1:\(port)/\(name)")), name)
        }
        for name in ["a.crl", "b.crl", "b.crl", "c.crl", "b.crl", "a.crl"] { try await evaluate(name) }
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(server.lines(containing: "GET /b.crl"), 1, "B, used recently, stayed cached: " + server.errorText)
        XCTAssertEqual(server.lines(containing: "GET /a.crl"), 2, "A, least recently used, was evicted: " + server.errorText)
    }

    // MARK: Helpers

    private func assertFetchFails(
        mentioning text: String? = nil, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> [UInt8]
    ) async {
        do {
            let bytes = try await body()
            XCTFail("the fetch succeeded with \(bytes.count) bytes", file: file, line: line)
        } catch {
            if let text {
                XCTAssertTrue("\(error)".contains(text), "\(error)", file: file, line: line)
            }
        }
    }

    /// A fresh directory under the temporary directory, removed when the test ends.
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("revocation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// A loopback port that nothing listens on (bound, then closed).
    private func closedPort() throws -> Int {
        let python = try requireTool("python3")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let port = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.coderReadCorrupt)
        }
        return port
    }
}

/// SIGPIPE deliveries seen by ``RevocationNetworkTests/testPeerClosingMidRequestRaisesNoSIGPIPE()``.
private let sigpipeCount = Atomic<Int>(0)

/// Forwards to a real fetcher after rewriting the certificates' URLs to loopback ones, and records
/// what it forwarded.
final class RewritingFetcher: RevocationFetcher {
    struct Request: Hashable, Sendable {
        let kind: String
        let url: String
    }

    let base: HTTPRevocationFetcher
    let map: [String: String]
    private let log = Mutex<[Request]>([])

    init(base: HTTPRevocationFetcher, map: [String: String]) {
        self.base = base
        self.map = map
    }

    var requested: [Request] { log.withLock { $0 } }

    private func rewrite(_ url: String) -> String { map[url] ?? url }

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        let target = rewrite(request.url)
        log.withLock { $0.append(Request(kind: request.method.name.lowercased(), url: target)) }
        return try await base.fetch(request.redirected(to: target))
    }

    func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
        let target = rewrite(url)
        log.withLock { $0.append(Request(kind: "issuer", url: target)) }
        return try await base.fetchIssuerCertificates(from: target)
    }
}

/// A server that did not come up: a test failure, not a skip.
struct ServerDidNotStart: Error, CustomStringConvertible {
    let description: String
}

/// A child process serving on loopback: started by a test, its output collected line by line, and
/// always terminated by the test (``stop()``, called from tearDown).
final class LoopbackServer: @unchecked Sendable {
    private let process: Process
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let output = Mutex<(stdout: String, stderr: String)>(("", ""))

    init(executable: String, arguments: [String], directory: String?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        environment["TZ"] = "UTC"
        process.environment = environment
        self.process = process
    }

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        return nil
    }

    /// Starts the process and waits (at most `seconds`) for a stdout line from which `port` extracts the port.
    func start(seconds: Double = 5, port: @escaping @Sendable (String) -> Int?) throws -> Int {
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        stdoutPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.output.withLock { $0.stdout += text }
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.output.withLock { $0.stderr += text }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let lines = output.withLock { $0.stdout }.split(separator: "\n")
            if let found = lines.lazy.compactMap({ port(String($0)) }).first { return found }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop()
        throw ServerDidNotStart(description: "server did not report its port in \(seconds) s; stdout: \(outputText) stderr: \(errorText)")
    }

    var outputText: String { output.withLock { $0.stdout } }
    var errorText: String { output.withLock { $0.stderr } }

    /// How many stderr lines (http.server's request log) contain `text`.
    func lines(containing text: String) -> Int {
        errorText.split(separator: "\n").filter { $0.contains(text) }.count
    }

    /// Waits up to `seconds` for at least `count` such lines.
    func waitForLines(containing text: String, count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if lines(containing: text) >= count { return true }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return lines(containing: text) >= count
    }

    /// Waits up to `seconds` for the process to exit on its own.
    func waitForExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return !process.isRunning
    }

    /// Terminates the process (if still running) and waits for it. A child spawned from a test's
    /// concurrency (dispatch) thread inherits that thread's blocked signals, SIGTERM included, so
    /// SIGTERM may be ignored: SIGKILL (to this child's own pid) follows after a short grace period.
    func stop() {
        if process.isRunning {
            process.terminate()
            if !waitForExit(seconds: 0.3), process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
        stderrPipe.fileHandleForReading.readabilityHandler = nil
    }
}
