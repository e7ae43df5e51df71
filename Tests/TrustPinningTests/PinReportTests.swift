import Foundation
import Synchronization
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// TrustKit's pin-failure report format and the reporter's rate limiting.
final class PinReportTests: XCTestCase {
    /// TrustKit's field names (`TSKPinFailureReport.m`, `pinFailureReportJsonData`): no more, no fewer.
    static let trustKitFields: Set<String> = [
        "app-bundle-id", "app-version", "app-platform", "app-platform-version", "app-vendor-id", "trustkit-version",
        "date-time", "hostname", "port", "noted-hostname", "include-subdomains", "enforce-pinning",
        "validated-certificate-chain", "known-pins", "validation-result", "known-pins-expiration-date",
    ]

    static let identity = PinReportingIdentity(
        appBundleId: "com.example.backend", appVersion: "2.4.1", appPlatform: "LINUX",
        appPlatformVersion: "6.8.0", appVendorId: "vendor-1", trustkitVersion: "SwiftTrust/1")

    /// A report on the committed ECDSA chain, pinned to the root and the intermediate.
    func report(
        hostname: String = TestCertificates.host, port: Int = 8443, result: PinValidationResult = .failed,
        enforce: Bool = true, pins: [String] = ["ecdsa/root.pem", "ecdsa/intermediate.pem"],
        date: Date = TestCertificates.verifyDate, expiration: Date? = nil
    ) throws -> PinValidationReport {
        PinValidationReport(
            hostname: hostname, port: port, notedHostname: "swifttrust.test", includeSubdomains: true,
            enforcePinning: enforce, validatedChain: try TestCertificates.certificates("ecdsa/chain.pem"),
            knownPins: try pins.map { SPKIPin(certificate: try TestCertificates.certificate($0)) }, result: result,
            date: date, identity: Self.identity, knownPinsExpirationDate: expiration)
    }

    func testJSONHasTrustKitsFieldsAndValues() throws {
        // 0.9 s after the verify date: the format has whole seconds, and TrustKit's formatter truncates.
        let json = try report(date: TestCertificates.verifyDate.addingTimeInterval(0.9)).jsonData()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(Set(object.keys), Self.trustKitFields)
        XCTAssertEqual(object["hostname"] as? String, "www.swifttrust.test")
        XCTAssertEqual(object["noted-hostname"] as? String, "swifttrust.test")
        XCTAssertEqual(object["date-time"] as? String, "2026-06-01T00:00:00Z")
        XCTAssertEqual(object["app-bundle-id"] as? String, "com.example.backend")
        XCTAssertEqual(object["app-version"] as? String, "2.4.1")
        XCTAssertEqual(object["app-platform"] as? String, "LINUX")
        XCTAssertEqual(object["app-platform-version"] as? String, "6.8.0")
        XCTAssertEqual(object["app-vendor-id"] as? String, "vendor-1")
        XCTAssertEqual(object["trustkit-version"] as? String, "SwiftTrust/1")
        XCTAssertTrue(object["known-pins-expiration-date"] is NSNull, "TrustKit sends null when the pins do not expire")
        // Numbers and booleans as JSON numbers and literals (sorted keys, no whitespace: exact text).
        let text = String(decoding: json, as: UTF8.self)
        for fragment in [#""port":8443"#, #""validation-result":1"#, #""include-subdomains":true"#, #""enforce-pinning":true"#] {
            XCTAssertTrue(text.contains(fragment), "\(fragment) in \(text)")
        }
        // Sorted keys: the first key is app-bundle-id, the last validation-result.
        XCTAssertTrue(text.hasPrefix(#"{"app-bundle-id":"#), text)
        XCTAssertTrue(text.hasSuffix(#""validation-result":1}"#), text)
    }

    func testChainIsSentAsTheCertificatesPEMBlocks() throws {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: try report().jsonData()) as? [String: Any])
        let chain = try XCTUnwrap(object["validated-certificate-chain"] as? [String])
        // openssl wrote chain.pem with 64-character lines: each block, without its trailing newline, is what TrustKit sends.
        let file = try String(contentsOf: TestCertificates.directory.appendingPathComponent("ecdsa/chain.pem"), encoding: .utf8)
        let blocks = try file.components(separatedBy: "-----END CERTIFICATE-----").dropLast().map {
            String($0[try XCTUnwrap($0.range(of: "-----BEGIN CERTIFICATE-----")).lowerBound...]) + "-----END CERTIFICATE-----"
        }
        XCTAssertEqual(blocks.count, 2)
        XCTAssertEqual(chain, blocks)
        XCTAssertEqual(try chain.map { try Certificate(pemEncoded: $0) }, try TestCertificates.certificates("ecdsa/chain.pem"))
    }

    func testKnownPinsAreHPKPPinsOfTheKeys() throws {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: try report().jsonData()) as? [String: Any])
        let pins = try XCTUnwrap(object["known-pins"] as? [String])
        // The SPKI SHA-256 as openssl computes it, in RFC 7469's pin-sha256="…" form, in configured order.
        let expected = try ["ecdsa/root.pem", "ecdsa/intermediate.pem"].map { "pin-sha256=\"\(try opensslSPKIHash($0))\"" }
        XCTAssertEqual(pins, expected)
    }

