import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// `HTTPPinningReportUploader` against report collectors the tests start on 127.0.0.1.
final class PinReportUploadTests: LoopbackTestCase {
    /// A POST a collector received.
    struct ReceivedRequest: Sendable {
        let requestLine: String
        /// Header names in lower case.
        let headers: [String: String]
        let body: Data
    }

    /// What a test collector received, and what it answers (nil: never answers).
    final class Collector: Sendable {
        let response: String?
        private let received = Mutex<[ReceivedRequest]>([])
        private let connections = Mutex(0)

        init(response: String?) { self.response = response }

        func record(_ request: ReceivedRequest) { received.withLock { $0.append(request) } }
        func accepted() { connections.withLock { $0 += 1 } }
        var requests: [ReceivedRequest] { received.withLock { $0 } }
        var connectionCount: Int { connections.withLock { $0 } }
    }

    /// Reads one HTTP/1.1 request with a Content-Length body, records it, answers, closes.
    final class CollectorHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private let collector: Collector
        private var bytes: [UInt8] = []
        private var answered = false

        init(collector: Collector) { self.collector = collector }

        func channelActive(context: ChannelHandlerContext) {
            collector.accepted()
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
            guard !answered, let request = Self.parse(bytes) else { return }
            answered = true
            collector.record(request)
            guard let response = collector.response else { return }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: response))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }

        /// The request once its head and its Content-Length bytes of body have arrived.
        static func parse(_ bytes: [UInt8]) -> ReceivedRequest? {
            let separator: [UInt8] = [13, 10, 13, 10]
            guard let split = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
            let lines = String(decoding: bytes[..<split], as: UTF8.self).components(separatedBy: "\r\n")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { headers[parts[0].lowercased()] = parts[1] }
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            let body = bytes[(split + 4)...]
            guard body.count >= length else { return nil }
            return ReceivedRequest(requestLine: lines[0], headers: headers, body: Data(body.prefix(length)))
        }
    }

    /// Starts a collector on 127.0.0.1 (TLS with `tls`), returning its port.
    func startCollector(_ collector: Collector, tls: NIOSSLContext? = nil) throws -> Int {
        let server = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try channel.pipeline.syncOperations.addHandler(CollectorHandler(collector: collector))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        addCleanup { try server.close().wait() }
        return try XCTUnwrap(server.localAddress?.port)
    }

    /// Every upload's end, as the uploader's callback reports them.
    final class Completions: Sendable {
        private let uploads = Mutex<[PinReportUpload]>([])
        func record(_ upload: PinReportUpload) { uploads.withLock { $0.append(upload) } }
        var all: [PinReportUpload] { uploads.withLock { $0 } }
    }

    /// The test collectors are loopback ones, most over plain HTTP: both allowances are stated.
    static let loopbackCollectors = PinReportCollectorPolicy(allowsPlainHTTP: true, allowsLocalAddresses: true)

    func makeUploader(
        _ completions: Completions, tlsSettings: TLSTrustSettings = TLSTrustSettings(),
        collectors: PinReportCollectorPolicy = loopbackCollectors,
        timeout: TimeAmount = .seconds(10), maximumConcurrentUploads: Int = 8,
        logger: Logger? = nil
    ) throws -> HTTPPinningReportUploader {
        try HTTPPinningReportUploader(
            eventLoopGroup: group, tlsSettings: tlsSettings, collectors: collectors, timeout: timeout,
            maximumConcurrentUploads: maximumConcurrentUploads, logger: logger,
            onCompletion: completions.record)
    }

    /// A port on 127.0.0.1 that was just free: bound, then closed.
    func closedPort() async throws -> Int {
        let probe = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let port = try XCTUnwrap(probe.localAddress?.port)
        try await probe.close().get()
        return port
    }

    /// Waits (at most 10 seconds) until nothing is in flight.
    func waitForIdle(_ uploader: HTTPPinningReportUploader) async {
        let idle = expectation(description: "uploads ended")
        Task {
            await uploader.waitForIdle()
            idle.fulfill()
        }
        await fulfillment(of: [idle], timeout: 10)
    }

    func report() throws -> PinValidationReport {
        PinValidationReport(
            hostname: TestCertificates.host, port: 443, notedHostname: "swifttrust.test", includeSubdomains: true,
            enforcePinning: false, validatedChain: try TestCertificates.certificates("ecdsa/chain.pem"),
            knownPins: [SPKIPin(certificate: try XCTUnwrap(TestCertificates.certificates("ecdsa/root.pem").first))],
            result: .failed, date: TestCertificates.verifyDate,
            identity: PinReportingIdentity(
                appBundleId: "tests", appVersion: "1", appPlatform: "LINUX",
                appPlatformVersion: "6", appVendorId: "v"))
    }

    static let noContent = "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

    func testReportIsPostedAsJSONOverHTTP() async throws {
        let collector = Collector(response: Self.noContent)
        let port = try startCollector(collector)
        let completions = Completions()
        let uploader = try makeUploader(completions)
        let report = try report()
        uploader.deliver(report, to: [try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/pins/report?app=tests"))])
        await waitForIdle(uploader)

        let request = try XCTUnwrap(collector.requests.first)
        XCTAssertEqual(collector.requests.count, 1)
        XCTAssertEqual(request.requestLine, "POST /pins/report?app=tests HTTP/1.1")
        XCTAssertEqual(request.headers["content-type"], "application/json")
        XCTAssertEqual(request.headers["host"], "127.0.0.1:\(port)")
        XCTAssertEqual(try JSONDecoder().decode(PinValidationReport.self, from: request.body), report)
        guard case .delivered(statusCode: 204)? = completions.all.first?.outcome else {
            return XCTFail("\(completions.all)")
        }
        let statistics = uploader.statistics
        XCTAssertEqual([statistics.started, statistics.delivered, statistics.inFlight], [1, 1, 0])
    }

    func testReportIsPostedOverHTTPSToACollectorTrustedForItsAddress() async throws {
        let collector = Collector(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        let port = try startCollector(collector, tls: try collectorTLS(presenting: try issueLeafFor127001()))
        let completions = Completions()
        let uploader = try makeUploader(completions, tlsSettings: TLSTrustSettings(anchors: TestCertificates.certificates("ecdsa/root.pem")))
        let report = try report()
        uploader.deliver(report, to: [try XCTUnwrap(URL(string: "https://127.0.0.1:\(port)/report"))])
        await waitForIdle(uploader)

        guard case .delivered(statusCode: 200)? = completions.all.first?.outcome else { return XCTFail("\(completions.all)") }
        let request = try XCTUnwrap(collector.requests.first)
        XCTAssertEqual(request.requestLine, "POST /report HTTP/1.1")
        XCTAssertEqual(try JSONDecoder().decode(PinValidationReport.self, from: request.body), report)
    }

    func testUntrustedHTTPSCollectorIsNotSentTheReport() async throws {
        let leafFor127001 = try issueLeafFor127001()
        let wrongRootCollector = Collector(response: Self.noContent)
        let wrongRootPort = try startCollector(wrongRootCollector, tls: try collectorTLS(presenting: leafFor127001))
        // Trusted chain, but issued for www.swifttrust.test, not the address connected to.
        let wrongHostCollector = Collector(response: Self.noContent)
        let committedLeaf = (TestCertificates.path("ecdsa/leaf.pem"), TestCertificates.keyPath(of: "ecdsa/leaf.pem"))
        let wrongHostPort = try startCollector(wrongHostCollector, tls: try collectorTLS(presenting: committedLeaf))
        let completions = Completions()
        let uploader = try makeUploader(completions, tlsSettings: TLSTrustSettings(anchors: TestCertificates.certificates("rsa/root.pem")))
        let rightRootUploader = try makeUploader(completions, tlsSettings: TLSTrustSettings(anchors: TestCertificates.certificates("ecdsa/root.pem")))
        uploader.deliver(try report(), to: [try XCTUnwrap(URL(string: "https://127.0.0.1:\(wrongRootPort)/"))])
        rightRootUploader.deliver(try report(), to: [try XCTUnwrap(URL(string: "https://127.0.0.1:\(wrongHostPort)/"))])
        await waitForIdle(uploader)
        await waitForIdle(rightRootUploader)

        XCTAssertEqual(completions.all.count, 2)
        for upload in completions.all {
            guard case .failed(.collectorNotTrusted)? = Optional(upload.outcome) else { return XCTFail("\(upload)") }
        }
        XCTAssertTrue(wrongRootCollector.requests.isEmpty)
        XCTAssertTrue(wrongHostCollector.requests.isEmpty)
        XCTAssertEqual(uploader.statistics.failed + rightRootUploader.statistics.failed, 2)
    }

    func testRedirectIsNotFollowed() async throws {
        let collector = Collector(response: "HTTP/1.1 307 Temporary Redirect\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n")
        let port = try startCollector(collector)
        let completions = Completions()
        let uploader = try makeUploader(completions)
        uploader.deliver(try report(), to: [try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/report"))])
        await waitForIdle(uploader)

        guard case .rejectedByCollector(statusCode: 307)? = completions.all.first?.outcome else { return XCTFail("\(completions.all)") }
        XCTAssertEqual(collector.requests.map(\.requestLine), ["POST /report HTTP/1.1"])
        XCTAssertEqual(collector.connectionCount, 1)
    }

    func testCollectorThatClosesOrAnswersGarbageFails() async throws {
        let closing = Collector(response: "")
        let garbage = Collector(response: "SPDY/3 200 OK\r\n\r\n")
        let closingPort = try startCollector(closing)
        let garbagePort = try startCollector(garbage)
        let completions = Completions()
        let uploader = try makeUploader(completions)
        let closingURI = try XCTUnwrap(URL(string: "http://127.0.0.1:\(closingPort)/"))
        uploader.deliver(try report(), to: [closingURI, try XCTUnwrap(URL(string: "http://127.0.0.1:\(garbagePort)/"))])
        await waitForIdle(uploader)

        XCTAssertEqual(completions.all.count, 2)
        for upload in completions.all {
            switch (upload.uri == closingURI, upload.outcome) {
            case (true, .failed(.closedBeforeResponse)), (false, .failed(.malformedResponse)): continue
            default: XCTFail("\(upload)")
            }
        }
        XCTAssertEqual([closing.requests.count, garbage.requests.count], [1, 1])
    }

    func testDeadPortFailsPromptly() async throws {
        let port = try await closedPort()
        let completions = Completions()
        let uploader = try makeUploader(completions)
        let started = Date()
        uploader.deliver(try report(), to: [try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/"))])
        await waitForIdle(uploader)

        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        guard case .failed(.connectionFailed)? = completions.all.first?.outcome else { return XCTFail("\(completions.all)") }
    }

    func testDeliveryIsLoggedAtDebugAndAFailureAtInfoWithTheReason() async throws {
        let collector = Collector(response: Self.noContent)
        let deliveredURI = try XCTUnwrap(URL(string: "http://127.0.0.1:\(try startCollector(collector))/report"))
        let deadPort = try await closedPort()
        let failedURI = try XCTUnwrap(URL(string: "http://127.0.0.1:\(deadPort)/report"))
        let records = LogRecords()
        let completions = Completions()
        let uploader = try makeUploader(completions, logger: records.logger())
        uploader.deliver(try report(), to: [deliveredURI, failedURI])
        await waitForIdle(uploader)

        XCTAssertEqual(records.all.count, 2, "\(records.all)")
        let delivered = try XCTUnwrap(records.at(.debug).first)
        XCTAssertEqual(delivered.message.description, "pin report delivered")
        XCTAssertEqual(delivered.text("swifttrust.report_uri"), deliveredURI.absoluteString)
        XCTAssertEqual(delivered.text("swifttrust.upload"), "delivered")
        XCTAssertEqual(delivered.text("swifttrust.status_code"), "204")

        guard case let .failed(error)? = completions.all.first(where: { $0.uri == failedURI })?.outcome else {
            return XCTFail("\(completions.all)")
        }
        let failed = try XCTUnwrap(records.at(.info).first)
        XCTAssertEqual(failed.message.description, "pin report not delivered")
        XCTAssertEqual(failed.text("swifttrust.report_uri"), failedURI.absoluteString)
        XCTAssertEqual(failed.text("swifttrust.upload"), "failed")
        XCTAssertEqual(failed.text("swifttrust.reason"), error.description)
    }

    func testSilentCollectorTimesOutWithoutBlockingTheCaller() async throws {
        let collector = Collector(response: nil)
        let port = try startCollector(collector)
        let completions = Completions()
        let uploader = try makeUploader(completions, timeout: .milliseconds(500))
        let started = Date()
        uploader.deliver(try report(), to: [try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/"))])
        // deliver returned before the upload could end: it ends only when the timeout fires.
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
        XCTAssertEqual(uploader.statistics.inFlight, 1)
        await waitForIdle(uploader)

        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.5)
        XCTAssertLessThan(elapsed, 5)
        guard case .failed(.timedOut)? = completions.all.first?.outcome else { return XCTFail("\(completions.all)") }
        XCTAssertEqual(collector.requests.count, 1, "the request was sent; only the answer never came")
    }

    func testUnsupportedSchemesAndInvalidURIsAreRefusedWithoutConnecting() async throws {
        let collector = Collector(response: Self.noContent)
        let port = try startCollector(collector)
        let completions = Completions()
        let uploader = try makeUploader(completions)
        let refused = [
            "ftp://127.0.0.1:\(port)/", "file:///tmp/report", "mailto:pins@example.com",
            "http://user:secret@127.0.0.1:\(port)/", "http://127.0.0.1:0/", "http:///no-host",
        ]
        uploader.deliver(try report(), to: try refused.map { try XCTUnwrap(URL(string: $0), $0) })
        await waitForIdle(uploader)

        XCTAssertEqual(completions.all.map(\.uri.absoluteString), refused)
        for upload in completions.all {
            switch upload.outcome {
            case .refused(.unsupportedScheme): XCTAssertFalse(["http", "https"].contains(upload.uri.scheme), "\(upload.uri)")
            case .refused(.invalidURI): XCTAssertEqual(upload.uri.scheme, "http")
            default: XCTFail("\(upload)")
            }
        }
        XCTAssertEqual([uploader.statistics.refused, uploader.statistics.started], [6, 0])
        XCTAssertEqual(collector.connectionCount, 0)
    }

    /// Issue 34 item 4: by default only public https collectors are sent to. Plain http and local IP
    /// literals are refused before connecting; a name that resolves to a local address is refused
    /// on the address connected to, before a byte is sent.
    func testPlainHTTPAndLocalCollectorsAreRefusedUnlessTheConfigurationAllowsThem() async throws {
        let collector = Collector(response: Self.noContent)
        let port = try startCollector(collector)
        let completions = Completions()
        let strict = try makeUploader(completions, collectors: PinReportCollectorPolicy())
        let literals = [
            "http://127.0.0.1:\(port)/", "https://127.0.0.1:\(port)/", "https://[::1]:\(port)/",
            "https://169.254.169.254/latest", "https://10.1.2.3/", "https://192.168.0.1/", "https://[fd00::1]/",
            "https://[::ffff:127.0.0.1]/", "https://100.64.0.1/",
        ]
        strict.deliver(try report(), to: try literals.map { try XCTUnwrap(URL(string: $0), $0) })
        await waitForIdle(strict)
        let scopes = completions.all.map { upload -> String in
            switch upload.outcome {
            case .refused(.plainHTTPNotAllowed): return "http"
            case let .refused(.localAddressNotAllowed(_, scope)): return scope
            default: return "\(upload.outcome)"
            }
        }
        XCTAssertEqual(
            scopes,
            [
                "http", "loopback", "loopback", "link-local", "private-use", "private-use", "private-use",
                "loopback", "private-use",
            ])
        XCTAssertEqual(strict.statistics.started, 0)

        // A name: connected, judged on the address, closed before the request.
        let named = Completions()
        let httpOnly = try makeUploader(named, collectors: PinReportCollectorPolicy(allowsPlainHTTP: true))
        httpOnly.deliver(try report(), to: [try XCTUnwrap(URL(string: "http://localhost:\(port)/report"))])
        await waitForIdle(httpOnly)
        guard case let .failed(.localAddressNotAllowed(_, scope))? = named.all.first?.outcome else { return XCTFail("\(named.all)") }
        XCTAssertEqual(scope, "loopback")
        XCTAssertEqual(collector.requests.count, 0, "nothing was sent to the local collector")

        // Allowed: delivered.
        let allowed = Completions()
        let loopback = try makeUploader(allowed)
        loopback.deliver(try report(), to: [try XCTUnwrap(URL(string: "http://localhost:\(port)/report"))])
        await waitForIdle(loopback)
        guard case .delivered? = allowed.all.first?.outcome else { return XCTFail("\(allowed.all)") }
        XCTAssertEqual(collector.requests.count, 1)
    }

    /// Issue 40 item 7: a collector name that resolves to a local address is judged on its resolved
    /// addresses before any connection: the local listener never sees a TCP connection (no
    /// port-probing signal), and the upload fails naming the address.
    func testANameResolvingToALocalAddressIsNeverConnectedTo() async throws {
        let collector = Collector(response: Self.noContent)
        let port = try startCollector(collector)
        let completions = Completions()
        let uploader = try makeUploader(completions, collectors: PinReportCollectorPolicy(allowsPlainHTTP: true))
        uploader.deliver(try report(), to: [try XCTUnwrap(URL(string: "http://localhost:\(port)/report"))])
        await waitForIdle(uploader)
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(collector.connectionCount, 0, "the local collector accepted a connection")
        guard case let .failed(.localAddressNotAllowed(address, scope))? = completions.all.first?.outcome else {
            return XCTFail("\(completions.all)")
        }
        XCTAssertEqual(scope, "loopback")
        XCTAssertTrue(["127.0.0.1", "::1"].contains(address), address)
    }

    func testUploadsBeyondTheCapAreDropped() async throws {
        let collector = Collector(response: nil)
        let port = try startCollector(collector)
        let completions = Completions()
        let uploader = try makeUploader(completions, timeout: .milliseconds(300), maximumConcurrentUploads: 2)
        let uri = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/"))
        uploader.deliver(try report(), to: [uri, uri, uri, uri])
        XCTAssertEqual([uploader.statistics.started, uploader.statistics.dropped, uploader.statistics.inFlight], [2, 2, 2])
        await waitForIdle(uploader)

        let dropped = completions.all.filter {
            if case .dropped(.tooManyUploadsInFlight(limit: 2)) = $0.outcome { return true } else { return false }
        }
        XCTAssertEqual(dropped.count, 2)
        XCTAssertEqual([uploader.statistics.failed, uploader.statistics.inFlight], [2, 0])
    }

    func testShutdownDropsLaterReportsAndStopsTheOwnedGroup() async throws {
        let completions = Completions()
        let uploader = try HTTPPinningReportUploader(collectors: Self.loopbackCollectors, onCompletion: completions.record)
        await uploader.shutdown()
        uploader.deliver(try report(), to: [try XCTUnwrap(URL(string: "http://127.0.0.1:9/"))])
        guard case .dropped(.shutDown)? = completions.all.first?.outcome else { return XCTFail("\(completions.all)") }
        XCTAssertEqual(uploader.statistics.started, 0)
    }

    func testReporterSendsOneUploadPerFailureAndInterval() async throws {
        let collector = Collector(response: Self.noContent)
        let port = try startCollector(collector)
        let completions = Completions()
        let uploader = try makeUploader(completions)
        let reporter = PinningReporter(sinks: [uploader])
        let uri = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/report"))
        XCTAssertTrue(reporter.report(try report(), to: [uri]))
        XCTAssertFalse(reporter.report(try report(), to: [uri]))
        await waitForIdle(uploader)
        XCTAssertEqual(collector.requests.count, 1)
    }

    // MARK: Collector certificates

    /// A TLS server context presenting `leaf` (certificate and key paths) and the committed ECDSA intermediate.
    func collectorTLS(presenting leaf: (certificate: String, key: String)) throws -> NIOSSLContext {
        let chain = try [leaf.certificate, TestCertificates.path("ecdsa/intermediate.pem")]
            .flatMap { try NIOSSLCertificate.fromPEMFile($0) }.map(NIOSSLCertificateSource.certificate)
        let key = try NIOSSLPrivateKey(file: leaf.key, format: .pem)
        return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
    }

    /// A serverAuth leaf for IP address 127.0.0.1, issued now by the committed ECDSA intermediate
    /// with the openssl CLI (the committed leaves name www.swifttrust.test and documentation addresses).
    func issueLeafFor127001() throws -> (certificate: String, key: String) {
        try issueCertificate(
            config: """
                [req]
                distinguished_name = dn
                x509_extensions = ext
                prompt = no
                [dn]
                CN = 127.0.0.1
                [ext]
                basicConstraints = critical, CA:FALSE
                keyUsage = critical, digitalSignature
                extendedKeyUsage = serverAuth
                subjectAltName = IP:127.0.0.1
                subjectKeyIdentifier = hash
                authorityKeyIdentifier = keyid

                """, signedBy: "ecdsa/intermediate.pem")
    }
}