    func testExpirationDateIsSentAsItsUTCDay() throws {
        let expiration = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-07-15T23:30:00Z"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: try report(expiration: expiration).jsonData()) as? [String: Any])
        XCTAssertEqual(object["known-pins-expiration-date"] as? String, "2026-07-15")
    }

    func testReportRoundTripsAndDecodesTrustKitsOwnJSON() throws {
        let report = try report()
        XCTAssertEqual(try JSONDecoder().decode(PinValidationReport.self, from: report.jsonData()), report)
        // As NSJSONSerialization writes it: its own key order, escaped slashes, and our report's values.
        let pem = report.validatedCertificateChain.map { $0.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "\n", with: "\\n") }
        let pins = report.knownPins.map { $0.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "\"", with: "\\\"") }
        let trustKitJSON = """
            {"app-bundle-id":"com.example.backend","app-version":"2.4.1","app-platform":"LINUX","app-platform-version":"6.8.0",\
            "app-vendor-id":"vendor-1","trustkit-version":"SwiftTrust\\/1","date-time":"2026-06-01T00:00:00Z",\
            "hostname":"www.swifttrust.test","port":8443,"noted-hostname":"swifttrust.test","include-subdomains":true,\
            "enforce-pinning":true,"validated-certificate-chain":["\(pem[0])","\(pem[1])"],\
            "known-pins":["\(pins[0])","\(pins[1])"],"validation-result":1,"known-pins-expiration-date":null}
            """
        XCTAssertEqual(try JSONDecoder().decode(PinValidationReport.self, from: Data(trustKitJSON.utf8)), report)
    }

    func testValidationResultsHaveTrustKitsCodes() {
        // TSKPinValidationResult's declaration order in TrustKit's TSKPinningValidatorResult.h.
        let trustKit: [(PinValidationResult, Int)] = [
            (.success, 0), (.failed, 1), (.failedCertificateChainNotTrusted, 2), (.errorInvalidParameters, 3),
            (.failedUserDefinedTrustAnchor, 4), (.errorCouldNotGenerateSPKIHash, 5),
        ]
        XCTAssertEqual(trustKit.map(\.0.rawValue), trustKit.map(\.1))
        XCTAssertEqual(PinValidationResult.allCases.count, trustKit.count)
    }

    func testDefaultIdentityDescribesTheProcessOnly() {
        let identity = PinReportingIdentity()
        XCTAssertEqual(identity.appBundleId, ProcessInfo.processInfo.processName)
        XCTAssertEqual(identity.trustkitVersion, PinReportingIdentity.defaultReporterVersion)
        let version = ProcessInfo.processInfo.operatingSystemVersion
        XCTAssertEqual(identity.appPlatformVersion, "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)")
        #if os(Linux)
        XCTAssertEqual(identity.appPlatform, "LINUX")
        #endif
        XCTAssertNotNil(UUID(uuidString: identity.appVendorId))
        XCTAssertNotEqual(identity.appVendorId, PinReportingIdentity().appVendorId, "a fresh random id, not a machine id")
    }

    // MARK: Rate limiting

    /// A clock the test moves.
    final class TestClock: Sendable {
        private let now = Mutex(TestCertificates.verifyDate)
        func advance(by seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
        @Sendable func read() -> Date { now.withLock { $0 } }
    }

    let uris = [URL(fileURLWithPath: "/dev/null")]

    func testSameFailureIsReportedOncePerInterval() throws {
        let clock = TestClock()
        let recorder = RecordingPinningReportSink()
        let reporter = PinningReporter(sinks: [recorder], identity: Self.identity, rateLimitInterval: 3600, clock: clock.read)
        XCTAssertTrue(reporter.report(try report(), to: uris))
        clock.advance(by: 60)
        // A new date, and report-only instead of enforced: still the same failure.
        XCTAssertFalse(reporter.report(try report(enforce: false, date: clock.read()), to: uris))
        // The set of pins counts, not their order.
        XCTAssertFalse(reporter.report(try report(pins: ["ecdsa/intermediate.pem", "ecdsa/root.pem"]), to: uris))
        XCTAssertEqual(recorder.deliveries.count, 1)
        clock.advance(by: 3600 - 60 - 1)
        XCTAssertFalse(reporter.report(try report(), to: uris), "one second before the interval ends")
        clock.advance(by: 1)
        XCTAssertTrue(reporter.report(try report(date: clock.read()), to: uris), "the interval has passed")
        XCTAssertEqual(
            recorder.deliveries.map(\.report.dateTime), [TestCertificates.verifyDate, TestCertificates.verifyDate.addingTimeInterval(3600)])
        XCTAssertEqual(recorder.deliveries.map(\.reportURIs), [uris, uris])
    }

    func testDifferentPortResultHostOrPinsAreSeparateFailures() throws {
        let recorder = RecordingPinningReportSink()
        let reporter = PinningReporter(sinks: [recorder], identity: Self.identity, clock: TestClock().read)
        XCTAssertEqual(reporter.rateLimitInterval, 24 * 60 * 60, "TrustKit's interval by default")
        let variants = [
            try report(), try report(port: 443), try report(result: .failedCertificateChainNotTrusted),
            try report(hostname: "api.swifttrust.test"), try report(pins: ["ecdsa/root.pem"]),
        ]
        XCTAssertEqual(variants.map { reporter.report($0, to: uris) }, [true, true, true, true, true])
        XCTAssertEqual(variants.map { reporter.report($0, to: uris) }, [false, false, false, false, false])
        XCTAssertEqual(recorder.deliveries.count, 5)
    }

    func testIntervalZeroReportsEveryFailure() throws {
        let recorder = RecordingPinningReportSink()
        let reporter = PinningReporter(sinks: [recorder], rateLimitInterval: 0, clock: TestClock().read)
        for _ in 0..<3 { XCTAssertTrue(reporter.report(try report(), to: uris)) }
        XCTAssertEqual(recorder.deliveries.count, 3)
        XCTAssertEqual(reporter.rememberedFailureCount, 0)
    }

    func testOldestFailureIsForgottenAtTheCap() throws {
        let clock = TestClock()
        let recorder = RecordingPinningReportSink()
        let reporter = PinningReporter(sinks: [recorder], rateLimitInterval: 3600, maximumRememberedFailures: 2, clock: clock.read)
        let (a, b, c) = (try report(port: 1), try report(port: 2), try report(port: 3))
        for failure in [a, b, c] {
            XCTAssertTrue(reporter.report(failure, to: uris))
            clock.advance(by: 1)
        }
        XCTAssertEqual(reporter.rememberedFailureCount, 2)
        XCTAssertFalse(reporter.report(c, to: uris), "still remembered")
        XCTAssertTrue(reporter.report(a, to: uris), "forgotten when c came: reported again")
        XCTAssertFalse(reporter.report(c, to: uris), "a pushed out b, not c")
        XCTAssertTrue(reporter.report(b, to: uris))
        XCTAssertEqual(recorder.deliveries.map(\.report.port), [1, 2, 3, 1, 2])
    }

    func testClockGoingBackDoesNotSilenceReports() throws {
        let clock = TestClock()
        let recorder = RecordingPinningReportSink()
        let reporter = PinningReporter(sinks: [recorder], rateLimitInterval: 3600, clock: clock.read)
        XCTAssertTrue(reporter.report(try report(), to: uris))
        clock.advance(by: -10)
        XCTAssertTrue(reporter.report(try report(), to: uris))
        XCTAssertFalse(reporter.report(try report(), to: uris), "the interval restarted at the earlier time")
    }

    func testEverySinkReceivesEveryReport() throws {
        let first = RecordingPinningReportSink()
        let second = RecordingPinningReportSink()
        let reporter = PinningReporter(sinks: [first, second], clock: TestClock().read)
        let destinations = [URL(fileURLWithPath: "/a"), URL(fileURLWithPath: "/b")]
        reporter.report(try report(), to: destinations)
        XCTAssertEqual(first.deliveries, second.deliveries)
        XCTAssertEqual(first.deliveries.first?.reportURIs, destinations)
    }

    func testConcurrentReportsOfOneFailureAreDeliveredOnce() throws {
        let recorder = RecordingPinningReportSink()
        let reporter = PinningReporter(sinks: [recorder], clock: TestClock().read)
        let failure = try report()
        let sent = Mutex(0)
        let uris = self.uris
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if reporter.report(failure, to: uris) { sent.withLock { $0 += 1 } }
        }
        XCTAssertEqual(sent.withLock { $0 }, 1)
        XCTAssertEqual(recorder.deliveries.count, 1)
    }

    /// The base64 SHA-256 of a certificate's SubjectPublicKeyInfo, computed by the openssl CLI.
    private func opensslSPKIHash(_ certificate: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { throw XCTSkip("no /bin/sh") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            "openssl x509 -in \"$0\" -noout -pubkey | openssl pkey -pubin -outform DER"
                + " | openssl dgst -sha256 -binary | openssl base64 -A", TestCertificates.path(certificate),
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("openssl is not installed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
